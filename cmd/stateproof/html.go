package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/compose"
	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/htmlreport"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/prove"
	"github.com/stateproof/stateproof/internal/report"
)

// jsonPicture is what the HTML report draws of a JSON model: nothing for
// an invalid one.
func jsonPicture(name string, res *jsonmodel.Result) htmlreport.Picture {
	if res == nil || !res.Valid() {
		return htmlreport.Picture{}
	}
	return htmlreport.Picture{Graph: diagram.FromJSON(res.Model, filepath.Base(name)), Model: res.Model}
}

// modelPicture draws a loaded model of any format: the one place the
// commands look at a front end's own model value.
func modelPicture(m *frontend.Model) htmlreport.Picture {
	switch native := m.Native.(type) {
	case *jsonmodel.Model:
		return htmlreport.Picture{Graph: diagram.FromJSON(native, filepath.Base(m.Path)), Model: native}
	case *model.Model:
		return fcstmPicture(m.Path, native)
	}
	return htmlreport.Picture{}
}

// fcstmPicture draws an FCSTM machine (nothing when it did not load).
func fcstmPicture(name string, m *model.Model) htmlreport.Picture {
	if m == nil {
		return htmlreport.Picture{}
	}
	return htmlreport.Picture{Graph: diagram.FromFCSTM(m, filepath.Base(name))}
}

// verifyHTML renders a verify report as one self-contained HTML page.
func verifyHTML(name string, rep *report.VerifyReport, pic htmlreport.Picture) ([]byte, error) {
	p, err := htmlreport.Verify(context.Background(), name, rep, pic, version)
	if err != nil {
		return nil, err
	}
	return p.Render()
}

// emitComposeHTML writes the compose report as a page; exit 2 on fail,
// like the other formats.
func emitComposeHTML(out outputFlags, stdout io.Writer, rep *report.ComposeReport, in []compose.Input) error {
	var text bytes.Buffer
	if err := report.WriteComposeText(&text, rep, report.Style{}); err != nil {
		return err
	}
	p, err := htmlreport.Compose(context.Background(), rep, in, text.String(), version)
	if err != nil {
		return err
	}
	if err := writePage(out.out, stdout, p); err != nil {
		return err
	}
	if v, _ := rep.Verdict(); v == report.Fail {
		return &exitError{2}
	}
	return nil
}

// emitBMCHTML writes the bmc checks as a page, with the exit code of the
// text and JSON outputs.
func emitBMCHTML(f *bmcFlags, stdout io.Writer, reports []*bmc.Report) error {
	var text bytes.Buffer
	for i, r := range reports {
		if i > 0 {
			text.WriteString("\n")
		}
		if err := r.WriteText(&text); err != nil {
			return err
		}
	}
	code := frontend.AggregateExit(reports)
	p, err := htmlreport.BMC(context.Background(), f.model, modelPicture(f.loaded).Graph, reports, code, text.String(), version)
	if err != nil {
		return err
	}
	if err := writePage(f.out.out, stdout, p); err != nil {
		return err
	}
	if code != 0 {
		return &exitError{code}
	}
	return nil
}

// emitProveHTML writes the prove result as a page. A JSON model (fm, as
// loaded for the proof; nil for a CHC problem) is drawn with the
// counterexample traces on it; a CHC problem and, for now, an FCSTM model
// have no drawing.
func emitProveHTML(f *proveFlags, input string, fm *frontend.Model, stdout io.Writer, res *prove.Result) error {
	var text bytes.Buffer
	if err := res.WriteText(&text); err != nil {
		return err
	}
	var m *jsonmodel.Model
	origin := map[string]int{}
	if fm != nil {
		m, _ = fm.Native.(*jsonmodel.Model)
	}
	if m != nil {
		for _, cases := range fm.System.Cases {
			for _, c := range cases {
				origin[c.Label] = c.Origin
			}
		}
	}
	p, err := htmlreport.Prove(context.Background(), input, m, origin, res, text.String(), version)
	if err != nil {
		return err
	}
	if err := writePage(f.out.out, stdout, p); err != nil {
		return err
	}
	if code := res.ExitCode(); code != 0 {
		return &exitError{code}
	}
	return nil
}

func writePage(path string, stdout io.Writer, p *htmlreport.Page) error {
	data, err := p.Render()
	if err != nil {
		return err
	}
	return writeOutput(path, stdout, data)
}
