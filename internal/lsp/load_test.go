package lsp

import (
	"context"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/inspect"
)

// TestFCSTMDiagnosticsLoadOnce: the diagnostics of an FCSTM document load
// the model once for the lint and inspect. Allocations count the work
// without the timing's noise: two loads (the lint's and inspect's own)
// would cost about a load more than the lint and inspect sharing one.
func TestFCSTMDiagnosticsLoadOnce(t *testing.T) {
	ws := newWorkspace(Options{})
	uri := "file:///tmp/gen.fcstm"
	ws.open(textDocumentItem{URI: uri, LanguageID: "fcstm", Version: 1, Text: generatedModel(300)})
	d := ws.get(uri)
	ctx := context.Background()
	src := []byte(d.text.src)
	load := testing.AllocsPerRun(3, func() {
		if _, _, err := ws.loadFCSTM(d); err != nil {
			t.Fatal(err)
		}
	})
	separate := testing.AllocsPerRun(3, func() {
		if _, err := lint.CheckSourceContext(ctx, d.path, src, ws.modelOptions()); err != nil {
			t.Fatal(err)
		}
		inspect.Source(d.path, src, inspect.Options{Model: ws.modelOptions()})
	})
	diagnose := testing.AllocsPerRun(3, func() {
		if len(ws.fcstmDiagnostics(ctx, d)) == 0 {
			t.Fatal("no diagnostics")
		}
	})
	if diagnose > separate-load/2 {
		t.Errorf("diagnostics allocate %.0f, the lint and inspect with a load each %.0f, one load %.0f: the model is loaded more than once", diagnose, separate, load)
	}
}
