; Two-node counter (bench/README.md) with N = 1,000,000:
; start -> L0 with x = y = 0; L0 -> L0 when x < N: x++, y += 2; L0 -> L1 when x >= N.
; Property at L1: y = 2N. No k works; L0: y = 2x /\ x <= N, L1: y = 2N are inductive.
(set-logic HORN)
(declare-fun L0 (Int Int) Bool)
(declare-fun L1 (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (L0 x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (L0 x y) (< x 1000000) (= x1 (+ x 1)) (= y1 (+ y 2))) (L0 x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (L0 x y) (>= x 1000000)) (L1 x y))))
(assert (forall ((x Int) (y Int)) (=> (and (L1 x y) (not (= y 2000000))) false)))
(check-sat)
