; Lustre style: one step relation of a synchronous node. Mode 0 arms
; (cnt := 0), mode 1 counts to 3 and moves to mode 2, mode 2 goes back to
; 0; an input `reset` sends any mode to 0. Property: cnt stays in 0..3.
(set-logic HORN)
(set-info :status sat)
(declare-fun node (Int Int) Bool)
(assert (forall ((m Int) (cnt Int)) (=> (and (= m 0) (= cnt 0)) (node m cnt))))
(assert (forall ((m Int) (cnt Int) (reset Bool) (m1 Int) (cnt1 Int))
  (=> (and (node m cnt)
           (= m1 (ite reset 0 (ite (= m 0) 1 (ite (= m 1) (ite (>= (+ cnt 1) 3) 2 1) 0))))
           (= cnt1 (ite (or reset (= m 0)) 0 (ite (= m 1) (+ cnt 1) cnt))))
      (node m1 cnt1))))
(assert (forall ((m Int) (cnt Int)) (=> (and (node m cnt) (or (< cnt 0) (> cnt 3))) false)))
(check-sat)
