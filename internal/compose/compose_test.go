package compose

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// machine writes a model from "FROM -event-> TO" lines; states ending in
// "!" are terminal, the first state is initial, extra is appended verbatim.
func machine(states string, trans []string, extra string) string {
	var ss, ts []string
	init := ""
	for _, s := range strings.Fields(states) {
		id, term := strings.CutSuffix(s, "!")
		if init == "" {
			init = id
		}
		ss = append(ss, fmt.Sprintf(`{"id":%q,"terminal":%t}`, id, term))
	}
	for _, t := range trans {
		var from, ev, to string
		fmt.Sscanf(strings.NewReplacer("-", " ", ">", " ").Replace(t), "%s %s %s", &from, &ev, &to)
		ts = append(ts, fmt.Sprintf(`{"from":%q,"event":%q,"to":%q}`, from, ev, to))
	}
	return fmt.Sprintf(`{"schemaVersion":1,"init":%q,"states":[%s],"transitions":[%s]%s}`, init, strings.Join(ss, ","), strings.Join(ts, ","), extra)
}

func compose(t *testing.T, maxStates int, rdv string, models ...string) *report.ComposeReport {
	t.Helper()
	var in []Input
	for i, m := range models {
		res, err := jsonmodel.Decode([]byte(m))
		if err != nil {
			t.Fatalf("machine %d: %v", i, err)
		}
		in = append(in, Input{Name: fmt.Sprintf("m%d.json", i), Result: res})
	}
	opts := DefaultOptions()
	if maxStates > 0 {
		opts.MaxStates = maxStates
	}
	if rdv != "" {
		opts.Rendezvous = strings.Split(rdv, ",")
	}
	return Run(in, opts)
}

func findings(r *report.ComposeReport, id string) []report.Finding {
	for _, c := range r.Checks {
		if c.ID == id {
			return c.Findings
		}
	}
	return nil
}

func codes(r *report.ComposeReport) []string {
	var out []string
	for _, c := range r.Checks {
		for _, f := range c.Findings {
			out = append(out, f.Code)
		}
	}
	return out
}

func evidenceJSON(t *testing.T, f report.Finding) string {
	t.Helper()
	b, err := json.Marshal(f.Evidence)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	producer = machine("IDLE READY", []string{"IDLE -produce-> READY", "READY -put-> IDLE"}, "")
	consumer = machine("WAIT HAVE", []string{"WAIT -put-> HAVE", "HAVE -consume-> WAIT"}, "")
	client   = machine("IDLE WAIT DONE!", []string{"IDLE -req-> WAIT", "WAIT -ack-> DONE"}, "")
	server   = machine("LISTEN BUSY CLOSED! OFF!", []string{"LISTEN -req-> BUSY", "BUSY -ack-> CLOSED", "BUSY -shutdown-> OFF"}, "")
	server2  = machine("LISTEN BUSY CLOSED!", []string{"LISTEN -req-> BUSY", "BUSY -ack-> CLOSED"}, "")
)

// Textbook: a producer/consumer pair meeting on "put" passes.
func TestProducerConsumerPasses(t *testing.T) {
	r := compose(t, 0, "put", producer, consumer)
	if v, reason := r.Verdict(); v != report.Pass {
		t.Fatalf("verdict %s (%s): %v", v, reason, codes(r))
	}
	if r.CompositeStates != 4 || r.Truncated {
		t.Errorf("composite states %d, truncated %v", r.CompositeStates, r.Truncated)
	}
	if ok := r.JSON().Get("ok"); ok != true {
		t.Errorf("ok = %v", ok)
	}
}

