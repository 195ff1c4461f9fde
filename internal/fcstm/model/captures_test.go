package model

import (
	"sort"
	"strings"
	"testing"
)

// captureFS holds a unit with variables a_b_c, a_x and level and the
// events Go and Stop.
var captureFS = memFS{"pump.fcstm": `def int a_b_c = 0; def int a_x = 0; def int level = 0;
state Pump { event Go; event Stop; state Idle; state Run { enter { level = level + 1; a_b_c = a_x; } }
[*] -> Idle; Idle -> Run : Go; Run -> Idle : Stop; }`}

func captureHost(maps string) string {
	return `state H { event Start; event Halt; import "pump.fcstm" as P { ` + maps + ` } [*] -> P; }`
}

// $0 is the whole name with any selector; $1… are the texts the pattern's
// stars matched, so * and exact names have none (pyfcstm: "placeholder $1
// is out of range"). Several stars capture left to right, each the
// shortest text that lets the rest match.
func TestImportCaptures(t *testing.T) {
	ok := []struct{ maps, vars string }{
		{`def * -> pump_$0;`, "pump_a_b_c pump_a_x pump_level"},
		{`def * -> pump_${0};`, "pump_a_b_c pump_a_x pump_level"},
		{`def level -> x_$0; def * -> *;`, "a_b_c a_x x_level"},
		{`def {a_x, level} -> k_$0; def * -> *;`, "a_b_c k_a_x k_level"},
		{`def a_* -> q_$1_$0; def * -> *;`, "level q_b_c_a_b_c q_x_a_x"},
		{`def a_*_* -> m_$2_$1; def * -> *;`, "a_x level m_c_b"},
		{`def *_* -> m_$1; def * -> *;`, "level m_a"}, // a_b_c: $1 = "a" (shortest), a_x: $1 = "a" too
	}
	for _, tc := range ok {
		m, err := Parse("h.fcstm", captureHost(tc.maps), Options{ReadFile: captureFS.read})
		if tc.maps == `def *_* -> m_$1; def * -> *;` {
			// a_b_c and a_x both become m_a: one file, one name twice.
			if e := firstError(err); e == nil || e.Code != "E_IMPORT_CONFLICT" || !strings.Contains(e.Msg, `"m_a" is defined twice`) {
				t.Errorf("%s: got %v, want E_IMPORT_CONFLICT for m_a", tc.maps, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.maps, err)
			continue
		}
		var names []string
		for _, v := range m.Vars {
			names = append(names, v.Name)
		}
		sort.Strings(names)
		if got := strings.Join(names, " "); got != tc.vars {
			t.Errorf("%s: variables %s, want %s", tc.maps, got, tc.vars)
		}
	}
	bad := []struct{ maps, pos, msg string }{
		{`def * -> pump_$1;`, "1:72", "placeholder $1 is out of range: selector * has no capture (use $0 for the whole name)"},
		{`def level -> x_${1}; def * -> *;`, "1:76", "placeholder $1 is out of range: selector level has no capture"},
		{`def a_* -> q_$2; def * -> *;`, "1:74", "placeholder $2 is out of range: selector a_* has 1 capture"},
	}
	for _, tc := range bad {
		_, err := Parse("h.fcstm", captureHost(tc.maps), Options{ReadFile: captureFS.read})
		e := firstError(err)
		if e == nil || e.Code != "E_IMPORT_MAP" || e.Pos.String() != tc.pos || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %v, want E_IMPORT_MAP at %s containing %q", tc.maps, err, tc.pos, tc.msg)
		}
	}
}

// Event mappings: two unit events onto one host event conflict, and a
// mapping from an event the unit does not have is a located error.
func TestImportEventMapConflicts(t *testing.T) {
	if _, err := Parse("h.fcstm", captureHost(`event /Go -> Start; event /Stop -> Halt;`), Options{ReadFile: captureFS.read}); err != nil {
		t.Fatalf("distinct event mappings: %v", err)
	}
	bad := []struct{ maps, code, pos, msg string }{
		{`event /Go -> Start; event /Stop -> Start;`, "E_IMPORT_CONFLICT", "1:83", "both map onto H.Start"},
		{`event /Go -> Start; event /Go -> Halt;`, "E_IMPORT_CONFLICT", "1:83", "is mapped twice"},
		{`event /Nope -> Start;`, "E_IMPORT_MAP", "1:69", "the imported file has no event /Nope"},
	}
	for _, tc := range bad {
		_, err := Parse("h.fcstm", captureHost(tc.maps), Options{ReadFile: captureFS.read})
		e := firstError(err)
		if e == nil || e.Code != tc.code || e.Pos.String() != tc.pos || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %v, want %s at %s containing %q", tc.maps, err, tc.code, tc.pos, tc.msg)
		}
	}
}
