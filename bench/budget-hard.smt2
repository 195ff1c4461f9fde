; A problem no layer of prove decides within 10 s (bench/budget.sh): safe,
; but its invariant relates a product of counters (y = x * z at the outer
; loop, the inner loop adding z to y once per outer round), which linear
; arithmetic cannot state.
(set-logic HORN)
(declare-fun Outer (Int Int Int) Bool)
(declare-fun Inner (Int Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 0) (>= z 1)) (Outer x y z))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (Outer x y z) (Inner x y z 0))))
(assert (forall ((x Int) (y Int) (z Int) (i Int))
  (=> (and (Inner x y z i) (< i z)) (Inner x (+ y 1) z (+ i 1)))))
(assert (forall ((x Int) (y Int) (z Int) (i Int))
  (=> (and (Inner x y z i) (>= i z)) (Outer (+ x 1) y z))))
(assert (forall ((x Int) (y Int) (z Int))
  (=> (and (Outer x y z) (= x 7) (not (= y (* 7 z)))) false)))
(check-sat)
