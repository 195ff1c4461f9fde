package simulate

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
)

// history lists the cycles so far, one line each: the events and where the
// machine went.
func (sh *Shell) history() {
	r := sh.s.Report()
	if len(r.Cycles) == 0 {
		fmt.Fprintf(sh.w, "  no cycle yet; started at %s\n", stateText(r.Initial.State))
		return
	}
	for _, c := range r.Cycles {
		events := "no event"
		if len(c.Events) > 0 {
			events = strings.Join(c.Events, ", ")
		}
		outcome := stateText(c.State)
		if c.Error != nil {
			outcome = "✗ " + c.Error.Class + " error, still at " + outcome
		}
		fmt.Fprintf(sh.w, "  %3d  [%s]  → %s\n", c.Index, events, outcome)
	}
}

// export writes the run so far to a file.
func (sh *Shell) export(args []string) {
	if len(args) != 1 {
		fmt.Fprintln(sh.w, "  usage: export FILE.csv|FILE.json|FILE.jsonl")
		return
	}
	name := args[0]
	r := sh.s.Report()
	if err := r.Export(name, discard{}); err != nil { // the extension first: no file for a bad name
		fmt.Fprintf(sh.w, "  ✗ %v\n", err)
		return
	}
	f, err := sh.Create(name)
	if err != nil {
		fmt.Fprintf(sh.w, "  ✗ cannot export: %v\n", err)
		return
	}
	err = r.Export(name, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(sh.w, "  ✗ cannot export: %v\n", err)
		return
	}
	fmt.Fprintf(sh.w, "  wrote %d cycles to %s\n", len(r.Cycles), name)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// init starts the session again, cold or hot at a state with NAME=VALUE
// variables; the run so far is dropped (export it first).
func (sh *Shell) init(args []string) {
	var state string
	var vars map[string]expr.Value
	if len(args) > 0 {
		state = args[0]
		obj := map[string]json.RawMessage{}
		for _, a := range args[1:] {
			name, val, ok := strings.Cut(a, "=")
			if !ok || name == "" || val == "" {
				fmt.Fprintf(sh.w, "  ✗ %q: want NAME=VALUE\n", a)
				return
			}
			if !json.Valid([]byte(val)) {
				val = `"` + strings.ReplaceAll(val, `"`, ``) + `"` // inf, -inf, nan; anything else is refused below
			}
			obj[name] = json.RawMessage(val)
		}
		data, _ := json.Marshal(obj) // raw values already valid JSON
		var err error
		if vars, err = ParseInitVars(data); err != nil {
			fmt.Fprintf(sh.w, "  ✗ %v\n", err)
			return
		}
	}
	if err := sh.s.Restart(state, vars); err != nil {
		fmt.Fprintf(sh.w, "  ✗ cannot start: %v\n", err)
		return
	}
	sh.tw.Start(sh.s.Report())
}