// Textbook: a handshake whose partner went terminal deadlocks, and the
// waiting machine says its partner is not ready.
func TestHandshakePartnerTerminal(t *testing.T) {
	r := compose(t, 0, "req,ack", client, server)
	fs := findings(r, "C1")
	if len(fs) != 1 {
		t.Fatalf("C1 = %+v", fs)
	}
	f := fs[0]
	if f.Message != "Composition deadlocks after 2 steps in (WAIT, OFF): no machine can move (no-enabled-transition, rendezvous-partner-not-ready)" {
		t.Errorf("message = %q", f.Message)
	}
	want := []report.Step{{From: "(IDLE, LISTEN)", Event: "req", To: "(WAIT, BUSY)"}, {From: "(WAIT, BUSY)", Event: "shutdown", To: "(WAIT, OFF)"}}
	if !slices.Equal(f.Path, want) {
		t.Errorf("path = %v", f.Path)
	}
	ev := evidenceJSON(t, f)
	for _, part := range []string{
		`"steps":[{"event":"req","machines":[0,1]},{"event":"shutdown","machines":[1]}]`,
		`"states":["WAIT","OFF"],"depth":2`,
		`{"index":0,"state":"WAIT","terminal":false,"blocked":[{"event":"ack","reason":"rendezvous-partner-not-ready"},{"event":"req","reason":"no-enabled-transition"}]}`,
		`{"index":1,"state":"OFF","terminal":true,"blocked":[{"event":"ack","reason":"no-enabled-transition"},{"event":"req","reason":"no-enabled-transition"},{"event":"shutdown","reason":"no-enabled-transition"}]}`,
		`"reasons":["no-enabled-transition","rendezvous-partner-not-ready"]`,
	} {
		if !strings.Contains(ev, part) {
			t.Errorf("evidence lacks %s:\n%s", part, ev)
		}
	}
	if d := r.Checks[0].Detail; !strings.HasPrefix(d, "Shortest counterexample (breadth-first): 2 step(s)") {
		t.Errorf("detail = %q", d)
	}
	// A server that never shuts down completes every handshake.
	if got := codes(compose(t, 0, "req,ack", client, server2)); len(got) != 0 {
		t.Errorf("server without shutdown: %v", got)
	}
}

// Textbook: a three-machine chain, source → relay → sink, each hand-over
// a rendezvous of two machines.
func TestThreeMachineChain(t *testing.T) {
	source := machine("MAKE SEND", []string{"MAKE -make-> SEND", "SEND -hand-> MAKE"}, "")
	relay := machine("EMPTY FULL", []string{"EMPTY -hand-> FULL", "FULL -pass-> EMPTY"}, "")
	sink := machine("READY GOT", []string{"READY -pass-> GOT", "GOT -eat-> READY"}, "")
	r := compose(t, 0, "hand,pass", source, relay, sink)
	if got := codes(r); len(got) != 0 {
		t.Fatalf("chain: %v", got)
	}
	if r.CompositeStates != 8 {
		t.Errorf("composite states = %d, want 8", r.CompositeStates)
	}
	// A sink that stops after one item leaves the relay holding the second.
	sinkOnce := machine("READY GOT STOP!", []string{"READY -pass-> GOT", "GOT -eat-> STOP"}, "")
	r = compose(t, 0, "hand,pass", source, relay, sinkOnce)
	fs := findings(r, "C1")
	if len(fs) != 1 || fs[0].Evidence.Get("depth") != 7 {
		t.Fatalf("C1 = %+v", fs)
	}
	if !strings.Contains(fs[0].Message, "in (SEND, FULL, STOP)") {
		t.Errorf("message = %q", fs[0].Message)
	}
}

