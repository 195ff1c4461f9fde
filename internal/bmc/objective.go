package bmc

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// framePred is a frame predicate lowered at every frame: P_i and D_i.
type framePred struct {
	p, d []*z3.Term
}

func (p *problem) predicate(e expr.Expr, frames int) (framePred, error) {
	var fp framePred
	for i := 0; i < frames; i++ {
		if err := p.checkCancelled(); err != nil {
			return fp, err
		}
		v, err := p.lowerAt(e, i)
		if err != nil {
			return fp, err
		}
		fp.p = append(fp.p, v.T)
		fp.d = append(fp.d, v.Def)
	}
	return fp, nil
}

// good is G_i(p) = D_i ∧ P_i.
func (p *problem) good(fp framePred, i int) *z3.Term { return p.b.And(fp.d[i], fp.p[i]) }

// objective builds Φ_q at the current bound n (docs/queries.md) and, for
// response, the tail observation Ω (nil when trivially false).
func (p *problem) objective() (phi, omega *z3.Term, err error) {
	b := p.b
	n := p.n
	c := &p.q.Check
	if c.Fair != nil || c.FairAll {
		p.frameHits = nil
		phi, err := p.fairObjective()
		return phi, nil, err
	}
	switch c.Kind {
	case query.Cover:
		var opts []*z3.Term
		for i := 0; i < n; i++ {
			for _, sel := range p.enc.Sels[i] {
				if sel.Case.Label == c.CaseLabel && (sel.Case.Kind == sts.Transition || sel.Case.Kind == sts.Fallback) {
					opts = append(opts, sel.Term)
				}
			}
		}
		return b.Or(opts...), nil, b.Err()
	case query.Response:
		return p.response()
	}
	fp, err := p.predicate(c.Body, n+1)
	if err != nil {
		return nil, nil, err
	}
	var terms []*z3.Term
	for i := 0; i <= n; i++ {
		switch c.Kind {
		case query.Reach:
			terms = append(terms, p.good(fp, i))
		case query.Forbid:
			terms = append(terms, b.Or(b.Not(fp.d[i]), fp.p[i]))
		case query.Invariant:
			terms = append(terms, b.Or(b.Not(fp.d[i]), b.Not(fp.p[i])))
		case query.MustReach:
			terms = append(terms, b.Not(p.good(fp, i)))
		case query.ExistsAlways:
			terms = append(terms, p.good(fp, i))
		}
	}
	if c.Kind == query.MustReach || c.Kind == query.ExistsAlways {
		p.frameHits = nil
		return b.And(terms...), nil, b.Err()
	}
	p.frameHits = terms
	return b.Or(terms...), nil, b.Err()
}

// response builds Φ and Ω for `trigger t -> within W r`.
func (p *problem) response() (phi, omega *z3.Term, err error) {
	b := p.b
	n, w := p.n, p.q.Check.Window
	// The trigger may read this step's events, so it is lowered only at
	// frames with a step (i < N).
	tr, err := p.predicate(p.q.Check.Trigger, n)
	if err != nil {
		return nil, nil, err
	}
	rs, err := p.predicate(p.q.Check.Target, n+1)
	if err != nil {
		return nil, nil, err
	}
	var bad, open []*z3.Term
	for i := 0; i < n; i++ {
		bad = append(bad, b.Not(tr.d[i]))
		var hits []*z3.Term
		for j := i + 1; j <= min(i+w, n); j++ {
			hits = append(hits, p.good(rs, j))
		}
		miss := b.And(p.good(tr, i), b.Not(b.Or(hits...)))
		if i+w <= n {
			bad = append(bad, miss)
		} else {
			open = append(open, miss)
		}
	}
	phi = b.Or(bad...)
	if len(open) > 0 {
		omega = b.Or(open...)
		if omega.IsFalse() {
			omega = nil
		}
	}
	return phi, omega, b.Err()
}
