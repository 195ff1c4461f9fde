; Tinelli's resettable counter (bench/README.md), parameter n >= 1, input r.
; c := 1; loop: if r or c = n then c := 1 else c := c + 1.  Property c <= n + 1.
; Not 1-inductive (CTI (c, n) = (2, 1)); c <= n + 1 /\ n >= 1 is 2-inductive.
(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((c Int) (n Int)) (=> (and (= c 1) (>= n 1)) (inv c n))))
(assert (forall ((c Int) (n Int) (r Bool) (c1 Int) (n1 Int))
  (=> (and (inv c n) (= n1 n)
           (=> (or r (= c n)) (= c1 1))
           (=> (not (or r (= c n))) (= c1 (+ c 1))))
      (inv c1 n1))))
(assert (forall ((c Int) (n Int)) (=> (and (inv c n) (> c (+ n 1))) false)))
(check-sat)
