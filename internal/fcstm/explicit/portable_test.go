package explicit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// raising has a cycle that raises (division by zero), so that raised
// locations travel too.
const raising = "def int x = 2;\ndef int y = 0;\nstate R { state A; [*] -> A;\n A -> A :: Tick effect { x = (x + 1) % 3; };\n A -> A :: Div effect { y = 10 / x; };\n}\n"

// Every state and step of a search, encoded by one machine and read by
// another of the same model that numbers its locations in another order
// (as another process would), is the same state and step: equal
// encodings, equal canonical words, equal descriptions.
func TestPortable(t *testing.T) {
	models := map[string]*model.Model{"raising": parse(t, raising)}
	files, _ := filepath.Glob("../../../examples/fcstm/*.fcstm")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.Parse(f, string(src), model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		models[filepath.Base(f)] = m
	}
	for name, m := range models {
		a, errA := New(m)
		b, errB := New(m)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		g := explore.Search{Machine: a, Cap: 3000}.Run()
		words := make([]int64, a.Width())
		got := make([]int64, b.Width())
		for i := g.Len() - 1; i >= 0; i-- { // reversed: b meets locations in another order
			g.Runtime(i, words)
			enc := a.AppendState(nil, words)
			rest, err := b.ReadState(append(enc, 7), got)
			if err != nil || !bytes.Equal(rest, []byte{7}) {
				t.Fatalf("%s: node %d: %v, rest %v", name, i, err, rest)
			}
			if key(a, words) != key(b, got) || !bytes.Equal(b.AppendState(nil, got), enc) {
				t.Fatalf("%s: node %d: %s read as %s", name, i, key(a, words), key(b, got))
			}
			if !slices.Equal(a.Canon(nil, words), b.Canon(nil, got)) {
				t.Fatalf("%s: node %d: canonical words differ", name, i)
			}
			if _, via := g.Parent(i); via >= 0 {
				l, rest, err := b.ReadLabel(a.AppendLabel(nil, via))
				if err != nil || len(rest) != 0 {
					t.Fatalf("%s: step %d: %v", name, via, err)
				}
				if x, y := fmt.Sprint(a.Describe(via)), fmt.Sprint(b.Describe(l)); x != y {
					t.Fatalf("%s: step %s read as %s", name, x, y)
				}
			}
		}
	}
}

// Bytes that are not a state or a step of the model are an error, never
// a panic: truncated encodings, and a control the model cannot be in.
func TestPortableRefusesGarbage(t *testing.T) {
	mc, err := New(parse(t, raising))
	if err != nil {
		t.Fatal(err)
	}
	g := explore.Search{Machine: mc, Cap: 100}.Run()
	words := g.Runtime(g.Len()-1, nil)
	enc := mc.AppendState(nil, words)
	_, via := g.Parent(g.Len() - 1)
	lab := mc.AppendLabel(nil, via)
	dst := make([]int64, mc.Width())
	for k := range enc {
		if _, err := mc.ReadState(enc[:k], dst); err == nil {
			t.Errorf("state cut at %d of %d read", k, len(enc))
		}
	}
	for k := range lab {
		if _, _, err := mc.ReadLabel(lab[:k]); err == nil {
			t.Errorf("step cut at %d of %d read", k, len(lab))
		}
	}
	bad := mc.appendLoc(nil, &Location{Kind: Running, control: "\xff\x00\x00\x00\x09"})
	if _, err := mc.ReadState(append(bad, 0, 0), dst); err == nil {
		t.Error("a control the model cannot be in was read")
	}
	if _, err := mc.ReadState([]byte{9}, dst); err == nil {
		t.Error("an unknown location kind was read")
	}
}
