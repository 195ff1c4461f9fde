package verify

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// RunComparison verifies AFTER and compares it with BEFORE: it runs
// every single-model check on AFTER, then D1–D4, and fills the comparison
// object and the before/after hashes. mapping maps BEFORE state ids to AFTER
// state ids; unmapped ids keep their name.
//
// An invalid BEFORE model adds the check BEFORE_MODEL, with one
// BEFORE_MODEL_INVALID finding per validation message, makes ok false and
// skips D1–D4. An invalid AFTER model gives the invalid-model report.
func RunComparison(after, before *jsonmodel.Result, mapping map[string]string, opts Options) *report.VerifyReport {
	return limitFindings(runComparison(after, before, mapping, opts), opts.MaxFindings)
}

func runComparison(after, before *jsonmodel.Result, mapping map[string]string, opts Options) *report.VerifyReport {
	r, e := runEnv(after, opts)
	r.HasBefore = true
	r.MetadataKeys = mergeMetadataKeys(after.MetadataKeys, before.MetadataKeys)
	if !before.Valid() {
		r.BeforeInvalid = true
		r.Checks = append(r.Checks, beforeInvalidCheck(before))
		return r
	}
	if !r.Valid {
		return r
	}
	c := newComparison(before.Model, after.Model, mapping)
	r.Checks = append(r.Checks, c.d1Preservation(), e.d2Continuity(c), c.d3Delta(), c.d4Regression())
	r.Truncated, r.StoppedBy = len(e.stops) > 0, e.stops
	beforeHash, _ := jsonmodel.Hash(before.Model.Raw, "v1")
	afterHash, _ := jsonmodel.Hash(after.Model.Raw, "v1")
	r.ExtraHashes = report.O("beforeModelHash", beforeHash, "afterModelHash", afterHash)
	r.Comparison = c.json(beforeHash, afterHash)
	return r
}

// CheckMapping reports the first stateMapping key that is not a BEFORE
// state: such a key maps nothing, and a typo in it would silently leave
// the state it meant unmapped.
func CheckMapping(before *jsonmodel.Model, mapping map[string]string) error {
	declared := before.StateIndex()
	keys := make([]string, 0, len(mapping))
	for k := range mapping {
		keys = append(keys, k)
	}
	jsonvalue.SortUTF16(keys)
	for _, k := range keys {
		if _, ok := declared[k]; !ok {
			return fmt.Errorf("stateMapping key %q is not a state of the BEFORE model (keys map BEFORE state ids to AFTER state ids)", k)
		}
	}
	return nil
}

// mergeMetadataKeys lists AFTER's metadata keys and BEFORE's with the
// prefix `beforeModel.`, sorted; nil when there is none.
func mergeMetadataKeys(after, before []string) []string {
	if len(after)+len(before) == 0 {
		return nil
	}
	out := append([]string(nil), after...)
	for _, k := range before {
		out = append(out, "beforeModel."+k)
	}
	jsonvalue.SortUTF16(out)
	return out
}

// beforeInvalidCheck renders BEFORE's validation errors with their paths
// prefixed `beforeModel.`.
func beforeInvalidCheck(before *jsonmodel.Result) report.Check {
	c := report.Check{ID: "BEFORE_MODEL", Name: "Before Model Validation", Detail: fmt.Sprintf("%d validation error(s) in the BEFORE model; D1-D4 not run", len(before.Errors))}
	for _, msg := range before.Errors {
		if rest, ok := strings.CutPrefix(msg, "(root)"); ok {
			msg = "beforeModel" + rest
		} else {
			msg = "beforeModel." + msg
		}
		c.Findings = append(c.Findings, finding("BEFORE_MODEL_INVALID", report.Error, msg))
	}
	return c
}

// triple is a transition by (mapped) state ids.
type triple struct{ from, event, to string }

func compareTriples(a, b triple) int {
	return cmp.Or(jsonvalue.CompareUTF16(a.from, b.from), jsonvalue.CompareUTF16(a.event, b.event), jsonvalue.CompareUTF16(a.to, b.to))
}

// comparison holds BEFORE and AFTER with the state mapping, and the
// regression delta (mapped ids, sorted).
type comparison struct {
	before, after *jsonmodel.Model
	mapping       map[string]string
	afterStates   map[string]int

	addedStates, removedStates []string
	addedEvents, removedEvents []string
	addedTrans, removedTrans   []triple
}

