; Lustre style: two synchronous nodes composed, each with its own state.
; Node A counts 0..3 cyclically by an ite; node B counts up and resets when
; it reaches 3, or when both see the input `clear` (then A resets too).
; Property: a == b (which needs both within 0..3).
(set-logic HORN)
(set-info :status sat)
(declare-fun top (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (and (= a 0) (= b 0)) (top a b))))
(assert (forall ((a Int) (b Int) (clear Bool) (a1 Int) (b1 Int))
  (=> (and (top a b)
           (= a1 (ite clear 0 (ite (= a 3) 0 (+ a 1))))
           (= b1 (ite (or clear (>= b 3)) 0 (+ b 1))))
      (top a1 b1))))
(assert (forall ((a Int) (b Int))
  (=> (and (top a b) (not (= a b))) false)))
(check-sat)
