package diagram

import (
	"bytes"
	"context"
	"fmt"

	"github.com/goccy/go-graphviz"
)

// SVG lays g out with Graphviz's dot and returns the SVG document. Graphviz
// runs as WebAssembly inside the process (github.com/goccy/go-graphviz on
// wazero), so nothing has to be installed.
func SVG(ctx context.Context, g *Graph, ov *Overlay, idPrefix string) ([]byte, error) {
	return LayoutSVG(ctx, DOT(g, ov, idPrefix))
}

// LayoutSVG lays out DOT source and returns the SVG document.
func LayoutSVG(ctx context.Context, dot string) ([]byte, error) {
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting graphviz: %w", err)
	}
	defer gv.Close()
	graph, err := graphviz.ParseBytes([]byte(dot))
	if err != nil {
		return nil, fmt.Errorf("graphviz could not read the generated DOT (a bug in stateproof): %w", err)
	}
	defer graph.Close()
	var buf bytes.Buffer
	if err := gv.Render(ctx, graph, graphviz.SVG, &buf); err != nil {
		return nil, fmt.Errorf("graphviz layout: %w", err)
	}
	return buf.Bytes(), nil
}
