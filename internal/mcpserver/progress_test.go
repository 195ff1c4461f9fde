package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/gen"
)

// notes are the progress notifications a client received.
type notes struct {
	mu   sync.Mutex
	list []*mcp.ProgressNotificationParams
}

func (n *notes) add(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	n.mu.Lock()
	n.list = append(n.list, req.Params)
	n.mu.Unlock()
}

func (n *notes) take() []*mcp.ProgressNotificationParams {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.list
	n.list = nil
	return out
}

// connectTracked connects a client that keeps its progress notifications
// to a server rooted at the repository whose engine tools report their
// return on the channel.
func connectTracked(t *testing.T, every time.Duration) (*mcp.ClientSession, *notes, chan returned) {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ret := make(chan returned, 16)
	srv := &server{cfg: Config{Files: servedFiles(t, dir), ProgressEvery: every},
		returned: func(tool string, err error) { ret <- returned{tool, err, time.Now()} }}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := newServer("test", srv).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	n := &notes{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, &mcp.ClientOptions{ProgressNotificationHandler: n.add}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, n, ret
}

type returned struct {
	tool string
	err  error
	at   time.Time
}

// longRuns are calls of each engine tool that run for a long time: far
// longer than the tests wait for them.
func longRuns() map[string]map[string]any {
	return map[string]map[string]any{
		// 10^8 states at about a million a second
		"verify": {"model": rawModel(gen.Counter(100_000_000)), "maxStates": 100_000_000},
		// the product of two 10^4-state counters
		"compose": {"machines": []any{map[string]any{"model": rawModel(gen.Counter(10_000))}, map[string]any{"model": rawModel(gen.Counter(10_000))}}, "maxStates": 100_000_000},
		// many seconds of unrolling alone
		"bmc": {"path": "examples/order.json", "query": `check reach <= 3000: active("DONE") && retry == 99;`, "timeoutMs": 120000},
		// false only beyond 100000 retries: no layer decides it within the budget
		"prove": {"path": "bench/retry-unbounded.json", "rsc": `rsc "WAIT": retry <= 100000 || backoff != 2 * retry;`, "timeoutMs": 120000},
		// the most cycles a run takes, each reported
		"simulate": {"path": "examples/fcstm/door.fcstm", "cycles": emptyCycles(100_000)},
	}
}

// emptyCycles is n cycles without events.
func emptyCycles(n int) [][]string {
	out := make([][]string, n)
	for i := range out {
		out[i] = []string{}
	}
	return out
}

// rawModel is a model's text as the JSON value a client sends inline.
func rawModel(src string) any {
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		panic(err)
	}
	return v
}

// A call with a progress token gets notifications/progress with that
// token while it runs, their progress growing, their message what the
// engine is at; a call without one gets none.
// Each call runs for tens of milliseconds at least, many of the 1 ms
// ticks: simulate's 3,000 cycles once ended before the first notification
// on a loaded CI run, and now runs 30,000 (compose: 700 × 700 states).
func TestProgressNotifications(t *testing.T) {
	cs, n, _ := connectTracked(t, time.Millisecond)
	calls := map[string]struct {
		args map[string]any
		says string
	}{
		"verify":   {map[string]any{"model": rawModel(gen.Counter(300_000)), "maxStates": 1_000_000}, "states stored"},
		"compose":  {map[string]any{"machines": []any{map[string]any{"model": rawModel(gen.Counter(700))}, map[string]any{"model": rawModel(gen.Counter(700))}}, "maxStates": 1_000_000}, "states stored"},
		"bmc":      {map[string]any{"path": "examples/order.json", "query": `check reach <= 40: active("DONE") && retry == 99;`}, "bound"},
		"prove":    {map[string]any{"path": "bench/retry-unbounded.json", "rsc": `rsc "WAIT": retry <= 100000 || backoff != 2 * retry;`, "timeoutMs": 500}, "layer"},
		"simulate": {map[string]any{"path": "examples/fcstm/door.fcstm", "cycles": emptyCycles(30000)}, "cycle"},
	}
	for tool, c := range calls {
		p := &mcp.CallToolParams{Name: tool, Arguments: c.args}
		p.SetProgressToken("tok-" + tool)
		res, err := cs.CallTool(context.Background(), p)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", tool, err, res)
		}
		got := n.take()
		if len(got) == 0 {
			t.Errorf("%s: no progress notification", tool)
			continue
		}
		last := -1.0
		for _, g := range got {
			if g.ProgressToken != "tok-"+tool || g.Progress <= last || !strings.Contains(g.Message, c.says) {
				t.Errorf("%s: notification %+v (progress before %v)", tool, g, last)
			}
			last = g.Progress
		}
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: c.args}); err != nil {
			t.Fatal(err)
		}
		// A notification of the first call may still be in flight (the
		// transport does not order it before that call's result): only
		// one that does not carry the first call's token counts.
		for _, g := range n.take() {
			if g.ProgressToken != "tok-"+tool {
				t.Errorf("%s without a progress token: notification %+v", tool, g)
			}
		}
	}
}

// notifications/cancelled stops a run: the handler returns with the
// cancellation within 2 s, long before the run could have finished, and
// the server answers the next request.
func TestCancelStopsLongRuns(t *testing.T) {
	cs, _, ret := connectTracked(t, time.Second)
	for tool, args := range longRuns() {
		t.Run(tool, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
				errc <- err
			}()
			time.Sleep(500 * time.Millisecond)
			select {
			case r := <-ret:
				t.Fatalf("%s returned before it was cancelled: %v", r.tool, r.err)
			default:
			}
			cancel()
			cancelled := time.Now()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("the client's call: %v", err)
			}
			select {
			case r := <-ret:
				if r.tool != tool || !errors.Is(r.err, context.Canceled) {
					t.Errorf("returned %s with %v, want %s with context.Canceled", r.tool, r.err, tool)
				}
				if d := r.at.Sub(cancelled); d > 2*time.Second {
					t.Errorf("%s stopped %v after the cancellation", tool, d)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still runs 10 s after the cancellation", tool)
			}
			start := time.Now()
			out, _ := call(t, cs, "verify", map[string]any{"path": "examples/order.json"})
			if out["verdict"] == nil || time.Since(start) > 2*time.Second {
				t.Errorf("the next request: %v after %v", out["verdict"], time.Since(start))
			}
			<-ret // the verify call
		})
	}
}
