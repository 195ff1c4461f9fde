package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/simulate"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/lineend"
	"github.com/stateproof/stateproof/internal/progress"
)

type simulateFlags struct {
	events    string
	eventsSet bool // --events was given, maybe empty (one cycle without events)
	steps     string
	frameSet  bool // --frame was given
	initState string
	initVars  string
	json      bool
	out       string
	maxCycles int
	witness   string // --from-witness
	frame     int    // --frame; < 0: the last
	progress  progressFlags
}

func newSimulateCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f simulateFlags
	cmd := &cobra.Command{
		Use:   "simulate MODEL.fcstm|MODEL.json",
		Short: "Run a model cycle by cycle and show what happens",
		Long: `simulate runs an FCSTM model one cycle at a time (docs/fcstm.md, "The runtime
cycle") and shows, for every cycle, the state reached, the variables that
changed and the actions executed, with the abstract calls and their context.
A JSON model (docs/models.md) runs the same way with one event per cycle:
the exit actions of the state left, the transition, the entry actions of
the state entered; a nondeterministic event is reported as an error.

The cycles come from --events (cycles separated by ";", the events of a cycle
by ","; an empty cycle has no event), from --steps (a JSON array of arrays of
event paths), or from standard input, one cycle per line. When standard input
is a terminal and neither option is given, simulate is interactive: type the
events of each cycle, "help" for help; Tab completes event names.

Events are full paths (Door.Request), paths relative to the current state
(Request), relative to its ancestors (.Request, ..Request) or from the root
(/Request).

--init-state and --init-vars start hot: at the given state, with the given
variables (all of them), without running any enter action. --from-witness
REPORT.json starts hot from a frame (--frame N, default the last) of the
witness or counterexample of a stateproof bmc --json report, to continue it
by hand; frame 0, before the first cycle, is a cold start with its values.

--json writes the stateproof/simulate/v1 document.

Standard input counts against --max-input-bytes, and a line longer than
1 MiB is refused with its line number. At most --max-cycles cycles run
(default 100000): with more input the run stops there and says so.

Exit status: 0 when every cycle ran, 1 when some cycle raised an error (the
whole trace is still written), 2 for a usage error, an input refused or a
model that does not load or start, 3 when the run stopped at --max-cycles
(not decided: the rest of the input was not run).`,
		Example: `  stateproof simulate examples/fcstm/door.fcstm --events 'Door.Request; ; Door.Opening.Done'
  stateproof simulate door.fcstm --steps steps.json --json
  stateproof simulate door.fcstm --init-state Door.Open --init-vars '{"open_count": 3, "motor": 0, "hold": 0}'
  stateproof bmc door.fcstm -q door-opens.fbmcq --json > w.json; stateproof simulate door.fcstm --from-witness w.json --frame 2
  stateproof simulate door.fcstm`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.eventsSet = cmd.Flags().Changed("events")
			f.frameSet = cmd.Flags().Changed("frame")
			return runSimulate(f, inputReader(cmd), args[0], stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.events, "events", "", "the cycles: `EVENTS` of a cycle separated by \",\", cycles by \";\"")
	fl.StringVar(&f.steps, "steps", "", "read the cycles from `FILE`: a JSON array of arrays of event paths")
	fl.StringVar(&f.initState, "init-state", "", "hot start at `STATE` (a dotted path), without enter actions")
	fl.StringVar(&f.initVars, "init-vars", "", "initial variables as a JSON object (`JSON`); with --init-state, all of them")
	fl.BoolVar(&f.json, "json", false, "write the stateproof/simulate/v1 JSON document")
	fl.StringVar(&f.witness, "from-witness", "", "start hot from a frame of the witness or counterexample in `REPORT.json` (stateproof bmc --json)")
	fl.IntVar(&f.frame, "frame", -1, "with --from-witness: the frame `N` to start from (default: the last)")
	fl.IntVar(&f.maxCycles, "max-cycles", simulate.DefaultMaxCycles, "run at most `N` cycles; with more input the run stops there, exit 3")
	fl.StringVarP(&f.out, "output", "o", "", "write the report to `FILE` (atomically) instead of stdout")
	f.progress.register(cmd)
	return cmd
}