func TestC1Reasons(t *testing.T) {
	// "ping" is a rendezvous only machine 0 declares: it needs a partner.
	lonely := machine("A B!", []string{"A -ping-> B"}, "")
	other := machine("X Y!", []string{"X -go-> Y"}, "")
	r := compose(t, 0, "ping", lonely, other)
	fs := findings(r, "C1")
	if len(fs) != 1 || !strings.Contains(evidenceJSON(t, fs[0]), `{"event":"ping","reason":"rendezvous-needs-partner"}`) {
		t.Errorf("C1 = %+v", fs)
	}
	// Without --rendezvous, ping fires alone and everything terminates.
	if got := codes(compose(t, 0, "", lonely, other)); len(got) != 0 {
		t.Errorf("ping not a rendezvous: %v", got)
	}
	// A terminal machine is stopped even when it has transitions.
	stopped := machine("T! U", []string{"T -go-> U", "U -go-> T"}, "")
	waiter := machine("W V!", []string{"W -go-> V"}, "")
	r = compose(t, 0, "go", stopped, waiter)
	if fs := findings(r, "C1"); len(fs) != 1 || fs[0].Message != "Composition deadlocks after 0 steps in (T, W): no machine can move (no-enabled-transition, rendezvous-partner-not-ready)" {
		t.Errorf("C1 = %+v", fs)
	}
}

func TestC2Reasons(t *testing.T) {
	disarmed := `{"schemaVersion":1,"init":"WAIT","states":[{"id":"WAIT"},{"id":"HAVE"}],"transitions":[
	  {"from":"WAIT","event":"put","to":"HAVE","guard":{"variable":"armed","op":"==","value":true}},
	  {"from":"HAVE","event":"consume","to":"WAIT"}],"variables":[{"name":"armed","kind":"boolean","init":false}]}`
	// x is enabled in machine 0 only before the y handshake, in machine 1
	// only after it.
	early := machine("P0 P1 PX!", []string{"P0 -x-> PX", "P0 -y-> P1"}, "")
	late := machine("Q0 Q1 Q2!", []string{"Q0 -y-> Q1", "Q1 -x-> Q2"}, "")
	cases := []struct {
		name   string
		rdv    string
		models []string
		reason string
	}{
		{"fewer than two declare", "put", []string{producer, machine("X Y!", []string{"X -go-> Y"}, "")}, `fewer than two machines declare "put"`},
		{"declared but never enabled", "put", []string{producer, disarmed}, `machine 1 declares "put" but never enables it`},
		{"never co-enabled", "x,y", []string{early, late}, `"x" is never enabled in all declaring machines at the same time`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := compose(t, 0, c.rdv, c.models...)
			fs := findings(r, "C2")
			if len(fs) == 0 {
				t.Fatalf("no C2 finding: %v", codes(r))
			}
			f := fs[0]
			if f.Severity != report.Error || f.Evidence.Get("reason") != c.reason || f.Target != strings.Split(c.rdv, ",")[0] {
				t.Errorf("finding = %+v", f)
			}
			if strings.Contains(f.Message, "artefact") {
				t.Errorf("untruncated message mentions the cap: %q", f.Message)
			}
		})
	}
	// The near-identical pair where the consumer is armed fires.
	if fs := findings(compose(t, 0, "put", producer, consumer), "C2"); len(fs) != 0 {
		t.Errorf("C2 = %+v", fs)
	}
	r := compose(t, 0, "x,y", early, late)
	ev := evidenceJSON(t, findings(r, "C2")[0])
	if !strings.Contains(ev, `"machines":[{"index":0,"declares":true,"everEnabled":true,"enabledAt":["P0"]},{"index":1,"declares":true,"everEnabled":true,"enabledAt":["Q1"]}],"declaring":[0,1],"coEnabledNodes":0`) {
		t.Errorf("evidence = %s", ev)
	}
}

