package runtime

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/trace"
)

// One variable x stepped by ±(2^53−1): up and down are exact inverses at
// every size, so stepping up n times and down n times must come back to
// the initial runtime word for word.
const bigStepModel = `{"schemaVersion": 1, "init": "A",
  "states": [{"id": "A"}],
  "transitions": [
    {"from": "A", "event": "up", "to": "A", "updates": [{"variable": "x", "op": "inc", "value": 9007199254740991}]},
    {"from": "A", "event": "down", "to": "A", "updates": [{"variable": "x", "op": "dec", "value": 9007199254740991}]}
  ],
  "variables": [{"name": "x", "kind": "integer", "init": -9007199254740991}]}`

func TestIntegersAreExactPastInt64(t *testing.T) {
	mc := compile(t, bigStepModel)
	var buf StepBuffer
	up, down := mc.EventIndex("up"), mc.EventIndex("down")
	step := big.NewInt(9007199254740991)
	want := big.NewInt(-9007199254740991)
	r := mc.Initial(make([]int64, mc.Width()))
	start := slices.Clone(r)
	seen := map[int64]string{}
	const n = 2100 // 2100·(2^53−1) ≈ 2^64: well past both 2^62 and 2^63
	for i := 0; i < n; i++ {
		r = slices.Clone(mc.Step(r, up, &buf)[0].Next)
		want.Add(want, step)
		if got := mc.Int(r[1]); got.Cmp(want) != 0 {
			t.Fatalf("after %d ups x = %s, want %s", i+1, got, want)
		}
		if prev, dup := seen[r[1]]; dup {
			t.Fatalf("word %d stands for both %s and %s", r[1], prev, want)
		}
		seen[r[1]] = want.String()
	}
	if want.Cmp(new(big.Int).Lsh(big.NewInt(1), 64)) < 0 {
		t.Fatalf("the test did not leave 64 bits: %s", want)
	}
	if got, wantKey := mc.Key(r), "A|{\"x\":"+want.String()+"}"; got != wantKey {
		t.Errorf("Key = %s, want %s", got, wantKey)
	}
	if s := mc.FormatValue(0, r[1]); s != want.String() {
		t.Errorf("FormatValue = %s", s)
	}
	// Comparing a word with a literal is exact: the value is above every
	// literal, and guards compare words directly.
	if r[1] <= 9007199254740991 {
		t.Errorf("handle %d of a positive big value does not order above the literals", r[1])
	}
	// Coming back down reaches the same words as going up: interning makes
	// equal values equal words, and values back in the band are plain.
	for i := n - 1; i >= 0; i-- {
		r = slices.Clone(mc.Step(r, down, &buf)[0].Next)
		want.Sub(want, step)
		if seen[r[1]] != want.String() && i > 0 {
			t.Fatalf("down to %s gives word %d, which going up stood for %q", want, r[1], seen[r[1]])
		}
	}
	if !slices.Equal(r, start) {
		t.Errorf("up %d times then down %d times: %v, want %v", n, n, r, start)
	}
	// Going below −2^63 works the same way.
	for i := 0; i < 1100; i++ {
		r = slices.Clone(mc.Step(r, down, &buf)[0].Next)
		want.Sub(want, step)
	}
	if got := mc.Int(r[1]); got.Cmp(want) != 0 || want.Cmp(big.NewInt(math.MinInt64)) >= 0 {
		t.Fatalf("after 1100 downs x = %s, want %s (< −2^63)", got, want)
	}
	if r[1] >= -9007199254740991 {
		t.Errorf("handle %d of a negative big value does not order below the literals", r[1])
	}
}

func TestWordIsCanonical(t *testing.T) {
	mc := compile(t, bigStepModel)
	for _, s := range []string{"0", "-1", "4611686018427387903", "-4611686018427387903", "4611686018427387904", "-4611686018427387904", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-123456789012345678901234567890"} {
		x, _ := new(big.Int).SetString(s, 10)
		w := mc.Word(x)
		if w2 := mc.Word(new(big.Int).Set(x)); w2 != w {
			t.Errorf("%s: words %d and %d", s, w, w2)
		}
		if x.IsInt64() && mc.IntWord(x.Int64()) != w {
			t.Errorf("%s: IntWord differs from Word", s)
		}
		if got := mc.Int(w); got.Cmp(x) != 0 {
			t.Errorf("%s: word %d reads back as %s", s, w, got)
		}
		v := mc.IntValue(w)
		if x.IsInt64() {
			if v != x.Int64() {
				t.Errorf("%s: IntValue = %v (%T), want an int64", s, v, v)
			}
		} else if b, ok := v.(*big.Int); !ok || b.Cmp(x) != 0 {
			t.Errorf("%s: IntValue = %v (%T), want a *big.Int", s, v, v)
		}
	}
}

// A witness whose values leave int64 replays exactly, and a witness that is
// off by one at 2^64 scale is a mismatch.
func TestReplayComparesBigValuesExactly(t *testing.T) {
	mc := compile(t, bigStepModel)
	x0, _ := new(big.Int).SetString("18446744073709551616", 10) // 2^64
	x1 := new(big.Int).Add(x0, big.NewInt(9007199254740991))
	frame := func(i int, x any) trace.Frame {
		return trace.Frame{Index: i, State: "A", Vars: []trace.Var{{Name: "x", Value: x}}}
	}
	tr := &trace.Trace{
		Frames: []trace.Frame{frame(0, x0), frame(1, x1)},
		Steps:  []trace.Step{{Index: 0, Origin: 0, InputEvents: []trace.InputEvent{{Path: "up"}}, Consumed: []string{"up"}, Unconsumed: []string{}}},
	}
	if rep := mc.Replay(tr); len(rep.Mismatches) != 0 {
		t.Fatalf("exact witness: mismatches %+v", rep.Mismatches)
	}
	tr.Frames[1] = frame(1, new(big.Int).Add(x1, big.NewInt(1)))
	if rep := mc.Replay(tr); len(rep.Mismatches) != 1 {
		t.Fatalf("witness off by one: mismatches %+v, want one", rep.Mismatches)
	}
}

// Parallel search workers share one Machine: words made concurrently for
// the same big values are the same handles, and each reads back its value
// (run under -race).
func TestWordCanonicalAcrossGoroutines(t *testing.T) {
	mc := compile(t, bigStepModel)
	const workers, values = 4, 200
	words := make([][]int64, workers)
	done := make(chan int)
	for w := range workers {
		go func() {
			for k := range values {
				// Each worker makes the values in its own order.
				v := (k*(w+1)*37 + w) % values
				x := new(big.Int).Lsh(big.NewInt(int64(v+1)), 70)
				if v%2 == 1 {
					x.Neg(x)
				}
				words[w] = append(words[w], mc.Word(x))
			}
			done <- w
		}()
	}
	for range workers {
		<-done
	}
	byValue := map[string]int64{}
	for w := range workers {
		for k, word := range words[w] {
			v := (k*(w+1)*37 + w) % values
			key := mc.Int(word).String()
			if prev, ok := byValue[key]; ok && prev != word {
				t.Fatalf("value %s has words %d and %d", key, prev, word)
			}
			byValue[key] = word
			want := new(big.Int).Lsh(big.NewInt(int64(v+1)), 70)
			if v%2 == 1 {
				want.Neg(want)
			}
			if mc.Int(word).Cmp(want) != 0 {
				t.Fatalf("worker %d value %d reads back as %s", w, v, key)
			}
		}
	}
}
