package prove

import "testing"

// Unsafe mutants of extra-small-lia problems (each with a bug a bounded
// search reaches): prove must report violated with a derivation from a
// fact, never proved, whichever layer answers first.
func TestUnsafeMutants(t *testing.T) {
	for name, src := range map[string]string{
		// bouncy_one_counter with y counting up in the second phase.
		"bouncy_one_counter-y-up": `
(declare-fun itp1 (Int Int Int) Bool)
(declare-fun itp2 (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 0) (= z 0)) (itp1 x y z))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (itp1 x y z) (itp1 (+ x 1) (+ y 1) (- z 2)))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (itp1 x y z) (itp2 x y z))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (itp2 x y z) (itp2 (- x 1) (+ y 1) (+ z 2)))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (itp2 x y z) (not (=> (<= x 0) (and (>= z 0) (<= y 0))))) false)))`,
		// s_multipl_08 asking for one more than the loops give.
		"s_multipl_08-off-by-one": `
(declare-fun FUN (Int Int Int) Bool)
(declare-fun SAD (Int Int Int) Bool)
(assert (forall ((k Int) (j Int) (N Int)) (=> (and (= k 0) (= j 0) (> N 0)) (FUN k j N))))
(assert (forall ((k Int) (j Int) (N Int)) (=> (and (FUN k j N) (< j N)) (FUN (+ k 1) (+ j 1) N))))
(assert (forall ((k Int) (j Int) (N Int)) (=> (and (FUN k j N) (>= j N)) (SAD k 0 N))))
(assert (forall ((k Int) (j Int) (N Int)) (=> (and (SAD k j N) (< j N)) (SAD (+ k 1) (+ j 1) N))))
(assert (forall ((k Int) (j Int) (N Int)) (=> (and (SAD k j N) (>= j N) (not (>= k (+ (* 2 N) 1)))) false)))`,
		// s_mutants_23 with the sum drifting down.
		"s_mutants_23-drift": `
(declare-fun itp (Int Int Int) Bool)
(assert (forall ((x1 Int) (x3 Int) (x5 Int)) (=> (and (= x1 0) (= x3 0) (= x5 0)) (itp x1 x3 x5))))
(assert (forall ((x1 Int) (x3 Int) (x5 Int) (x2 Int) (x4 Int) (x6 Int))
  (=> (and (itp x1 x3 x5) (or (and (= x2 (+ x1 1)) (= x4 (- x3 1))) (and (= x2 (- x1 1)) (= x4 (+ x3 1)))) (= x6 (+ x5 x2 x4 -1)))
      (itp x2 x4 x6))))
(assert (forall ((x1 Int) (x3 Int) (x5 Int)) (=> (and (itp x1 x3 x5) (not (>= x5 0))) false)))`,
		// count_by_2_m_nest with an inner step of 3: i misses 256.
		"count_by_2_m_nest-step3": `
(declare-fun itp1 (Int) Bool)
(declare-fun itp2 (Int Int) Bool)
(assert (itp1 0))
(assert (forall ((i Int)) (=> (and (itp1 i) (< i 7)) (itp2 i 0))))
(assert (forall ((i Int) (j Int)) (=> (and (itp2 i j) (< j 2)) (itp2 i (+ j 3)))))
(assert (forall ((i Int) (j Int)) (=> (and (itp2 i j) (>= j 2)) (itp1 (+ i j)))))
(assert (forall ((i Int)) (=> (and (itp1 i) (>= i 7) (not (= i 7))) false)))`,
	} {
		t.Run(name, func(t *testing.T) {
			r := mustProve(t, chcProblem(t, src), Options{})
			if r.Verdict != "violated" {
				t.Fatalf("verdict %s, want violated; layers %+v", r.Verdict, r.Layers)
			}
			found := false
			for _, p := range r.Props {
				if p.Status == Violated {
					found = true
					if len(p.Trace) < 2 || p.Trace[0].Transition == "" {
						t.Errorf("%s: trace %+v is not a derivation from a fact", p.ID, p.Trace)
					}
				}
			}
			if !found {
				t.Errorf("no violated property: %+v", r.Props)
			}
		})
	}
}