// An unbounded counter makes the product infinite: the cap is reported,
// C1 does not claim absence, and C2 says it may be an artefact of the cap.
func TestTruncation(t *testing.T) {
	counter := `{"schemaVersion":1,"init":"RUN","states":[{"id":"RUN"},{"id":"GO"}],"transitions":[
	  {"from":"RUN","event":"tick","to":"RUN","updates":[{"variable":"c","op":"inc"}]},
	  {"from":"RUN","event":"sync","to":"GO","guard":{"variable":"c","op":">=","value":500}},
	  {"from":"GO","event":"tick","to":"GO"}],
	  "variables":[{"name":"c","kind":"integer","init":0}]}`
	partner := machine("A B", []string{"A -sync-> B", "B -spin-> B"}, `,"variables":[{"name":"k","kind":"boolean","init":false}]`)
	r := compose(t, 100, "sync", counter, partner)
	if !r.Truncated || r.CompositeStates != 101 {
		t.Fatalf("truncated %v, %d composite states", r.Truncated, r.CompositeStates)
	}
	if d := r.Checks[0].Detail; !strings.Contains(d, "absence of deadlock is not proven") {
		t.Errorf("C1 detail = %q", d)
	}
	fs := findings(r, "C2")
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "may be an artefact of the cap") || fs[0].Evidence.Get("truncated") != true {
		t.Errorf("C2 = %+v", fs)
	}
	steps := strings.Join(r.NextSteps(), "\n")
	for _, want := range []string{"Raise maxStates (now 100)", "Machines do not share variables (machine 0: c; machine 1: k); model a shared condition inside one machine or as a rendezvous"} {
		if !strings.Contains(steps, want) {
			t.Errorf("nextSteps lack %q:\n%s", want, steps)
		}
	}
	// With room the counter reaches 500 and the handshake fires; the
	// product is still infinite, so the search still truncates.
	r = compose(t, 5000, "sync", counter, partner)
	if !r.Truncated || len(findings(r, "C2")) != 0 {
		t.Errorf("large cap: truncated %v, %v", r.Truncated, codes(r))
	}
}

func TestModelInvalid(t *testing.T) {
	cases := []struct {
		models []string
		rdv    string
		msg    string
	}{
		{[]string{producer}, "", "composition needs at least two machines (got 1)"},
		{[]string{producer, `{"schemaVersion":1,"init":"A","states":[{"id":"A"}],"transitions":[],"sttes":1}`}, "", "machine 1 invalid: sttes: unknown field for model"},
		{[]string{producer, consumer}, "put,pot", `rendezvous: event "pot" is declared by no machine`},
	}
	for _, c := range cases {
		r := compose(t, 0, c.rdv, c.models...)
		if len(r.Checks) != 1 || r.Checks[0].ID != "MODEL" || !strings.HasPrefix(r.Checks[0].Findings[0].Message, c.msg) {
			t.Errorf("%s: checks = %+v", c.msg, r.Checks)
		}
		if r.JSON().Get("ok") != false {
			t.Errorf("%s: ok", c.msg)
		}
	}
}

func TestMetadataKeysAndHashes(t *testing.T) {
	m1 := strings.Replace(producer, `"init"`, `"_src":"a","init"`, 1)
	r := compose(t, 0, "put", m1, consumer)
	if want := []string{"machines[0]._src"}; !slices.Equal(r.MetadataKeys, want) {
		t.Errorf("metadataKeys = %q", r.MetadataKeys)
	}
	res, _ := jsonmodel.Decode([]byte(producer))
	h, _ := jsonmodel.Hash(res.Raw, "v1")
	out, _ := json.Marshal(r.JSON())
	if !strings.Contains(string(out), `"hashes":{"hashSpec":"v1","machines":["`+h+`",`) {
		t.Errorf("report = %s", out)
	}
	if !strings.Contains(string(out), `"summary":{"machineCount":2,"machines":[{"modelHash":"`+h+`","states":2,"transitions":2}`) {
		t.Errorf("summary = %s", out)
	}
}

// The benchmark's generated rings, small: two rings of 20 runtime states
// give 400 composite states and never deadlock.
func TestGeneratedRings(t *testing.T) {
	r := compose(t, 0, "", gen.Ring(2), gen.Ring(2))
	if r.CompositeStates != 400 || r.Truncated || len(codes(r)) != 0 {
		t.Errorf("%d composite states, truncated %v, %v", r.CompositeStates, r.Truncated, codes(r))
	}
}

