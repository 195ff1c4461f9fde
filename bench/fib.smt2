; Wahl's Fibonacci, benchmark form (bench/README.md).
; a, b := 1, 1; loop: a, b := b, a + b.  Property: a > 0.
; Not 1-inductive (CTI (a, b) = (1, 0)); 2-inductive; a >= 1 /\ b >= 1 is inductive.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (and (= a 1) (= b 1)) (inv a b))))
(assert (forall ((a Int) (b Int) (a1 Int) (b1 Int))
  (=> (and (inv a b) (= a1 b) (= b1 (+ a b))) (inv a1 b1))))
(assert (forall ((a Int) (b Int)) (=> (and (inv a b) (not (> a 0))) false)))
(check-sat)
