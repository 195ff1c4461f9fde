package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/simulate"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/input"
)

type simulateFlags struct {
	events    string
	eventsSet bool // --events was given, maybe empty (one cycle without events)
	steps     string
	initState string
	initVars  string
	json      bool
	out       string
}

func newSimulateCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f simulateFlags
	cmd := &cobra.Command{
		Use:   "simulate MODEL.fcstm",
		Short: "Run an FCSTM model cycle by cycle and show what happens",
		Long: `simulate runs an FCSTM model one cycle at a time (docs/fcstm.md, "The runtime
cycle") and shows, for every cycle, the state reached, the variables that
changed and the actions executed, with the abstract calls and their context.

The cycles come from --events (cycles separated by ";", the events of a cycle
by ","; an empty cycle has no event), from --steps (a JSON array of arrays of
event paths), or from standard input, one cycle per line. When standard input
is a terminal and neither option is given, simulate is interactive: type the
events of each cycle, "help" for help; Tab completes event names.

Events are full paths (Door.Request), paths relative to the current state
(Request), relative to its ancestors (.Request, ..Request) or from the root
(/Request).

--init-state and --init-vars start hot: at the given state, with the given
variables (all of them), without running any enter action.

--json writes the stateproof/simulate/v1 document.

Exit status: 0 when every cycle ran, 1 when some cycle raised an error (the
whole trace is still written), 2 for a usage error or a model that does not
load.`,
		Example: `  stateproof simulate examples/fcstm/door.fcstm --events 'Door.Request; ; Door.Opening.Done'
  stateproof simulate door.fcstm --steps steps.json --json
  stateproof simulate door.fcstm --init-state Door.Open --init-vars '{"open_count": 3, "motor": 0, "hold": 0}'
  stateproof simulate door.fcstm`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.eventsSet = cmd.Flags().Changed("events")
			return runSimulate(f, inputReader(cmd), args[0], stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.events, "events", "", "the cycles: `EVENTS` of a cycle separated by \",\", cycles by \";\"")
	fl.StringVar(&f.steps, "steps", "", "read the cycles from `FILE`: a JSON array of arrays of event paths")
	fl.StringVar(&f.initState, "init-state", "", "hot start at `STATE` (a dotted path), without enter actions")
	fl.StringVar(&f.initVars, "init-vars", "", "initial variables as a JSON object (`JSON`); with --init-state, all of them")
	fl.BoolVar(&f.json, "json", false, "write the stateproof/simulate/v1 JSON document")
	fl.StringVarP(&f.out, "output", "o", "", "write the report to `FILE` (atomically) instead of stdout")
	return cmd
}

func runSimulate(f simulateFlags, rd input.Reader, path string, stdin io.Reader, stdout, stderr io.Writer) error {
	usage := func(format string, args ...any) error {
		fmt.Fprintf(stderr, "stateproof simulate: "+format+"\n", args...)
		return &exitError{2}
	}
	if f.eventsSet && f.steps != "" {
		return usage("--events and --steps cannot be combined")
	}
	var opts simulate.Options
	opts.InitialState = f.initState
	if f.initVars != "" {
		vars, err := simulate.ParseInitVars([]byte(f.initVars))
		if err != nil {
			return usage("--init-vars: %v", err)
		}
		opts.InitialVars = vars
	}
	var cycles [][]string
	var err error
	switch {
	case f.eventsSet:
		if cycles, err = simulate.ParseEvents(f.events); err != nil {
			return usage("--events: %v", err)
		}
	case f.steps != "":
		data, err := rd.ReadFile(f.steps)
		if err != nil {
			return usage("cannot read --steps: %v", err)
		}
		if cycles, err = simulate.ParseSteps(data); err != nil {
			return usage("--steps %s:%v", f.steps, err)
		}
	}
	m, err := model.LoadWith(path, model.ReaderOptions(rd))
	if err != nil {
		if f.json {
			return emitSimulate(f, stdout, &simulate.Report{Schema: simulate.Schema, Model: path, Error: simulate.LoadError(err)}, 2)
		}
		return usage("%s", loadErrorText(err))
	}
	sess, err := simulate.Start(m, path, opts)
	if err != nil {
		if f.json {
			return emitSimulate(f, stdout, sess.Report(), 2)
		}
		return usage("%s: %v", path, err)
	}
	if !f.eventsSet && f.steps == "" {
		if in, ok := stdin.(*os.File); ok && term.IsTerminal(int(in.Fd())) && !f.json && f.out == "" {
			return interactive(sess, in, stdout)
		}
		if cycles, err = readCycleLines(stdin); err != nil {
			return usage("reading cycles from standard input: %v", err)
		}
	}
	for _, c := range cycles {
		sess.Step(c)
	}
	code := 0
	if sess.Failed() {
		code = 1
	}
	return emitSimulate(f, stdout, sess.Report(), code)
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

// loadErrorText renders a load failure with its source line and caret.
func loadErrorText(err error) string { return (&fcstmfront.LoadError{Err: err}).Error() }

// readCycleLines reads one cycle per line (events separated by commas or
// spaces), as the interactive mode does, without a prompt.
func readCycleLines(r io.Reader) ([][]string, error) {
	var out [][]string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		out = append(out, simulate.SplitLine(sc.Text()))
	}
	return out, sc.Err()
}

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
