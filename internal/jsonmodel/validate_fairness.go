package jsonmodel

import "github.com/stateproof/stateproof/internal/jsonvalue"

// fairness validates the top-level `fairness` block: {"weak": [event…] or
// "*", "strong": [event…]}, both optional, every event one of the model's
// transitions (docs/models.md#fairness).
func (v *validator) fairness(f *jsonvalue.Value) *Fairness {
	if !v.object("fairness", f, "fairness", fairnessKeys) {
		return nil
	}
	out := &Fairness{}
	if w := f.Get("weak"); w != nil {
		if w.Kind == jsonvalue.String {
			if w.Str != "*" {
				v.errorf("fairness.weak", `expected an array of events or "*" (every event)`)
			} else {
				out.WeakAll = true
				for e := range v.events {
					out.Weak = append(out.Weak, e)
				}
				jsonvalue.SortUTF16(out.Weak)
			}
		} else {
			out.Weak = v.list("fairness.weak", w, false, "event", v.eventRef)
		}
	}
	if s := f.Get("strong"); s != nil {
		out.Strong = v.list("fairness.strong", s, false, "event", v.eventRef)
	}
	return out
}
