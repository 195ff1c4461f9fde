package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/show"
)

// DrawInput is the input of the draw tool.
type DrawInput struct {
	Input
	Title string `json:"title,omitempty" jsonschema:"a title for the diagram (a Mermaid comment line)"`
}

// DrawOutput is the result of the draw tool.
type DrawOutput struct {
	Mermaid string `json:"mermaid" jsonschema:"the machine as a Mermaid stateDiagram-v2"`
}

// ShowInput is the input of the show tool.
type ShowInput struct {
	Input
	Form   string `json:"form,omitempty" jsonschema:"A (transition table, default), B (sentence blocks), C (grouped by source state) or auto"`
	Width  int    `json:"width,omitempty" jsonschema:"display width in columns (default 100); CJK characters count 2"`
	Detail bool   `json:"detail,omitempty" jsonschema:"with form auto: detailed confirmation (form B for 10 transitions or fewer)"`
}

// ShowOutput is the result of the show tool.
type ShowOutput struct {
	Form string `json:"form" jsonschema:"the form used (A falls back to C when a row would not fit)"`
	Text string `json:"text" jsonschema:"the presentation, with the narrative inline"`
}

// addPresentationTools registers draw and show.
func (srv *server) addPresentationTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "draw", Description: "Draw a JSON state-machine model as a Mermaid stateDiagram-v2 (paste it into a pull request or Markdown: GitHub renders it). Guards and updates are edge labels, terminal states go to the final marker.", Annotations: annotations()}, srv.drawTool)
	mcp.AddTool(s, &mcp.Tool{Name: "show", Description: "Present a JSON model for the user to confirm, with its narrative inline: form A (one row per transition, meanings in parentheses, scenario last), B (sentence blocks), C (grouped by source state) or auto. Show the text to the user as it is.", Annotations: annotations()}, srv.showTool)
}

func (srv *server) drawTool(_ context.Context, _ *mcp.CallToolRequest, in DrawInput) (*mcp.CallToolResult, DrawOutput, error) {
	res, name, err := srv.decode(&in.Input)
	if err != nil {
		return nil, DrawOutput{}, err
	}
	if !res.Valid() {
		return nil, DrawOutput{}, fmt.Errorf("%s is not a valid model: %v", name, res.Errors)
	}
	text := diagram.Mermaid(diagram.FromJSON(res.Model, in.Title), nil)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, DrawOutput{Mermaid: text}, nil
}

func (srv *server) showTool(_ context.Context, _ *mcp.CallToolRequest, in ShowInput) (*mcp.CallToolResult, ShowOutput, error) {
	res, name, err := srv.decode(&in.Input)
	if err != nil {
		return nil, ShowOutput{}, err
	}
	if !res.Valid() {
		return nil, ShowOutput{}, fmt.Errorf("%s is not a valid model: %v", name, res.Errors)
	}
	opt := show.Options{Form: in.Form, Width: in.Width, Detail: in.Detail}
	if opt.Form == "" {
		opt.Form = show.FormA
	}
	if opt.Width == 0 {
		opt.Width = 100
	}
	text, form, err := show.Render(show.FromJSON(res.Model), opt)
	if err != nil {
		return nil, ShowOutput{}, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, ShowOutput{Form: form, Text: text}, nil
}
