; Unsafe variant of fib.smt2: the property a < 13 fails at F(7) = 13, six steps in.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (and (= a 1) (= b 1)) (inv a b))))
(assert (forall ((a Int) (b Int) (a1 Int) (b1 Int))
  (=> (and (inv a b) (= a1 b) (= b1 (+ a b))) (inv a1 b1))))
(assert (forall ((a Int) (b Int)) (=> (and (inv a b) (not (< a 13))) false)))
(check-sat)
