; The unsafe twin of sync_counters: node B resets only at 4, so the two
; counters part after four steps.
(set-logic HORN)
(set-info :status unsat)
(declare-fun top (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (and (= a 0) (= b 0)) (top a b))))
(assert (forall ((a Int) (b Int) (clear Bool) (a1 Int) (b1 Int))
  (=> (and (top a b)
           (= a1 (ite clear 0 (ite (= a 3) 0 (+ a 1))))
           (= b1 (ite (or clear (>= b 4)) 0 (+ b 1))))
      (top a1 b1))))
(assert (forall ((a Int) (b Int))
  (=> (and (top a b) (not (= a b))) false)))
(check-sat)