func runSimulate(f simulateFlags, rd input.Reader, path string, stdin io.Reader, stdout, stderr io.Writer) error {
	usage := func(format string, args ...any) error {
		fmt.Fprintf(stderr, "stateproof simulate: "+format+"\n", args...)
		return &exitError{2}
	}
	opts, err := f.options(rd)
	if err != nil {
		return usage("%v", err)
	}
	src, err := f.source(rd)
	if err != nil {
		return usage("%v", err)
	}
	in, isFile := stdin.(*os.File)
	shell := src == nil && isFile && term.IsTerminal(int(in.Fd())) && !f.json && f.out == ""
	// JSON needs every cycle for the one document, the shell its history;
	// text is written as the cycles run, so a long input needs constant
	// memory.
	opts.Forget = !f.json && !shell
	sess, failed, err := startSession(rd, path, opts)
	if failed != nil {
		if f.json {
			return emitSimulate(f, stdout, &simulate.Report{Schema: simulate.Schema, Model: path, Error: failed}, 2)
		}
		return usage("%s", err)
	}
	if err != nil {
		if f.json {
			return emitSimulate(f, stdout, sess.Report(), 2)
		}
		return usage("%s", initErrorText(rd, path, sess.Report().Error))
	}
	if shell {
		return interactive(sess, in, stdout)
	}
	if src == nil {
		src = simulate.NewLineSource(stdin, "standard input", rd.Limit())
	}
	pf := f.progress
	if pf.mode == "auto" && !f.json && f.out == "" {
		pf.mode = "none" // a spinner would cut into the cycles streamed to the terminal
	}
	return pf.run(stderr, "simulating "+path, func(rep progress.Reporter) error {
		if rep != nil {
			src = simulate.Watched(src, nil, rep, f.maxCycles)
		}
		return feedSimulate(f, sess, src, stdout, usage)
	})
}

// feedSimulate runs the cycles of src and writes the report.
func feedSimulate(f simulateFlags, sess *simulate.Session, src simulate.Source, stdout io.Writer, usage func(string, ...any) error) error {
	if f.json {
		if err := sess.Feed(src, f.maxCycles, nil); err != nil {
			return usage("%v", err)
		}
		return emitSimulate(f, stdout, sess.Report(), simulateExit(sess))
	}
	if err := streamText(f, sess, src, stdout); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			return err
		}
		return usage("%v", err)
	}
	return nil
}

// options are the start options the flags give: a hot start from
// --init-state/--init-vars or from a witness frame.
func (f simulateFlags) options(rd input.Reader) (simulate.Options, error) {
	opts := simulate.Options{InitialState: f.initState}
	switch {
	case f.eventsSet && f.steps != "":
		return opts, errors.New("--events and --steps cannot be combined")
	case f.maxCycles < 1:
		return opts, fmt.Errorf("--max-cycles must be an integer >= 1 (got %d)", f.maxCycles)
	case f.witness != "" && (f.initState != "" || f.initVars != ""):
		return opts, errors.New("--from-witness cannot be combined with --init-state or --init-vars")
	case f.witness == "" && f.frameSet:
		return opts, errors.New("--frame needs --from-witness")
	case f.witness != "" && f.frameSet && f.frame < 0:
		return opts, fmt.Errorf("--frame must be an integer >= 0 (got %d)", f.frame)
	case f.witness != "":
		state, vars, err := witnessStart(rd, f.witness, f.frame)
		if err != nil {
			return opts, fmt.Errorf("--from-witness: %w", err)
		}
		opts.InitialState, opts.InitialVars = state, vars
	}
	if f.initVars != "" {
		vars, err := simulate.ParseInitVars([]byte(f.initVars))
		if err != nil {
			return opts, fmt.Errorf("--init-vars: %w", err)
		}
		opts.InitialVars = vars
	}
	return opts, nil
}

// source is where the cycles come from: --events, --steps, or nil for
// standard input.
func (f simulateFlags) source(rd input.Reader) (simulate.Source, error) {
	switch {
	case f.eventsSet:
		cycles, err := simulate.ParseEvents(f.events)
		if err != nil {
			return nil, fmt.Errorf("--events: %w", err)
		}
		return &simulate.SliceSource{Cycles: cycles}, nil
	case f.steps != "":
		data, err := rd.ReadFile(f.steps)
		if err != nil {
			return nil, fmt.Errorf("cannot read --steps: %w", err)
		}
		// Check the whole file first (one pass, nothing kept), so that a
		// wrong file is refused before any cycle runs.
		check := simulate.NewStepsSource(data)
		check.Name = "--steps " + f.steps
		for {
			_, ok, err := check.Next()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
		}
		src := simulate.NewStepsSource(data)
		src.Name = check.Name
		return src, nil
	}
	return nil, nil
}

// streamText runs the cycles writing each as it ends; the error is the
// input's (the trace so far is on stdout; a file is not written) or the
// exit status.
func streamText(f simulateFlags, sess *simulate.Session, src simulate.Source, stdout io.Writer) error {
	out, err := openStream(f.out, stdout)
	if err != nil {
		return err
	}
	tw := simulate.NewTextWriter(out)
	tw.Start(sess.Report())
	if err := sess.Feed(src, f.maxCycles, tw.Cycle); err != nil {
		out.abort()
		return err
	}
	tw.End(sess.Report())
	if err := out.commit(); err != nil {
		return err
	}
	if code := simulateExit(sess); code != 0 {
		return &exitError{code}
	}
	return nil
}

