; SV-COMP style, one predicate per loop head: the first loop counts i up
; to n with j stepping by 2, the second counts j back down by 2 with k
; stepping by 1; after both, k == n.
(set-logic HORN)
(set-info :status sat)
(declare-fun loop1 (Int Int Int) Bool)
(declare-fun loop2 (Int Int Int) Bool)
(assert (forall ((i Int) (j Int) (n Int))
  (=> (and (= i 0) (= j 0) (>= n 0)) (loop1 i j n))))
(assert (forall ((i Int) (j Int) (n Int))
  (=> (and (loop1 i j n) (< i n)) (loop1 (+ i 1) (+ j 2) n))))
(assert (forall ((i Int) (j Int) (n Int))
  (=> (and (loop1 i j n) (>= i n)) (loop2 j 0 n))))
(assert (forall ((j Int) (k Int) (n Int))
  (=> (and (loop2 j k n) (> j 0)) (loop2 (- j 2) (+ k 1) n))))
(assert (forall ((j Int) (k Int) (n Int))
  (=> (and (loop2 j k n) (<= j 0) (not (= k n))) false)))
(check-sat)
