; Counts x and y up together while x < 3*n, then stops in done; safe
; because y never passes 3*n. The invariant of loop needs y = x and
; x <= 3*n: the bound is the loop's guard seen after the step (x + 1 <= 3*n),
; which sample walks do not propose (no direction x - 3*n) and which the
; property at done does not give on its own.
(set-logic HORN)
(declare-fun loop (Int Int Int) Bool)
(declare-fun done (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (n Int))
  (=> (and (= x 0) (= y 0) (> n 0)) (loop x y n))))
(assert (forall ((x Int) (y Int) (n Int) (x1 Int) (y1 Int))
  (=> (and (loop x y n) (< x (* 3 n)) (= x1 (+ x 1)) (= y1 (+ y 1))) (loop x1 y1 n))))
(assert (forall ((x Int) (y Int) (n Int))
  (=> (and (loop x y n) (>= x (* 3 n))) (done x y n))))
(assert (forall ((x Int) (y Int) (n Int))
  (=> (and (done x y n) (> y (* 3 n))) false)))
(check-sat)