// A search stopped at its cap with no deadlock found does not pass C1: it
// is C1_UNDECIDED, and the verdict reason counts the check as not decided.
func TestC1UndecidedAtCap(t *testing.T) {
	counter := `{"schemaVersion":1,"init":"RUN","states":[{"id":"RUN"}],"transitions":[
	  {"from":"RUN","event":"tick","to":"RUN","updates":[{"variable":"c","op":"inc"}]}],
	  "variables":[{"name":"c","kind":"integer","init":0}]}`
	r := compose(t, 50, "", counter, machine("A", []string{"A -spin-> A"}, ""))
	fs := findings(r, "C1")
	if !r.Truncated || len(fs) != 1 || fs[0].Code != "C1_UNDECIDED" || r.Checks[0].Status() == report.Pass {
		t.Fatalf("truncated %v, C1 %+v", r.Truncated, fs)
	}
	if v, reason := r.Verdict(); v == report.Pass || !strings.Contains(reason, "1 check not decided") {
		t.Errorf("verdict %s (%s)", v, reason)
	}
	if n := report.UndecidedChecks(r.Checks); n != 1 {
		t.Errorf("UndecidedChecks = %d", n)
	}
}

// C1 reports one finding per deadlocked composite runtime: the same state
// ids with different variable values are two deadlocks.
func TestC1OneFindingPerCompositeRuntime(t *testing.T) {
	m0 := `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"}],"transitions":[
	  {"from":"A","event":"inc","to":"A","guard":{"variable":"x","op":"<","value":1},"updates":[{"variable":"x","op":"inc"}]},
	  {"from":"A","event":"stop","to":"B"}],
	  "variables":[{"name":"x","kind":"integer","init":0}]}`
	r := compose(t, 0, "", m0, machine("P", nil, ""))
	fs := findings(r, "C1")
	if len(fs) != 2 {
		t.Fatalf("C1 findings %d, want 2: %+v", len(fs), fs)
	}
	for i, f := range fs {
		want := fmt.Sprintf(`(B {"x":%d}, P)`, i)
		if !strings.Contains(f.Message, want) || len(f.Path) != i+1 {
			t.Errorf("finding %d: %q (path %d), want %s at depth %d", i, f.Message, len(f.Path), want, i+1)
		}
	}
}

// MaxFindings lists at most N findings per check and counts the rest, so
// a product with many deadlocked runtimes keeps a usable report while the
// verdict and totals stay exact.
func TestMaxFindingsListsAndCounts(t *testing.T) {
	m0 := `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"}],"transitions":[
	  {"from":"A","event":"inc","to":"A","guard":{"variable":"x","op":"<","value":9},"updates":[{"variable":"x","op":"inc"}]},
	  {"from":"A","event":"stop","to":"B"}],
	  "variables":[{"name":"x","kind":"integer","init":0}]}`
	var in []Input
	for i, m := range []string{m0, machine("P", nil, "")} {
		res, err := jsonmodel.Decode([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Name: fmt.Sprintf("m%d.json", i), Result: res})
	}
	opts := DefaultOptions()
	opts.MaxFindings = 3
	r := Run(in, opts)
	var c1 *report.Check
	for i := range r.Checks {
		if r.Checks[i].ID == "C1" {
			c1 = &r.Checks[i]
		}
	}
	if c1 == nil || len(c1.Findings) != 3 || c1.Unlisted.Total() != 7 || c1.Count(report.Error) != 10 {
		t.Fatalf("C1 listed %d, unlisted %d, errors %d; want 3, 7, 10", len(c1.Findings), c1.Unlisted.Total(), c1.Count(report.Error))
	}
	if v, _ := r.Verdict(); v != report.Fail {
		t.Errorf("verdict %s, want fail", v)
	}
	if got := r.JSON().Get("summary").(report.Obj).Get("unlistedFindings"); got != 7 {
		t.Errorf("summary.unlistedFindings = %v, want 7", got)
	}
	opts.MaxFindings = -1
	if err := opts.Validate(); err == nil {
		t.Error("maxFindings -1 must be refused")
	}
}

