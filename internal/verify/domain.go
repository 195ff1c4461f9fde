package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// enumCap is the largest product of domain sizes S4, S6 and S8 enumerate.
const enumCap = 10000

// findingCap is how many findings S4 and S6 report together.
const findingCap = 200

// guardConstants returns, per variable, the constants it is compared with
// in any transition guard of the model.
func guardConstants(m *jsonmodel.Model) map[string][]int64 {
	out := map[string][]int64{}
	var walk func(*jsonmodel.Guard)
	walk = func(g *jsonmodel.Guard) {
		if g.Kind == jsonmodel.GuardLeaf {
			out[g.Variable] = append(out[g.Variable], g.Value)
			return
		}
		for _, c := range g.Children {
			walk(c)
		}
	}
	for _, t := range m.Transitions {
		if t.Guard != nil {
			walk(t.Guard)
		}
	}
	return out
}

// domain is the S4/S6 enumeration domain of one variable: the whole
// declared range when it is small, else representatives that make the
// enumeration exact for comparisons against constants.
func domain(v *jsonmodel.Variable, consts []int64) []int64 {
	if v.Kind == jsonmodel.Boolean {
		return []int64{0, 1}
	}
	if v.Min != nil && v.Max != nil && *v.Max-*v.Min+1 <= 201 {
		out := make([]int64, 0, *v.Max-*v.Min+1)
		for x := *v.Min; x <= *v.Max; x++ {
			out = append(out, x)
		}
		return out
	}
	set := []int64{-1, 0, 1}
	for _, c := range consts {
		set = append(set, c-1, c, c+1)
	}
	var out []int64
	for _, x := range set {
		if (v.Min == nil || x >= *v.Min) && (v.Max == nil || x <= *v.Max) {
			out = append(out, x)
		}
	}
	if v.Min != nil {
		out = append(out, *v.Min)
	}
	if v.Max != nil {
		out = append(out, *v.Max)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// assignments enumerates the product of doms lexicographically (first
// variable slowest, values ascending), calling visit until it returns false.
func assignments(doms [][]int64, visit func(vals []int64) bool) {
	vals := make([]int64, len(doms))
	pos := make([]int, len(doms))
	for _, d := range doms {
		if len(d) == 0 {
			return
		}
	}
	for i, d := range doms {
		vals[i] = d[0]
	}
	for {
		if !visit(vals) {
			return
		}
		k := len(doms) - 1
		for ; k >= 0; k-- {
			pos[k]++
			if pos[k] < len(doms[k]) {
				vals[k] = doms[k][pos[k]]
				break
			}
			pos[k] = 0
			vals[k] = doms[k][0]
		}
		if k < 0 {
			return
		}
	}
}

func product(doms [][]int64) int {
	n := 1
	for _, d := range doms {
		n *= len(d)
		if n > enumCap {
			return n
		}
	}
	return n
}

// assignment pairs variable names with values for guard evaluation and
// rendering.
type assignment struct {
	m     *jsonmodel.Model
	names []string
	vals  []int64
}

func (a assignment) lookup(name string) int64 {
	for i, n := range a.names {
		if n == name {
			return a.vals[i]
		}
	}
	return 0
}

func (a assignment) obj() report.Obj {
	o := report.Obj{}
	for i, n := range a.names {
		o = append(o, report.KV{Key: n, Value: a.value(i)})
	}
	return o
}

func (a assignment) value(i int) any {
	if v := a.m.VariableByName(a.names[i]); v != nil && v.Kind == jsonmodel.Boolean {
		return a.vals[i] != 0
	}
	return a.vals[i]
}

func (a assignment) String() string {
	if len(a.names) == 0 {
		return "every assignment"
	}
	parts := make([]string, len(a.names))
	for i, n := range a.names {
		parts[i] = fmt.Sprintf("%s=%v", n, a.value(i))
	}
	return strings.Join(parts, ", ")
}

// groupInfo is one (from, event) group in first-appearance order.
type groupInfo struct {
	from, event string
	guarded     []*jsonmodel.Transition
	defaults    []*jsonmodel.Transition
}

func groups(m *jsonmodel.Model) []*groupInfo {
	var out []*groupInfo
	byKey := map[[2]string]*groupInfo{}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		k := [2]string{t.From, t.Event}
		g := byKey[k]
		if g == nil {
			g = &groupInfo{from: t.From, event: t.Event}
			byKey[k] = g
			out = append(out, g)
		}
		if t.Guard != nil {
			g.guarded = append(g.guarded, t)
		} else {
			g.defaults = append(g.defaults, t)
		}
	}
	return out
}

func targets(ts []*jsonmodel.Transition) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.To
	}
	return out
}

// guardVars returns the sorted variables read by the guards of ts.
func guardVars(ts []*jsonmodel.Transition) []string {
	var names []string
	for _, t := range ts {
		for _, v := range t.Guard.Vars() {
			if !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
	}
	jsonvalue.SortUTF16(names)
	return names
}
