package simulate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// Export writes the report in the format its file name's extension names:
// .json the stateproof/simulate/v1 document, .jsonl one JSON cycle per
// line (after a first line with the initial configuration), .csv one row
// per cycle with a column per variable.
func (r *Report) Export(name string, w io.Writer) error {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		data, err := r.Marshal()
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	case ".jsonl":
		return r.writeJSONL(w)
	case ".csv":
		return r.writeCSV(w)
	}
	return fmt.Errorf("%s: the file name must end in .csv, .json or .jsonl", name)
}

func (r *Report) writeJSONL(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Schema  string    `json:"schema"`
		Model   string    `json:"model"`
		Initial *Snapshot `json:"initial"`
	}{r.Schema, r.Model, r.Initial}); err != nil {
		return err
	}
	for i := range r.Cycles {
		if err := enc.Encode(&r.Cycles[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeCSV writes cycle 0 (the initial configuration) and every cycle:
// the events joined by spaces, the state ("" once ended), the error
// class, then the variables in declaration order.
func (r *Report) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var names []string
	if r.Initial != nil {
		names = r.Initial.Vars.Names
	}
	head := append([]string{"cycle", "events", "state", "ended", "error"}, names...)
	if err := cw.Write(head); err != nil {
		return err
	}
	row := func(i int, events []string, state *string, ended bool, e *ErrorReport, v Vars) error {
		rec := []string{strconv.Itoa(i), strings.Join(events, " "), "", strconv.FormatBool(ended), ""}
		if state != nil {
			rec[2] = *state
		}
		if e != nil {
			rec[4] = e.Class
		}
		for _, n := range names {
			val, _ := v.Get(n)
			rec = append(rec, valueText(val))
		}
		return cw.Write(rec)
	}
	if r.Initial != nil {
		if err := row(0, nil, r.Initial.State, r.Initial.Ended, nil, r.Initial.Vars); err != nil {
			return err
		}
	}
	for _, c := range r.Cycles {
		if err := row(c.Index, c.Events, c.State, c.Ended, c.Error, c.Vars); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
