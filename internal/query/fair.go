package query

import "github.com/stateproof/stateproof/internal/expr"

// fair binds the fairness clause (docs/queries.md#fairness). Under it a
// counterexample is a lasso: the run goes round its loop forever, so the
// property may only read what repeats with the loop. A frame index or a
// call window wider than the anchor step would read positions the lasso
// does not repeat, and is refused rather than judged on the bounded trace.
func (b *binder) fair() {
	c := &b.q.Check
	if c.Fair == nil && !c.FairAll {
		return
	}
	if c.Kind != MustReach && c.Kind != Response {
		b.fail(CodeQueryShape, c.FairSpan, "a fair clause belongs to a must_reach or response check, not to %s", c.Kind)
	}
	seen := map[string]bool{}
	for _, e := range c.Fair {
		b.event(e)
		if seen[e.Name] {
			b.fail(CodeQueryShape, e.Span, "event %q is listed twice in the fair clause", e.Name)
		}
		seen[e.Name] = true
	}
	for _, r := range roots(b.q) {
		expr.Inspect(r, func(n expr.Expr) bool {
			switch n := n.(type) {
			case *expr.Ident:
				if n.Name == "cycle" {
					b.fail(CodeCycleNotAllowed, n.Loc, "cycle is not allowed in a query with a fair clause: a lasso counterexample repeats its loop, and the frame index does not repeat")
				}
			case *expr.AtomCall:
				if f := b.calls[n]; f != nil && f.Steps != (CallSteps{LoRel: true, HiRel: true}) {
					b.fail(CodeCallStepOutOfRange, n.Loc, "a call filter in a query with a fair clause reads its anchor step only: a lasso counterexample repeats its loop, and a wider window does not")
				}
			}
			return true
		})
	}
	if !b.sys.OneEventPerStep && b.sys.Tests == nil {
		// Free inputs, and no record of which the cycle reads: "enabled"
		// and "taken" have no definition here.
		b.unsupported(CodeUnsupportedFairness, c.FairSpan, "a fair clause needs the event tests of a model whose events are free inputs, which this front end does not record (docs/queries.md#fairness)")
	}
}

// ltl binds an ltl check (docs/queries.md#ltl): its fairness clauses name
// events of the model, each once. The formula is the engine's to parse;
// init and assume clauses are the engine's to refuse or honour.
func (b *binder) ltl(opts BindOptions) {
	c := &b.q.Check
	if !opts.LTL {
		b.unsupported(CodeUnsupportedLTL, c.Span, "check ltl is decided by stateproof verify on an FCSTM model (-q/--check); a JSON model declares its LTL properties in the model file (docs/liveness.md)")
	}
	for _, list := range [][]Name{c.Fair, c.Strong} {
		seen := map[string]bool{}
		for _, e := range list {
			b.event(e)
			if seen[e.Name] {
				b.fail(CodeQueryShape, e.Span, "event %q is listed twice in one fairness clause", e.Name)
			}
			seen[e.Name] = true
		}
	}
}