// startSession loads the model (FCSTM by its extension, else a JSON
// model) and starts it. failed is set, with the text of err, when the
// model does not load; a start failure is the session report's error.
func startSession(rd input.Reader, path string, opts simulate.Options) (*simulate.Session, *simulate.ErrorReport, error) {
	if isFCSTM(path) {
		m, err := model.LoadWith(path, model.ReaderOptions(rd))
		if err != nil {
			return nil, simulate.LoadError(err), errors.New(loadErrorText(err))
		}
		sess, err := simulate.Start(m, path, opts)
		return sess, nil, err
	}
	res, ref := readModel(rd, path, "")
	if ref != nil {
		return nil, &simulate.ErrorReport{Class: "parse", Message: ref.msg}, errors.New(ref.msg)
	}
	if !res.Valid() {
		msg := fmt.Sprintf("%s is not a valid model: %s", path, strings.Join(res.Errors, "; "))
		return nil, &simulate.ErrorReport{Class: "validation", Message: msg}, errors.New(msg)
	}
	sess, err := simulate.StartJSON(res.Model, path, opts)
	return sess, nil, err
}

// simulateExit is 1 when some cycle raised, else 3 when the run stopped at
// its cap (the rest of the input was not run: nothing is claimed), else 0.
func simulateExit(sess *simulate.Session) int {
	switch {
	case sess.Failed():
		return 1
	case sess.Report().Stopped != nil:
		return 3
	}
	return 0
}

// emitSimulate writes the report as JSON or text and exits with code.
func emitSimulate(f simulateFlags, stdout io.Writer, rep *simulate.Report, code int) error {
	var buf bytes.Buffer
	if f.json {
		data, err := rep.Marshal()
		if err != nil {
			return err
		}
		buf.Write(data)
	} else {
		simulate.NewTextWriter(&buf).Report(rep)
	}
	if err := writeOutput(f.out, stdout, buf.Bytes()); err != nil {
		return err
	}
	if code != 0 {
		return &exitError{code}
	}
	return nil
}

// initErrorText renders a failure to start: at the declaration whose
// initial value has none, with its source line and a caret; a hot start's
// failure (no location) names the options it came from.
func initErrorText(rd input.Reader, path string, e *simulate.ErrorReport) string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: cannot start: %s (--init-state, --init-vars)", path, e.Message)
	}
	text := fmt.Sprintf("%s:%d:%d: cannot start: %s", e.File, e.Line, e.Col, e.Message)
	data, err := rd.ReadFile(e.File)
	if err != nil {
		return text
	}
	src, start := string(data), 0
	for range e.Line - 1 { // lines end as the JSON parser counts them
		end := lineend.LineEnd(src, start)
		if end == len(src) {
			return text
		}
		start = end + lineend.Len(src, end)
	}
	off := start
	for range e.Col - 1 {
		if off >= lineend.LineEnd(src, start) {
			break
		}
		_, n := utf8.DecodeRuneInString(src[off:])
		off += n
	}
	return text + "\n    " + strings.ReplaceAll(ast.Snippet(src, off), "\n", "\n    ")
}

// loadErrorText renders a load failure with its source line and caret.
func loadErrorText(err error) string { return (&fcstmfront.LoadError{Err: err}).Error() }

// interactive runs the shell on a terminal put in raw mode.
func interactive(sess *simulate.Session, in *os.File, stdout io.Writer) error {
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return fmt.Errorf("cannot use the terminal: %w", err)
	}
	defer term.Restore(int(in.Fd()), state)
	return shellLoop(sess, struct {
		io.Reader
		io.Writer
	}{in, stdout})
}

// shellLoop runs the shell with a line editor (history, Tab completion of
// event names) over a raw terminal's input and output.
func shellLoop(sess *simulate.Session, rw io.ReadWriter) error {
	t := term.NewTerminal(rw, "")
	sh := simulate.NewShell(sess, t)
	t.AutoCompleteCallback = sh.Complete
	for {
		t.SetPrompt(sh.Prompt())
		line, err := t.ReadLine()
		if err != nil || sh.Line(line) {
			break // io.EOF is Ctrl-D
		}
	}
	if sess.Failed() {
		return &exitError{1}
	}
	return nil
}

// stream is the text output of a run, written as it goes: to stdout, or
// to a temporary file renamed onto --output only when the run completes.
type stream struct {
	*bufio.Writer
	tmp  *os.File
	path string
}

func openStream(path string, stdout io.Writer) (*stream, error) {
	if path == "" {
		return &stream{Writer: bufio.NewWriter(stdout)}, nil
	}
	tmp, err := createSibling(path)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &stream{Writer: bufio.NewWriter(tmp), tmp: tmp, path: path}, nil
}

// commit flushes the output and, for a file, syncs and renames it.
func (s *stream) commit() error {
	err := s.Flush()
	if s.tmp == nil {
		return err
	}
	defer os.Remove(s.tmp.Name())
	if err == nil {
		err = s.tmp.Sync()
	}
	if cerr := s.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(s.tmp.Name(), s.path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}

// abort ends an output whose run failed: what went to stdout stays (it
// is the trace up to the failure); a file is not written.
func (s *stream) abort() {
	if s.tmp == nil {
		s.Flush()
		return
	}
	s.tmp.Close()
	os.Remove(s.tmp.Name())
}
