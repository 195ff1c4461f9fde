; Program equivalence of a loop and its 2-unrolled version as a product
; program: P1 adds 3 to s per step up to n, P2 adds 6 per double step while
; two steps remain and 3 for a last odd one; P1 catches up while it lags
; (i < j). When both have stopped at n (i == j >= n) the sums agree.
(set-logic HORN)
(set-info :status sat)
(declare-fun prod (Int Int Int Int Int) Bool)
(assert (forall ((i Int) (s Int) (j Int) (t Int) (n Int))
  (=> (and (= i 0) (= s 0) (= j 0) (= t 0) (>= n 0)) (prod i s j t n))))
(assert (forall ((i Int) (s Int) (j Int) (t Int) (n Int))
  (=> (and (prod i s j t n) (< i j)) (prod (+ i 1) (+ s 3) j t n))))
(assert (forall ((i Int) (s Int) (j Int) (t Int) (n Int))
  (=> (and (prod i s j t n) (= i j) (<= (+ j 2) n)) (prod i s (+ j 2) (+ t 6) n))))
(assert (forall ((i Int) (s Int) (j Int) (t Int) (n Int))
  (=> (and (prod i s j t n) (= i j) (= (+ j 1) n)) (prod i s (+ j 1) (+ t 3) n))))
(assert (forall ((i Int) (s Int) (j Int) (t Int) (n Int))
  (=> (and (prod i s j t n) (= i j) (>= j n) (not (= s t))) false)))
(check-sat)
