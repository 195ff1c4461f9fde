; Program equivalence as a product program: P1 adds 2 to s1 x times, P2
; adds 1 to s2 2x times; P1 steps when P2 has caught up (b == 2a), P2
; steps while it lags (b < 2a). At the end both sums agree.
(set-logic HORN)
(set-info :status sat)
(declare-fun prod (Int Int Int Int Int) Bool)
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (= a 0) (= s1 0) (= b 0) (= s2 0) (>= x 0)) (prod a s1 b s2 x))))
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (prod a s1 b s2 x) (< a x) (= b (* 2 a))) (prod (+ a 1) (+ s1 2) b s2 x))))
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (prod a s1 b s2 x) (< b (* 2 a))) (prod a s1 (+ b 1) (+ s2 1) x))))
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (prod a s1 b s2 x) (>= a x) (>= b (* 2 a)) (not (= s1 s2))) false)))
(check-sat)
