package generate

import (
	"fmt"
	"path"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// readme writes the module's README.md: how to embed it, with a
// TypeScript program using it, and the model's states, events, variables
// and abstract actions by name (the tables are the Python target's: the
// constants have the same names).
func (g *tsGen) readme(opts Options) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Module %s\n\n", opts.Name)
	readmeProvenance(&b, "typescript", path.Base(g.m.File))
	b.WriteString(" It is one ES2020 module that compiles under\n`tsc --strict` and needs no package at run time.\n\n")
	fmt.Fprintf(&b, "## Embedding\n\nCopy `%s.ts` next to your code.\n\n```ts\n%s```\n\n", opts.Name, g.snippet(opts.Name))
	b.WriteString(tsReadmeAPI)
	g.pyReadmeModel(&b)
	if opts.Driver {
		fmt.Fprintf(&b, tsReadmeDriver, opts.ModelName)
	}
	return []byte(b.String())
}

// snippet is a program using the module: hooks for the abstract actions,
// a cold start, cycles, errors and a hot start.
func (g *tsGen) snippet(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import * as fsm from \"./%s.js\";\n\n", name)
	b.WriteString("// A hook implements an abstract action; one that is missing is a no-op.\nconst hooks: Record<string, fsm.Hook> = {\n")
	for _, a := range g.abstracts() {
		fmt.Fprintf(&b, "  %s: (call) => console.log(call.action, call.stage, call.state, call.vars),\n", tsQuote(a.Path))
	}
	b.WriteString("};\nconst m = new fsm.Machine({ hooks }); // a cold start\n")
	g.names = idents{}
	events := "[], []"
	if len(g.events) > 0 {
		events = fmt.Sprintf("[], [%s], []", "fsm."+g.pyConst("EVENT", g.events[0]))
	}
	fmt.Fprintf(&b, "for (const events of [%s]) {\n  try {\n    m.cycle(events);\n  } catch (e) {\n", events)
	b.WriteString("    // The failed cycle changed nothing: m is as it was before it.\n")
	b.WriteString("    if (e instanceof fsm.MachineError) {\n      console.log(`cycle failed (${e.cls}): ${e}`);\n      break;\n    }\n    throw e;\n  }\n")
	b.WriteString("  console.log(m.state, m.ended, m.vars);\n}\n")
	if s := g.hotState(); s != nil {
		b.WriteString("// A hot start: a state, and a value for every variable (int: bigint, float: number).\n")
		var vars []string
		for _, v := range g.m.Vars {
			val := "0n"
			if v.Type == model.Float {
				val = "0.0"
			}
			vars = append(vars, fmt.Sprintf("%s: %s", tsQuote(v.Name), val))
		}
		fmt.Fprintf(&b, "const h = new fsm.Machine({ initialState: %s, initialVars: { %s }, hooks });\nconsole.log(h.state);\n", tsQuote(s.Path), strings.Join(vars, ", "))
	}
	return b.String()
}

const tsReadmeAPI = "## API\n\n" +
	"- `new Machine({initialState, initialVars, hooks})` (every field optional): a cold\n" +
	"  start (the variables' initialisers; the first cycle enters the initial states), or\n" +
	"  with `initialState` (a state path) and `initialVars` (every variable: a `bigint` for\n" +
	"  an int, a `number` for a float) a hot start at that state.\n" +
	"- `cycle(events)` runs one cycle with the given input events (full paths as the\n" +
	"  `EVENT_…` constants give them, `/a.b` from the root, `.x` relative to the current\n" +
	"  state); `step(events)` also returns what the cycle did (a `Trace`).\n" +
	"- `state` is the current state's path (the root before the first cycle of a cold\n" +
	"  start, `\"\"` once ended), `ended` whether the machine terminated, `vars` the\n" +
	"  variables by name in declaration order (`VAR_NAMES`), a frozen object.\n" +
	"- `hooks` implements abstract actions, by action path: a `Hook` called with a `Call`\n" +
	"  (`action`, `stage`, `role`, `state`, `activeLeaf`, `namedRef`, and `vars`, frozen).\n" +
	"  Hooks run after the cycle's search, in call order, before the cycle commits; an\n" +
	"  exception fails the cycle (class `handler`).\n" +
	"- A failure throws `MachineError` with `cls` `init`, `event`, `expression`,\n" +
	"  `writeback`, `handler` or `limit`, its `message` and the model position (`file`,\n" +
	"  `line`, `col`). **A cycle that fails leaves the machine unchanged.**\n" +
	"- Integers are `bigint`s (mathematical, as the runtime's, bounded at 65,536 bits as\n" +
	"  the runtime bounds them); floats are `number`s computed bit for bit as the runtime\n" +
	"  computes them (`**` is Go's `math.Pow` reproduced, not `Math.pow`).\n" +
	"- A `Machine` is not safe for concurrent use (nor re-entrant from a hook).\n\n"

const tsReadmeDriver = "## The driver\n\n" +
	"`./run --steps STEPS.json [--init-state S --init-vars JSON]` compiles `driver.ts` and the\n" +
	"module with `tsc` (`$TSC`, or `tsc` on `PATH`) into `.build/` when a source changed,\n" +
	"then runs the driver with `node`. STEPS.json is a list of cycles, each a list of events\n" +
	"(`[[], [\"Root.Go\"]]`). It prints the `stateproof/simulate/v1` document that\n" +
	"`stateproof simulate %s --steps STEPS.json --json` prints for the same run, byte for\n" +
	"byte, and exits as `simulate` does: 0, 1 when a cycle failed, 2 when the machine does\n" +
	"not start, 3 at the 100,000-cycle cap. stateproof's tests use it to check this module\n" +
	"against the runtime.\n"
