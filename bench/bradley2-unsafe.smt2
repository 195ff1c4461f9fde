; Unsafe variant of bradley2.smt2: x starts at -2, so (x, y) = (-2, 1) -> (-1, -1) fails y >= 1 in one step.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x (- 2)) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x y)) (= y1 (+ y x))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< y 1)) false)))
(check-sat)
