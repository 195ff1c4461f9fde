package prove

import (
	"os"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
)

// fcstmModel loads an FCSTM model as the front end does.
func fcstmModel(t *testing.T, path string) *frontend.Model {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := lower.Lower(m)
	if err != nil {
		t.Fatal(err)
	}
	return &frontend.Model{Path: path, Format: "fcstm", System: sys, Native: m}
}

func fcstmProblem(t *testing.T, modelPath, rscPath string) *Problem {
	t.Helper()
	p, err := ModelProblem(fcstmModel(t, modelPath))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(rscPath)
	if err != nil {
		t.Fatal(err)
	}
	if p.Props, err = ParseRSC(rscPath, string(src), p.Graph); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFCSTMProbe(t *testing.T) {
	for _, rsc := range []string{"retry.rsc", "retry-broken.rsc"} {
		p := fcstmProblem(t, "../../examples/fcstm/retry.fcstm", "../../examples/fcstm/"+rsc)
		var names []string
		for _, n := range p.Graph.Nodes {
			names = append(names, n.Name)
		}
		t.Logf("nodes %s, %d edges", strings.Join(names, " "), len(p.Graph.Edges))
		res, err := Prove(p, Options{TimeoutMS: 20000})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		res.WriteText(&b)
		t.Logf("%s: %s\n%s", rsc, res.Verdict, b.String())
	}
}
