package report

import "strings"

// docsBase is where the project's manual is published; a SARIF rule's
// helpUri points into it so a code-scanning alert links to the check.
const docsBase = "https://github.com/stateproof/stateproof/blob/main/"

// ruleDoc is what a SARIF rule says about a check: a sentence on what it
// finds and the manual's section for it.
type ruleDoc struct {
	what, page string
}

// ruleDocs describes every check by ID (docs/models.md, docs/fcstm.md).
func ruleDocs() map[string]ruleDoc {
	return map[string]ruleDoc{
		"MODEL":        {"The model is valid against schema v1 (or, for FCSTM, parses and constructs).", "docs/models.md#the-model-key-by-key"},
		"BEFORE_MODEL": {"The BEFORE model of a comparison is valid.", "docs/models.md#beforeafter-checks-d1d4"},
		"S1":           {"A declared state that no reachable run enters.", "docs/models.md#structural-checks-s1s8"},
		"S2":           {"A non-terminal state that is the source of no transition: a dead end.", "docs/models.md#structural-checks-s1s8"},
		"S3":           {"A set of states that form a cycle with no way out and no terminal state.", "docs/models.md#structural-checks-s1s8"},
		"S4":           {"More than one transition can fire from one state on one event.", "docs/models.md#structural-checks-s1s8"},
		"S5":           {"A non-terminal state that silently ignores an event of the model.", "docs/models.md#structural-checks-s1s8"},
		"S6":           {"A guarded group without a default leaves some values with no transition.", "docs/models.md#structural-checks-s1s8"},
		"S7":           {"The shortest run that violates a declared invariant.", "docs/models.md#structural-checks-s1s8"},
		"S8":           {"An update that contradicts its variable's declaration.", "docs/models.md#structural-checks-s1s8"},
		"A1":           {"An event injected where no transition handles it.", "docs/models.md#adversarial-probes-a1a15"},
		"A2":           {"Two concurrent events whose two orders end in different runtimes.", "docs/models.md#adversarial-probes-a1a15"},
		"A3":           {"Orders of the same events that end in different runtimes.", "docs/models.md#adversarial-probes-a1a15"},
		"A4":           {"A resource acquired and not released, or released without being held.", "docs/models.md#adversarial-probes-a1a15"},
		"A5":           {"A boundary value of a variable that breaks an invariant or a guard.", "docs/models.md#adversarial-probes-a1a15"},
		"A6":           {"A resource event injected out of its protocol.", "docs/models.md#adversarial-probes-a1a15"},
		"A7":           {"Every invariant re-decided, with the shortest counterexample.", "docs/models.md#adversarial-probes-a1a15"},
		"A8":           {"An idempotent event delivered twice changes the runtime.", "docs/models.md#adversarial-probes-a1a15"},
		"A9":           {"A leads-to invariant refuted by a dead end or a cycle that avoids its target.", "docs/models.md#adversarial-probes-a1a15"},
		"A10":          {"A run on which listed events occur out of their order.", "docs/models.md#adversarial-probes-a1a15"},
		"A11":          {"An atomic group interrupted by another event before it commits.", "docs/models.md#adversarial-probes-a1a15"},
		"A12":          {"A cost budget that a run exceeds, or that a cycle makes unbounded.", "docs/models.md#adversarial-probes-a1a15"},
		"A13":          {"A reachability probability that violates its bound.", "docs/models.md#adversarial-probes-a1a15"},
		"A14":          {"A state held longer than its deadline by a tick event.", "docs/models.md#adversarial-probes-a1a15"},
		"A15":          {"An LTL invariant refuted by a fair run, shown as a lasso (a prefix and a cycle repeated forever).", "docs/liveness.md#ltl"},
		"D1":           {"Behaviour of the BEFORE model that the AFTER model no longer has.", "docs/models.md#beforeafter-checks-d1d4"},
		"D2":           {"A BEFORE invariant that no longer holds, or lost its states or variables.", "docs/models.md#beforeafter-checks-d1d4"},
		"D3":           {"States and transitions added or removed by the change.", "docs/models.md#beforeafter-checks-d1d4"},
		"D4":           {"A deadlock or liveness failure the change introduced.", "docs/models.md#beforeafter-checks-d1d4"},
		"BMC":          {"A bounded check of an FBMCQ query (or of the model's invariants to a bound) that does not hold within its bound, or was not decided.", "docs/queries.md"},
		"PROVE":        {"A reachable state constraint that prove found violated (with a trace from the start) or could not decide.", "docs/rsc.md"},
		"C1":           {"Machines run together reach a composite state where none can move.", "docs/models.md#composition-checks-c1-and-c2"},
		"C2":           {"A rendezvous event that never fires in the composition.", "docs/models.md#composition-checks-c1-and-c2"},
	}
}

// ruleFor is the documentation of the check checkID under name.
func ruleFor(checkID, name string) (what, uri string) {
	if d, ok := ruleDocs()[checkID]; ok {
		return d.what, docsBase + d.page
	}
	if strings.HasPrefix(checkID, "L") {
		return name + " (an FCSTM lint).", docsBase + "docs/fcstm.md#stateproof-verify-modelfcstm"
	}
	return name + ".", docsBase + "docs/reports.md"
}
