// Package baseline compares a verify or compose report with an earlier one
// (docs/models.md) and says which findings were added,
// removed or changed, with a delta verdict: a new error fails.
//
// Both reports are read the same way, from their JSON: the current report
// is rendered and parsed again, so a finding matches itself across runs
// exactly when its JSON does. The match key of a finding is
// `<check id>|<code>|canonical({evidence, path})` (or the message when it
// has neither), and matching is multiset matching in report order.
package baseline

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// Report is the part of a verify or compose report the diff reads.
type Report struct {
	Schema    string
	Verdict   string
	ModelHash string // compose: the machine hashes joined by ","
	findings  []entry
}

// entry is one finding with the id of the check that holds it ("-" for
// the top-level findings array).
type entry struct {
	check, code, severity, message string
	key                            string
	obj                            *jsonvalue.Value
}

// Parse reads a report. The error says why data is not a verify or
// compose report; the caller refuses with BASELINE_INVALID.
func Parse(data []byte) (*Report, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return fromValue(v)
}

// FromJSON reads a report the engine just built.
func FromJSON(o report.Obj) (*Report, error) {
	data, err := o.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

func fromValue(v *jsonvalue.Value) (*Report, error) {
	if v.Kind != jsonvalue.Object {
		return nil, fmt.Errorf("not a report: expected an object, found %s", v.Kind)
	}
	r := &Report{}
	var ok bool
	if r.Schema, ok = str(v, "schema"); !ok || (r.Schema != report.VerifySchema && r.Schema != report.ComposeSchema) {
		return nil, fmt.Errorf("not a report: \"schema\" must be %q or %q", report.VerifySchema, report.ComposeSchema)
	}
	if ran := v.Get("ran"); ran == nil || ran.Kind != jsonvalue.Bool || !ran.Bool {
		return nil, fmt.Errorf("not a report: \"ran\" is not true (a refusal has no findings to compare)")
	}
	if r.Verdict, ok = str(v, "verdict"); !ok {
		return nil, fmt.Errorf("not a report: \"verdict\" missing")
	}
	r.ModelHash, _ = str(v, "modelHash")
	if ms := v.Get("hashes").Get("machines"); r.Schema == report.ComposeSchema && ms != nil && ms.Kind == jsonvalue.Array {
		var hs []string
		for _, h := range ms.Elems {
			hs = append(hs, h.Str)
		}
		r.ModelHash = strings.Join(hs, ",")
	}
	checks := v.Get("checks")
	if checks == nil || checks.Kind != jsonvalue.Array {
		return nil, fmt.Errorf("not a report: \"checks\" must be an array")
	}
	for i, c := range checks.Elems {
		id, ok := str(c, "id")
		if !ok {
			return nil, fmt.Errorf("not a report: checks[%d].id missing", i)
		}
		if err := r.addFindings(id, c.Get("findings"), fmt.Sprintf("checks[%d].findings", i), true); err != nil {
			return nil, err
		}
	}
	if err := r.addFindings("-", v.Get("findings"), "findings", false); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Report) addFindings(check string, fs *jsonvalue.Value, path string, required bool) error {
	if fs == nil && !required {
		return nil
	}
	if fs == nil || fs.Kind != jsonvalue.Array {
		return fmt.Errorf("not a report: %s must be an array", path)
	}
	for j, f := range fs.Elems {
		e := entry{check: check, obj: f}
		var ok1, ok2, ok3 bool
		e.code, ok1 = str(f, "code")
		e.severity, ok2 = str(f, "severity")
		e.message, ok3 = str(f, "message")
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("not a report: %s[%d] needs string code, severity and message", path, j)
		}
		e.key = matchKey(check, e.code, e.message, f)
		r.findings = append(r.findings, e)
	}
	return nil
}

// matchKey is `<check>|<code>|canonical({evidence, path})`, or
// `<check>|<code>|<message>` for a finding with neither.
func matchKey(check, code, message string, f *jsonvalue.Value) string {
	obj := &jsonvalue.Value{Kind: jsonvalue.Object}
	for _, k := range []string{"evidence", "path"} {
		if x := f.Get(k); x != nil {
			obj.Members = append(obj.Members, jsonvalue.Member{Key: k, Value: x})
		}
	}
	if len(obj.Members) == 0 {
		return check + "|" + code + "|" + message
	}
	return check + "|" + code + "|" + string(jsonvalue.Canonical(obj, false))
}

