; Unsafe only after 30 steps (beyond the first bounded search): two
; counters move together, the error needs c == 30.
(set-logic HORN)
(set-info :status unsat)
(declare-fun run (Int Int) Bool)
(assert (forall ((c Int) (d Int)) (=> (and (= c 0) (= d 100)) (run c d))))
(assert (forall ((c Int) (d Int)) (=> (and (run c d) (< c 1000)) (run (+ c 1) (- d 1)))))
(assert (forall ((c Int) (d Int)) (=> (and (run c d) (= c 30) (= d 70)) false)))
(check-sat)
