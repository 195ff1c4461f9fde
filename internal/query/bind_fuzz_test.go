package query

import "testing"

// FuzzBind: any query that parses binds against the test system or fails
// with an error, never a panic, with and without a bound limit.
func FuzzBind(f *testing.F) {
	for _, s := range corpus {
		f.Add(s, 0)
	}
	for _, ex := range examples {
		f.Add(ex.src, 3)
	}
	for _, s := range []string{
		`check reach <= 2: active("Root.Idle") && x > 0;`,
		`check reach <= 2: active("Nope");`,
		`check invariant <= 1000000000: x >= 0;`,
		`check reach <= 2: called("Root.Go", step=99);`,
		`check response <= 3: x > 0 ~> y > 0 within 2;`,
		`init state("Root.Done") havoc {x, nope}; check reach <= 1: true;`,
		`assume at 5: x == 1; check reach <= 2: y == 2;`,
		`check cover <= 1: case("nope", 0);`,
		`check reach <= 1: f / 0 > b;`,
		`check must_reach <= 2 fair {"Root.Go", "Nope"}: called(*) || cycle > 0;`,
	} {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, src string, maxBound int) {
		q, err := Parse("f.fbmcq", src)
		if err != nil {
			return
		}
		Bind(q, testSystem(), BindOptions{MaxBound: maxBound})
	})
}