func str(v *jsonvalue.Value, key string) (string, bool) {
	x := v.Get(key)
	if x == nil || x.Kind != jsonvalue.String {
		return "", false
	}
	return x.Str, true
}

// Comparable says why cur cannot be diffed against the baseline r: a
// verify report is compared with verify reports only, a compose report
// with compose reports only.
func (r *Report) Comparable(cur *Report) error {
	if r.Schema != cur.Schema {
		return fmt.Errorf("the baseline is a %s report, this run writes %s", r.Schema, cur.Schema)
	}
	return nil
}

// Change is a finding whose match key is in both reports but whose
// severity or message differs.
type Change struct {
	Check, Code   string
	Before, After *jsonvalue.Value
	afterSeverity string
}

// Diff is the logicprobe/baseline/v1 document.
type Diff struct {
	Base, Current  *Report
	Added, Removed []Finding
	Changed        []Change
	Unchanged      int
}

// Finding is an added or removed finding with the id of its check.
type Finding struct {
	Check    string
	Code     string
	Severity string
	Message  string
	Obj      *jsonvalue.Value
}

// Compare matches the current report's findings against the baseline's.
func Compare(base, cur *Report) *Diff {
	d := &Diff{Base: base, Current: cur}
	queue := map[string][]int{}
	for i, e := range base.findings {
		queue[e.key] = append(queue[e.key], i)
	}
	matched := make([]bool, len(base.findings))
	for _, e := range cur.findings {
		q := queue[e.key]
		if len(q) == 0 {
			d.Added = append(d.Added, view(e))
			continue
		}
		b := base.findings[q[0]]
		queue[e.key] = q[1:]
		matched[q[0]] = true
		if b.severity != e.severity || b.message != e.message {
			d.Changed = append(d.Changed, Change{Check: e.check, Code: e.code, Before: b.obj, After: e.obj, afterSeverity: e.severity})
		} else {
			d.Unchanged++
		}
	}
	for i, e := range base.findings {
		if !matched[i] {
			d.Removed = append(d.Removed, view(e))
		}
	}
	return d
}

func view(e entry) Finding {
	return Finding{Check: e.check, Code: e.code, Severity: e.severity, Message: e.message, Obj: e.obj}
}

// Verdict is the delta verdict: fail when a finding was added with severity
// error (or changed to one), pass_with_findings when a warning was added,
// pass otherwise.
func (d *Diff) Verdict() (verdict, reason string) {
	verdict = report.Pass
	for _, a := range d.Added {
		switch a.Severity {
		case report.Error:
			verdict = report.Fail
		case report.Warning:
			if verdict == report.Pass {
				verdict = report.PassWithFindings
			}
		}
	}
	for _, c := range d.Changed {
		if c.afterSeverity == report.Error {
			verdict = report.Fail
		}
	}
	reason = fmt.Sprintf("%d added, %d removed, %d changed", len(d.Added), len(d.Removed), len(d.Changed))
	if len(d.Added) > 0 {
		// Name what decided the verdict: the first added error when
		// there is one, not a warning that happens to come first.
		first := d.Added[0].Code
		for _, a := range d.Added {
			if a.Severity == report.Error {
				first = a.Code
				break
			}
		}
		reason += fmt.Sprintf(" (first added: %s)", first)
	}
	return verdict, reason
}

// JSON renders the document with keys in contract order.
func (d *Diff) JSON() report.Obj {
	verdict, reason := d.Verdict()
	changed := make([]report.Obj, len(d.Changed))
	for i, c := range d.Changed {
		changed[i] = report.O("check", c.Check, "code", c.Code, "before", c.Before, "after", c.After)
	}
	return report.O(
		"schema", report.BaselineSchema, "ran", true,
		"verdict", verdict, "verdictReason", reason,
		"baselineVerdict", d.Base.Verdict, "currentVerdict", d.Current.Verdict,
		"baselineModelHash", d.Base.ModelHash, "currentModelHash", d.Current.ModelHash,
		"added", viewsJSON(d.Added), "removed", viewsJSON(d.Removed),
		"changed", changed, "unchanged", d.Unchanged,
	)
}

// viewsJSON renders findings with their check id in front.
func viewsJSON(vs []Finding) []report.Obj {
	out := make([]report.Obj, len(vs))
	for i, v := range vs {
		o := report.Obj{{Key: "check", Value: v.Check}}
		for _, m := range v.Obj.Members {
			o = append(o, report.KV{Key: m.Key, Value: m.Value})
		}
		out[i] = o
	}
	return out
}
