; Unsafe variant of bradley1.smt2: x counts down (x := x - 1), so y = 1, 2, 2, 1, -1 fails y >= 1 after four steps.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 1) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (- x 1)) (= y1 (+ y x))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< y 1)) false)))
(check-sat)
