package model

import (
	"sort"
	"strings"
	"testing"
)

// A def mapping onto a variable the host declares binds the imported
// variable to it (docs/fcstm.md, "Imports"): one variable, the host's
// declaration and initial value, read and written by the unit.
func TestImportBindsOntoHostVariable(t *testing.T) {
	m, err := Load("testdata/bind/host_same.fcstm")
	if err != nil {
		t.Fatalf("binding onto host variables of the same type: %v", err)
	}
	if got := varNames(m); got != "inlet_ops inlet_pos" {
		t.Fatalf("variables %s, want inlet_ops inlet_pos (each once)", got)
	}
	pos := m.VarByName["inlet_pos"]
	if pos.Init.String() != "7" || !strings.HasSuffix(pos.Pos.File, "host_same.fcstm") {
		t.Errorf("inlet_pos = %s declared at %v, want the host's 7 and declaration", pos.Init, pos.Pos)
	}
	// The unit's enter action writes the bound variable under its final name.
	enter := m.StateByPath["Plant.Inlet.Opened"].Enter
	if len(enter) != 1 || !strings.Contains(dumpAction(enter[0]), "inlet_ops = inlet_ops + 1") || !strings.Contains(dumpAction(enter[0]), "inlet_pos = 100") {
		t.Errorf("the unit's enter action does not use the bound names: %v", enter)
	}
}

// Two imports mapped onto one name the host does not declare share it when
// they agree on type and initial value, and are refused otherwise.
func TestImportsShareAName(t *testing.T) {
	m, err := Load("testdata/bind/two_agree.fcstm")
	if err != nil {
		t.Fatalf("two imports agreeing on total_ops: %v", err)
	}
	if got := varNames(m); got != "inlet_pos outlet_pos total_ops" {
		t.Errorf("variables %s, want inlet_pos outlet_pos total_ops", got)
	}
	tests := []struct{ file, pos, msg string }{
		{"host_type.fcstm", "lib/valve_unit.fcstm:3:9", `"inlet_ops" is int in the imported file but the host declares it float`},
		{"two_type.fcstm", "lib/valve_float.fcstm:3:11", `"total_ops" is float here but int in another import`},
		{"two_init.fcstm", "lib/valve_init.fcstm:3:9", `initial value 1 here but 0 in another import`},
	}
	for _, tc := range tests {
		_, err := Load("testdata/bind/" + tc.file)
		e := firstError(err)
		if e == nil {
			t.Errorf("%s: loads, want E_IMPORT_CONFLICT", tc.file)
			continue
		}
		at := e.File + ":" + e.Pos.String()
		if e.Code != "E_IMPORT_CONFLICT" || !strings.HasSuffix(at, tc.pos) || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %s %s %q, want E_IMPORT_CONFLICT at %s containing %q", tc.file, e.Code, at, e.Msg, tc.pos, tc.msg)
		}
	}
}

func varNames(m *Model) string {
	var names []string
	for _, v := range m.Vars {
		names = append(names, v.Name)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}
