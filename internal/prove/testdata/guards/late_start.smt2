; x counts to 3*n; y stays 0 until x reaches 2*n, then follows x - 2*n.
; Safe: at done (x = 3*n) y is n. The invariant of loop is y = 0 below the
; update's threshold x < 2*n and y = x - 2*n above it (a phase split at
; the clause's own condition), with x <= 3*n and n >= 1.
(set-logic HORN)
(declare-fun loop (Int Int Int) Bool)
(declare-fun done (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (n Int))
  (=> (and (= x 0) (= y 0) (> n 0)) (loop x y n))))
(assert (forall ((x Int) (y Int) (n Int) (x1 Int) (y1 Int))
  (=> (and (loop x y n) (< x (* 3 n)) (= x1 (+ x 1)) (= y1 (ite (< x (* 2 n)) y (+ y 1))))
      (loop x1 y1 n))))
(assert (forall ((x Int) (y Int) (n Int))
  (=> (and (loop x y n) (>= x (* 3 n))) (done x y n))))
(assert (forall ((x Int) (y Int) (n Int))
  (=> (and (done x y n) (not (= y n))) false)))
(check-sat)