func newComparison(before, after *jsonmodel.Model, mapping map[string]string) *comparison {
	c := &comparison{before: before, after: after, mapping: mapping, afterStates: after.StateIndex()}
	// removedStates lists BEFORE ids (as the reference does): the mapped
	// id is not a state of either model, so it names nothing.
	image := map[string]bool{}
	for _, s := range before.States {
		m := c.mapState(s.ID)
		image[m] = true
		if _, ok := c.afterStates[m]; !ok {
			c.removedStates = append(c.removedStates, s.ID)
		}
	}
	for _, s := range after.States {
		if !image[s.ID] {
			c.addedStates = append(c.addedStates, s.ID)
		}
	}
	c.removedEvents, c.addedEvents = setDiff(before.Alphabet(), after.Alphabet())
	bt, at := c.mappedTriples(before, c.mapState), c.mappedTriples(after, func(s string) string { return s })
	c.removedTrans = minus(bt, at)
	c.addedTrans = minus(at, bt)
	jsonvalue.SortUTF16(c.removedStates)
	jsonvalue.SortUTF16(c.addedStates)
	return c
}

// mapState is map(s): the mapped id, or s itself.
func (c *comparison) mapState(s string) string {
	if m, ok := c.mapping[s]; ok {
		return m
	}
	return s
}

func (c *comparison) inAfter(s string) bool {
	_, ok := c.afterStates[s]
	return ok
}

// mappedTriples returns the distinct transitions of m by mapped ids, sorted.
func (c *comparison) mappedTriples(m *jsonmodel.Model, mp func(string) string) []triple {
	var out []triple
	for _, t := range m.Transitions {
		out = append(out, triple{mp(t.From), t.Event, mp(t.To)})
	}
	slices.SortFunc(out, compareTriples)
	return slices.CompactFunc(out, func(a, b triple) bool { return a == b })
}

// minus returns the members of sorted a that are not in sorted b.
func minus(a, b []triple) []triple {
	var out []triple
	for _, x := range a {
		if _, found := slices.BinarySearchFunc(b, x, compareTriples); !found {
			out = append(out, x)
		}
	}
	return out
}

// setDiff returns a−b and b−a of two sorted string sets.
func setDiff(a, b []string) (onlyA, onlyB []string) {
	for _, x := range a {
		if !slices.Contains(b, x) {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			onlyB = append(onlyB, x)
		}
	}
	return onlyA, onlyB
}

// json renders the comparison object.
func (c *comparison) json(beforeHash, afterHash string) report.Obj {
	keys := make([]string, 0, len(c.mapping))
	for k := range c.mapping {
		keys = append(keys, k)
	}
	jsonvalue.SortUTF16(keys)
	mapping := report.Obj{}
	for _, k := range keys {
		mapping = append(mapping, report.KV{Key: k, Value: c.mapping[k]})
	}
	return report.O(
		"beforeModelHash", beforeHash, "afterModelHash", afterHash, "stateMapping", mapping,
		"beforeStates", len(c.before.States), "beforeTransitions", len(c.before.Transitions),
		"afterStates", len(c.after.States), "afterTransitions", len(c.after.Transitions),
		"addedStates", nonNil(c.addedStates), "removedStates", nonNil(c.removedStates),
		"addedEvents", nonNil(c.addedEvents), "removedEvents", nonNil(c.removedEvents),
		"addedTransitions", triplesJSON(c.addedTrans), "removedTransitions", triplesJSON(c.removedTrans),
	)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func triplesJSON(ts []triple) []report.Obj {
	out := make([]report.Obj, len(ts))
	for i, t := range ts {
		out[i] = report.O("from", t.from, "event", t.event, "to", t.to)
	}
	return out
}

// MappingFromJSON reads a stateMapping document: a JSON object from BEFORE
// state ids to AFTER state ids, each key once.
func MappingFromJSON(v *jsonvalue.Value) (map[string]string, error) {
	if v.Kind != jsonvalue.Object {
		return nil, fmt.Errorf("a state mapping is a JSON object from BEFORE state ids to AFTER state ids, found %s", v.Kind)
	}
	out := map[string]string{}
	for _, m := range v.Members {
		if _, dup := out[m.Key]; dup {
			return nil, fmt.Errorf("key %q appears twice", m.Key)
		}
		if m.Value.Kind != jsonvalue.String {
			return nil, fmt.Errorf("%q must map to an AFTER state id (a string), found %s", m.Key, m.Value.Kind)
		}
		out[m.Key] = m.Value.Str
	}
	return out, nil
}
