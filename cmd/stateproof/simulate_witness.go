package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/simulate"
	"github.com/stateproof/stateproof/internal/input"
)

// witnessFrame is one frame of a stateproof/bmc/v1 witness.
type witnessFrame struct {
	Index      int             `json:"index"`
	State      *string         `json:"state"`
	Sentinel   *string         `json:"sentinel"`
	Terminated bool            `json:"terminated"`
	Vars       json.RawMessage `json:"vars"`
}

type witnessDoc struct {
	Frames []witnessFrame `json:"frames"`
}

// bmcDoc is what --from-witness reads of a bmc report: the witness of a
// query, or of the first check of a --bound document that has one.
type bmcDoc struct {
	Schema  string      `json:"schema"`
	Witness *witnessDoc `json:"witness"`
	Checks  []struct {
		Witness *witnessDoc `json:"witness"`
	} `json:"checks"`
}

// witnessStart reads frame n (n < 0: the last) of the witness or
// counterexample in a bmc report and returns the hot start it gives: the
// frame's state and variables, or, for the frame before the first cycle
// (the init sentinel), a cold start with its variables.
func witnessStart(rd input.Reader, file string, n int) (state string, vars map[string]expr.Value, err error) {
	data, err := rd.ReadFile(file)
	if err != nil {
		return "", nil, err
	}
	var doc bmcDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return "", nil, fmt.Errorf("%s: not a stateproof bmc report: %v", file, err)
	}
	if doc.Schema != "stateproof/bmc/v1" {
		return "", nil, fmt.Errorf("%s: $.schema is %q, want \"stateproof/bmc/v1\" (the report of stateproof bmc --json)", file, doc.Schema)
	}
	w, path := doc.Witness, "$.witness"
	for i := 0; w == nil && i < len(doc.Checks); i++ {
		w, path = doc.Checks[i].Witness, fmt.Sprintf("$.checks[%d].witness", i)
	}
	if w == nil || len(w.Frames) == 0 {
		return "", nil, fmt.Errorf("%s: the report has no witness or counterexample to start from", file)
	}
	if n < 0 {
		n = len(w.Frames) - 1
	}
	if n >= len(w.Frames) {
		return "", nil, fmt.Errorf("%s: --frame %d: the trace has frames 0 to %d", file, n, len(w.Frames)-1)
	}
	f := w.Frames[n]
	at := fmt.Sprintf("%s: %s.frames[%d]", file, path, n)
	if f.Terminated {
		return "", nil, fmt.Errorf("%s: the machine has terminated in this frame; start from an earlier one", at)
	}
	if vars, err = simulate.ParseInitVars(f.Vars); err != nil {
		return "", nil, fmt.Errorf("%s.vars: %v", at, err)
	}
	if f.State == nil {
		if f.Sentinel != nil && *f.Sentinel == "init" {
			return "", vars, nil // before the first cycle: a cold start with these values
		}
		return "", nil, fmt.Errorf("%s: the frame has no state to start from", at)
	}
	return *f.State, vars, nil
}
