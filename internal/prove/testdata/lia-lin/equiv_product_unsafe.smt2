; equiv_product where P2 has a bug: its fourth step adds 2 (b == 3), so
; the sums differ for x >= 2.
(set-logic HORN)
(set-info :status unsat)
(declare-fun prod (Int Int Int Int Int) Bool)
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (= a 0) (= s1 0) (= b 0) (= s2 0) (>= x 0)) (prod a s1 b s2 x))))
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (prod a s1 b s2 x) (< a x) (= b (* 2 a))) (prod (+ a 1) (+ s1 2) b s2 x))))
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (prod a s1 b s2 x) (< b (* 2 a))) (prod a s1 (+ b 1) (+ s2 (ite (= b 3) 2 1)) x))))
(assert (forall ((a Int) (s1 Int) (b Int) (s2 Int) (x Int))
  (=> (and (prod a s1 b s2 x) (>= a x) (>= b (* 2 a)) (not (= s1 s2))) false)))
(check-sat)
