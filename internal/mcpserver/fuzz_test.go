package mcpserver

import (
	"context"
	"encoding/json"
	"testing"
)

// FuzzToolArguments: any JSON arguments to any tool give a result or a
// tool error, never a panic. bmc runs Z3, so its budget is kept small.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []struct {
		tool byte
		args string
	}{
		{0, `{"path":"examples/order.json"}`},
		{0, `{"path":"examples/order.json","maxStates":0}`},
		{0, `{"path":"examples/order.json","maxStates":1e12}`},
		{0, `{"model":{"schemaVersion":1,"init":"A","states":[{"id":"A"}],"transitions":[]}}`},
		{0, `{"model":{"schemaVersion":1},"path":"x"}`},
		{0, `{"model":"not an object"}`},
		{0, `{"path":"examples/compare/rename-after.json","beforeModel":{"path":"examples/compare/rename-before.json"},"stateMapping":{"A":"B"}}`},
		{0, `{"path":"../../../etc/passwd"}`},
		{1, `{"machines":[{"path":"examples/compose/producer.json"},{"path":"examples/compose/consumer.json"}],"rendezvous":["put"]}`},
		{1, `{"machines":[],"maxStates":-1}`},
		{2, `{"path":"examples/order.json","query":"check reach <= 2: active(\"PAID\");","timeoutMs":2000}`},
		{2, `{"path":"examples/order.json","query":"check reach <= 2: active(\"PAID\");","timeoutMs":0}`},
		{2, `{"path":"examples/order.json","query":"check","explain":"proof"}`},
		{2, `{"path":"examples/fcstm/door.fcstm","query":"check reach <= 3: active(\"Door.Open\");"}`},
		{2, `{"model":"state R { state A; [*] -> A; }","format":"fcstm","query":"check reach <= 1: true;"}`},
		{2, `{"model":"state R { import \"../x.fcstm\" as X; }","format":"fcstm","query":"check reach <= 1: true;"}`},
		{2, `{"model":{"schemaVersion":1},"format":"fcstm","query":"check reach <= 1: true;"}`},
	} {
		f.Add(s.tool, []byte(s.args))
	}
	s := &server{cfg: Config{Files: repoFiles(f)}}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, tool byte, args []byte) {
		switch tool % 3 {
		case 0:
			var in VerifyInput
			if json.Unmarshal(args, &in) == nil {
				if in.MaxStates == nil || *in.MaxStates > 2000 {
					n := 2000 // keep each run short
					in.MaxStates = &n
				}
				s.verifyTool(ctx, nil, in)
			}
		case 1:
			var in ComposeInput
			if json.Unmarshal(args, &in) == nil {
				if in.MaxStates == nil || *in.MaxStates > 2000 {
					n := 2000
					in.MaxStates = &n
				}
				s.composeTool(ctx, nil, in)
			}
		default:
			var in BMCInput
			if json.Unmarshal(args, &in) == nil {
				if in.TimeoutMS == nil || *in.TimeoutMS > 2000 {
					n := 2000
					in.TimeoutMS = &n
				}
				s.bmcTool(ctx, nil, in)
			}
		}
	})
}
