package main

import "testing"

// TestGenerateNonFinite checks the generated drivers against simulate
// --json on operations that have no value: ceil, floor, round and trunc of
// an infinite or NaN float (which only an initial value gives) and shifts
// and powers by counts near MaxInt64. Each fails its cycle with the same
// message everywhere; the runtime used to fail internally on them. A
// comparison with a NaN is false (!= true) everywhere, as in Python.
//
// The C target, whose integers have 64 bits, gives the runtime's
// expression error too wherever the runtime's 65536-bit bound decides.
func TestGenerateNonFinite(t *testing.T) {
	const model = "testdata/generate/nonfinite/nonfinite.fcstm"
	steps := [][]string{{}, {"Floor"}, {"Ceil"}, {"Round"}, {"Trunc"}, {"Sqrt"}, {"Add"}, {"Shl"}, {"Shr"}, {"Pow"}, {"Floor", "Shr"}, {"Cmp"}, {"Guard"}, {"MinLit"}}
	c := genCase{id: "nonfinite", model: model}
	arith := [][]string{{"Mod"}, {"ModNeg"}, {"ModBy"}, {"PowZero"}, {"PowNeg"}, {"PowTwo"}, {"Div"}, {"Sign"}, {"Abs"}, {"Mixed"}}
	for _, f := range []string{`"inf"`, `"-inf"`, `"nan"`, `2.5`, `-0.0`} {
		c.runs = append(c.runs, genRun{steps: steps, initVars: `{"f": ` + f + `}`})
		// Each arithmetic step from the initial value: a step that
		// succeeds changes f.
		for _, a := range arith {
			c.runs = append(c.runs, genRun{steps: [][]string{{}, a, a}, initVars: `{"f": ` + f + `}`})
		}
	}
	// Initial values of the int variable that it cannot hold, or that
	// leave 64 bits (the C target's error, or simulate's and every
	// driver's usage error with exit 2).
	for _, v := range []string{`"inf"`, `"nan"`, `1e300`, `2.0`, `-0.0`, `1e19`, `-9223372036854775808`, `9223372036854775808`, `1e400`} {
		c.runs = append(c.runs, genRun{steps: [][]string{{}, {"Floor"}}, initVars: `{"n": ` + v + `}`})
	}
	// Initial values at the edges of JSON's number syntax and of float64:
	// a driver reads exactly what simulate reads and refuses the rest.
	for _, v := range []string{`{"n": 1-2}`, `{"n": 01}`, `{"n": 1.}`, `{"n": .5}`, `{"n": 1e}`, `{"f": -}`, `{"n": 0x10}`,
		`{"n": 1e5}`, `{"n": 1E2}`, `{"n": 9.223372036854775807e18}`, `{"n": -9223372036854775809}`, `{"n": true}`,
		`{"f": 1e-400}`, `{"f": 4.9e-324}`, `{"f": 1e308}`, `{"f": "Infinity"}`} {
		c.runs = append(c.runs, genRun{steps: [][]string{{}, {"Floor"}, {"Cmp"}}, initVars: v})
	}
	// Past the 65536-bit bound every target fails as the runtime does; a
	// value within it but beyond 64 bits ends a C run (cOutside), so each
	// of those comes last in a run of its own.
	past := [][]string{{}, {"Shl65536"}, {"Pow65536"}, {"Pow42000"}}
	for _, within := range []string{"", "Shl65535", "Pow65535", "Pow41000"} {
		r := genRun{steps: append([][]string{}, past...)}
		if within != "" {
			r.steps = append(r.steps, []string{within})
		}
		c.runs = append(c.runs, r)
	}
	sims := simulated{}
	for _, tg := range genTargets() {
		t.Run(tg.name, func(t *testing.T) {
			if passed, refused := conform(t, tg, sims, []genCase{c}); passed != 1 {
				t.Errorf("%s: not passed (refused %v)", tg.name, refused)
			}
		})
	}
}
