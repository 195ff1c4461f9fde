package verify

import (
	"math/big"
	"os"
	"strings"
	"testing"
)

// The example: BAD is reachable only if x is counted exactly past
// 2^63 and back. A runtime that saturated at 2^63−1 found BAD unreachable
// and reported S7 as passed after a complete search.
func TestCounterPastInt64ReachesBad(t *testing.T) {
	data, err := os.ReadFile("../../examples/broken/s7-counter-past-int64.json")
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, string(data), 0)
	if r.Truncated {
		t.Fatal("search truncated")
	}
	s7 := check(r, "S7")
	if s7 == nil || len(s7.Findings) != 1 || s7.Findings[0].Code != "S7_INVARIANT_VIOLATION" {
		t.Fatalf("S7 = %+v, want one S7_INVARIANT_VIOLATION", s7)
	}
	// 1025 ups, mark, turn, 1025 downs, fin: the shortest way to BAD.
	if n := len(s7.Findings[0].Path); n != 1025+1+1+1025+1 {
		t.Errorf("path of %d steps, want 2053", n)
	}
}

// A range violation that exists only past 2^63 is found, and its message
// carries the exact value.
func TestRangeViolationPastInt64IsExact(t *testing.T) {
	src := `{"schemaVersion":1,"init":"A","states":[{"id":"A"}],
	  "transitions":[{"from":"A","event":"up","to":"A","guard":{"variable":"c","op":"<","value":1030},
	    "updates":[{"variable":"x","op":"inc","value":9007199254740991},{"variable":"c","op":"inc","value":1}]}],
	  "variables":[{"name":"x","kind":"integer","init":0},{"name":"c","kind":"integer","init":0}],
	  "invariants":[{"id":"x-small","description":"x stays small once c passes 1024","kind":"var-in-range","variable":"x","max":9007199254740991,
	    "when":{"variable":"c","op":">=","value":1025}}]}`
	r := run(t, src, 0)
	s7 := check(r, "S7")
	if s7 == nil || len(s7.Findings) != 1 {
		t.Fatalf("S7 = %+v, want one finding", s7)
	}
	want := new(big.Int).Mul(big.NewInt(1025), big.NewInt(9007199254740991)) // > 2^63
	if msg := s7.Findings[0].Message; !strings.Contains(msg, `"x" = `+want.String()+" outside") {
		t.Errorf("message %q does not carry x = %s", msg, want)
	}
}

// Offsets that add up past int64 within one transition are still exact in
// S8's domain test: 1100 increments of 2^53−1 cross any max.
func TestDomainOffsetPastInt64(t *testing.T) {
	var ups []string
	for i := 0; i < 1100; i++ {
		ups = append(ups, `{"variable":"x","op":"inc","value":9007199254740991}`)
	}
	for i := 0; i < 1100; i++ {
		ups = append(ups, `{"variable":"x","op":"dec","value":9007199254740991}`)
	}
	src := `{"schemaVersion":1,"init":"A","states":[{"id":"A"}],
	  "transitions":[{"from":"A","event":"spin","to":"A","updates":[` + strings.Join(ups, ",") + `]}],
	  "variables":[{"name":"x","kind":"integer","init":0,"min":0,"max":10}]}`
	r := run(t, src, 0)
	var codes []string
	for _, f := range check(r, "S8").Findings {
		codes = append(codes, f.Code+":"+f.Evidence.Get("bound").(string))
	}
	// The first increment already crosses max; no prefix ever goes below
	// min (the sum returns to 0 only at the end), so min is never reported.
	if strings.Join(codes, ",") != "S8_DOMAIN_NOT_ENFORCED:max" {
		t.Errorf("S8 findings %v, want one for max only", codes)
	}
}
