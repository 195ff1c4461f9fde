package lsp

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// generatedModel is an FCSTM model of about lines lines: variables, then
// a chain of composite states, each with children, actions, guards,
// local and owner-scoped events.
func generatedModel(lines int) string {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "def int x%d = %d;\n", i, i)
	}
	b.WriteString("state Root {\n    event Next named \"next block\";\n    [*] -> S0;\n")
	for i := 0; strings.Count(b.String(), "\n") < lines-2; i++ {
		v := fmt.Sprintf("x%d", i%20)
		fmt.Fprintf(&b, `    state S%[1]d {
        enter { %[2]s = %[2]s + 1; }
        state A;
        state B {
            during { %[2]s = (%[2]s * 2) %% 7; }
        }
        state C;
        [*] -> A;
        A -> B : Go;
        B -> C :: Tick effect { %[2]s = 0; }
        C -> A : if [%[2]s > 3];
        C -> [*] : Stop;
    }
    S%[1]d -> S%[3]d : Next;
`, i, v, i+1)
		if strings.Count(b.String(), "\n") >= lines-18 {
			fmt.Fprintf(&b, "    state S%d;\n", i+1)
			break
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func TestGeneratedModelLoads(t *testing.T) {
	src := generatedModel(2000)
	if n := strings.Count(src, "\n"); n < 1950 || n > 2050 {
		t.Fatalf("%d lines", n)
	}
	ws := newWorkspace(Options{})
	d := &document{uri: "file:///tmp/gen.fcstm", path: "/tmp/gen.fcstm", lang: langFCSTM, version: 1, text: newText(src)}
	for _, diag := range ws.diagnose(context.Background(), d) {
		if diag.Severity == sevError {
			t.Fatalf("the generated model has an error: %+v", diag)
		}
	}
}

// BenchmarkDiagnosticsAfterChange is the work behind the diagnostics of
// a 2,000-line FCSTM file after one keystroke: apply the incremental
// change, parse, construct and lint (target: 50 ms).
func BenchmarkDiagnosticsAfterChange(b *testing.B) {
	ws := newWorkspace(Options{})
	uri := "file:///tmp/gen.fcstm"
	ws.open(textDocumentItem{URI: uri, LanguageID: "fcstm", Version: 1, Text: generatedModel(2000)})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// Toggle the first variable's initial value: 0 <-> 1.
		r := rng(0, 12, 0, 13)
		if err := ws.change(didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: i + 2}, ContentChanges: []contentChange{{Range: &r, Text: fmt.Sprint(i % 2)}}}); err != nil {
			b.Fatal(err)
		}
		ws.diagnose(ctx, ws.get(uri))
	}
}

// BenchmarkCompletion is one completion request in a trigger of the
// 2,000-line file (target: 10 ms).
func BenchmarkCompletion(b *testing.B) {
	ws := newWorkspace(Options{})
	uri := "file:///tmp/gen.fcstm"
	src := generatedModel(2000)
	ws.open(textDocumentItem{URI: uri, LanguageID: "fcstm", Version: 1, Text: src})
	d := ws.get(uri)
	off := strings.Index(src, "A -> B : Go") + len("A -> B : ")
	b.ResetTimer()
	for b.Loop() {
		if items := ws.fcstmCompletion(d, off); len(items) == 0 {
			b.Fatal("no items")
		}
	}
}

// BenchmarkCompletionAfterChange is completion right after a keystroke,
// so the index is built again first.
func BenchmarkCompletionAfterChange(b *testing.B) {
	ws := newWorkspace(Options{})
	uri := "file:///tmp/gen.fcstm"
	src := generatedModel(2000)
	ws.open(textDocumentItem{URI: uri, LanguageID: "fcstm", Version: 1, Text: src})
	off := strings.Index(src, "A -> B : Go") + len("A -> B : ")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := rng(0, 12, 0, 13)
		ws.change(didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: i + 2}, ContentChanges: []contentChange{{Range: &r, Text: fmt.Sprint(i % 2)}}})
		ws.fcstmCompletion(ws.get(uri), off)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// editSession applies n edits to a 2,000-line file through the protocol
// and waits for the diagnostics of the last one; it returns the heap
// before the first and after the last.
func editSession(t testing.TB, n int) (before, after uint64) {
	s := startSession(t, Options{})
	uri := "file:///tmp/gen.fcstm"
	s.open(uri, "fcstm", generatedModel(2000))
	s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 1 })
	before = heapInUse()
	for i := range n {
		// Type and delete a comment character by character.
		var e map[string]any
		if i%2 == 0 {
			e = edit(rng(20, 0, 20, 0), "/")
		} else {
			e = edit(rng(20, 0, 20, 1), "")
		}
		s.change(uri, i+2, e)
	}
	s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == n+1 })
	after = heapInUse()
	return before, after
}

// TestMemoryFlatOverEdits: 10,000 edits leave the heap where it was
// (within 16 MiB: one document, its index and one analysis).
func TestMemoryFlatOverEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 edits (-short)")
	}
	before, after := editSession(t, 10000)
	t.Logf("heap before %d KiB, after 10,000 edits %d KiB", before>>10, after>>10)
	if after > before+16<<20 {
		t.Fatalf("the heap grew from %d to %d bytes over 10,000 edits", before, after)
	}
}

// BenchmarkEdits reports the heap before and after 10,000 edits.
func BenchmarkEdits(b *testing.B) {
	for b.Loop() {
		before, after := editSession(b, 10000)
		b.ReportMetric(float64(before)/(1<<20), "MiB-heap-before")
		b.ReportMetric(float64(after)/(1<<20), "MiB-heap-after")
	}
}
