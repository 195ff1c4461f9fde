; Bradley's pgm1 (bench/README.md): x, y := 1, 1; while *: x, y := x + 1, y + x.
; Property y >= 1: not k-inductive for any k; x >= 0 strengthens it.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 1) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x 1)) (= y1 (+ y x))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< y 1)) false)))
(check-sat)
