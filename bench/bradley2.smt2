; Bradley's pgm2 (bench/README.md): x, y := 1, 1; while *: x, y := x + y, y + x.
; Property y >= 1: x >= 0 alone is not inductive (CTI (0, -1)); x >= 0 /\ y >= 1 is.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 1) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x y)) (= y1 (+ y x))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< y 1)) false)))
(check-sat)