// The product search's snapshots say what it had stored, and the depth
// of the node it was at: in the product of two rings of sizes a and b a
// node (x, y) lies at depth x+y.
func TestProductSearchProgress(t *testing.T) {
	var in []Input
	for i, m := range []string{ringModel(200), ringModel(300)} {
		res, err := jsonmodel.Decode([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Name: fmt.Sprintf("m%d.json", i), Result: res})
	}
	opts := DefaultOptions()
	opts.MaxStates = 1000000
	var snaps []progress.Snapshot
	opts.Progress = progress.Func(func(s progress.Snapshot) { snaps = append(snaps, s) })
	opts.progressEvery = -1
	r := Run(in, opts)
	if len(snaps) < 10 {
		t.Fatalf("%d snapshots of a %d-state search", len(snaps), r.CompositeStates)
	}
	p := newProduct([]*runtime.Machine{runtime.Compile(in[0].Result.Model), runtime.Compile(in[1].Result.Model)}, nil, opts.MaxStates)
	p.run()
	for _, s := range snaps {
		exp := int(s.States - s.Queue)
		if s.Engine != progress.Search || s.Task != "product" || s.States > int64(p.len()) || exp >= p.len() {
			t.Fatalf("snapshot %+v of a %d-state search", s, p.len())
		}
		depth := 0
		for n := exp; n > 0; n = int(p.parent[n]) {
			depth++
		}
		if s.Depth != depth {
			t.Fatalf("snapshot %+v: depth of node %d is %d", s, exp, depth)
		}
	}
}

// ringModel is a counter that never deadlocks: x counts up to n, then
// back to 0.
func ringModel(n int) string {
	return fmt.Sprintf(`{"schemaVersion":1,"init":"A","states":[{"id":"A"}],"transitions":[
	  {"from":"A","event":"t","to":"A","guard":{"variable":"x","op":"<","value":%d},"updates":[{"variable":"x","op":"inc"}]},
	  {"from":"A","event":"t","to":"A","guard":{"variable":"x","op":">=","value":%d},"updates":[{"variable":"x","op":"set","value":0}]}],
	  "variables":[{"name":"x","kind":"integer","init":0}]}`, n, n)
}

// A closed Done stops the product search as the cap would: the report is
// truncated, C1 is not decided, and nothing passes.
func TestDoneStopsTheProductSearch(t *testing.T) {
	ring := func(n int) string { // a counter that never deadlocks
		return fmt.Sprintf(`{"schemaVersion":1,"init":"A","states":[{"id":"A"}],"transitions":[
		  {"from":"A","event":"t","to":"A","guard":{"variable":"x","op":"<","value":%d},"updates":[{"variable":"x","op":"inc"}]},
		  {"from":"A","event":"t","to":"A","guard":{"variable":"x","op":">=","value":%d},"updates":[{"variable":"x","op":"set","value":0}]}],
		  "variables":[{"name":"x","kind":"integer","init":0}]}`, n, n)
	}
	var in []Input
	for i, m := range []string{ring(200), ring(300)} {
		res, err := jsonmodel.Decode([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Name: fmt.Sprintf("m%d.json", i), Result: res})
	}
	opts := DefaultOptions()
	opts.MaxStates = 1000000
	if r := Run(in, opts); r.Truncated || r.CompositeStates != 201*301 {
		t.Fatalf("the full search: truncated %v, %d states", r.Truncated, r.CompositeStates)
	}
	done := make(chan struct{})
	close(done)
	opts.Done = done
	r := Run(in, opts)
	if !r.Truncated || r.CompositeStates >= 201*301 {
		t.Fatalf("cancelled: truncated %v, %d states", r.Truncated, r.CompositeStates)
	}
	if v, _ := r.Verdict(); v == report.Pass || len(findings(r, "C1")) == 0 || findings(r, "C1")[0].Code != "C1_UNDECIDED" {
		t.Errorf("a cancelled search must not pass: %v %+v", v, findings(r, "C1"))
	}
}
