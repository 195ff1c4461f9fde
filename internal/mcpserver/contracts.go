package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/stateproof/stateproof/schemas"
)

// instructions tell an agent which tool answers which question.
const instructions = `stateproof checks state machines and answers with evidence. Pick the tool by the question:
- "Is this model well-formed, live, deterministic, safe?" -> verify (S1-S8, A1-A15, A15 only with an ltl invariant; findings carry the shortest path). With beforeModel: "did my change break behaviour?" (D1-D4).
- "Do these machines deadlock when run together?" -> compose (C1, C2).
- "Can X happen within N steps? Must it?" -> bmc with an FBMCQ query (reach, cover, exists_always, forbid, invariant, must_reach, response); "do the model's own invariants hold to depth N?" -> bmc with bound. The model is JSON or FCSTM (path .fcstm, or source text with format fcstm); a witness is replayed on the model's own runtime (replay.ok).
- "Does this per-state invariant hold on every execution, however long?" -> prove (the model's never-states/var-in-range invariants, or rsc statements); a proof comes with a re-checked certificate.
- "What looks wrong in this FCSTM model's design (unreachable states, unused events or variables, constant guards, self-assignments)?" -> inspect (pyfcstm's diagnostic codes, with spans and refs).
- "What does this FCSTM model do, cycle by cycle, for these events?" -> simulate (states, variables, actions and abstract calls per cycle).
- "Give me code that runs this model exactly as verified" -> generate (target c, go, python or typescript; the files by path; written only with outDir, a new directory).
Every other result is a report contract with a "schema" field. A finding or outcome that is undecided (*_UNDECIDED, unknown, timeout, incomplete, scenario_infeasible) means not decided: never report it as a pass.`

// contract is the output schema of a tool: the embedded JSON Schema of the
// report contract it returns (stateproof schema NAME prints the same bytes).
func contract(name string) json.RawMessage {
	data, ok := schemas.Get(name)
	if !ok {
		panic(fmt.Sprintf("mcpserver: no schema %q", name))
	}
	return data
}
