package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// Config is one worker's part of a partitioned search.
type Config struct {
	// Index is this worker's (0 assembles the report), Peers every
	// worker's host:port, by index (Peers[Index] is this one's).
	Index int
	Peers []string
	// Listener, when set, is where this worker serves (a local partition
	// opens it on port 0 first); otherwise it listens on Peers[Index]'s
	// port on every interface.
	Listener net.Listener
	// Token is the shared secret every call carries; a call without it is
	// refused.
	Token []byte
	TLS   *TLSFiles
	// PeerTimeout bounds every call and how long a worker waits without
	// word from worker 0; StartTimeout how long worker 0 waits for every
	// peer to answer at the start (workers start at different times), and
	// a worker for worker 0's first call.
	PeerTimeout, StartTimeout time.Duration
	// Version is the build every worker must run (their words must mean
	// the same); ModelHash the model every worker must have.
	Version, ModelHash string
	// Log receives progress lines (nil: none).
	Log io.Writer
	// Summarize, on worker 0, gathers no state: Result.Graph is nil and
	// Result.Summary says what the exploration reached. Worker 0 then
	// holds its own states and the report, not the whole graph, for
	// checks that read no more than a Summary (the others need the
	// graph: gather it).
	Summarize bool
	// Probes are tests of one state (root: it is the initial state) that
	// every owner runs over its own states when worker 0 summarizes; for
	// each, Summary.Hits has the least state where it holds, with its
	// words and its path. Every worker must have the same probes.
	Probes []func(words []int64, root bool) bool
	// Marks, when worker 0 summarizes, names what one state shows, by
	// keys that mean the same in every process (a leaf's name, an
	// error's text: a format whose word 0 is numbered per process has no
	// portable location): each owner calls it over its own states in
	// increasing global order, once each (it may keep what it learnt),
	// and reports per key the least global index that showed it. Path
	// asks worker 0 to fetch that state's words and path too.
	Marks func(words []int64, root bool, mark func(key string, path bool))
	// Spill, when set, is this worker's memory budget: the states it owns
	// are kept in a spilling store (explore.NewSpillingStore) that holds
	// about Spill.Memory bytes and writes the rest to Spill.Dir, which is
	// this worker's own. Without it a worker keeps its states in memory.
	Spill *explore.Spill
}

// Result is what a partitioned search produced.
type Result struct {
	// Graph is the plain exploration on worker 0 (nil on the others): the
	// graph the one-process breadth-first search builds, node for node.
	Graph *explore.Graph
	// Summary is, with Config.Summarize, what worker 0 keeps of the
	// exploration instead of Graph.
	Summary *Summary
	// Levels is the number of breadth-first levels expanded; BytesSent
	// the bytes of messages every worker sent (worker 0 only).
	Levels    int
	BytesSent int64
	// Explore is the wall time of the distributed levels, Gather of
	// assembling the graph, or the summary, on worker 0.
	Explore, Gather time.Duration
}

// Summary is what a partitioned exploration reached, kept on worker 0
// instead of the graph: it does not grow with the state space beyond the
// locations the model has.
type Summary struct {
	// Len is the number of states explored, Expanded how many of them
	// (the first, in global order) were expanded; Truncated says the cap
	// Cap stopped the search, as in explore.Graph.
	Len, Expanded, Cap int
	Truncated          bool
	// First holds, for every location (word 0 of a state, the declared
	// state of a JSON model) some explored state is in, the least global
	// index of one: each owner reports its own, worker 0 keeps the least.
	First map[int]int
	// Hits holds, per probe of Config.Probes, the least state (in global
	// order: the nearest to the root) where it holds, if any.
	Hits []Hit
	// Marks holds, per key of Config.Marks some state showed, the least
	// such state: its Index, and its Words and Path when asked for.
	Marks map[string]Hit
}

// Hit is the least state where a probe holds: Index is -1 when it holds
// nowhere; else Words are the state's, Path the step labels from the
// root to it (its canonical parents, followed across owners).
type Hit struct {
	Index int
	Words []int64
	Path  []int
}

// Error is a run that did not complete: a worker died, did not answer in
// time, refused the token or disagreed on the plan. Nothing it explored
// may be reported as a result: the caller reports undecided with Reason.
type Error struct{ Reason string }

func (e *Error) Error() string { return "partitioned search undecided: " + e.Reason }

// Run runs this worker of a partitioned search of mc's plain exploration
// (Cap cap) until its part ends: on worker 0 the exploration is settled
// and returned; on the others Run returns when worker 0 releases them.
// Any failure is an *Error, on every worker that survives it. Any model
// format whose machine is concrete.Portable can be searched so.
func Run(ctx context.Context, cfg Config, mc concrete.Portable, cap int) (*Result, error) {
	n := len(cfg.Peers)
	if n < 1 || cfg.Index < 0 || cfg.Index >= n {
		return nil, fmt.Errorf("worker %d of %d peers", cfg.Index, n)
	}
	if len(cfg.Token) == 0 {
		return nil, errors.New("a partitioned search needs a shared token (--token-file)")
	}
	lis := cfg.Listener
	if lis == nil {
		_, port, err := net.SplitHostPort(cfg.Peers[cfg.Index])
		if err != nil {
			return nil, fmt.Errorf("peer %d %q: %v", cfg.Index, cfg.Peers[cfg.Index], err)
		}
		if lis, err = net.Listen("tcp", ":"+port); err != nil {
			return nil, err
		}
	}
	sent := new(atomic.Int64)
	w, err := newWorker(plan{index: cfg.Index, count: n, modelHash: cfg.ModelHash, version: cfg.Version, cap: cap, peerTimeout: cfg.PeerTimeout}, mc, sent, cfg.Spill)
	if err != nil {
		lis.Close()
		return nil, err
	}
	w.probes, w.marks = cfg.Probes, cfg.Marks
	// Every peer before serving: a call may come as soon as it serves.
	for i, addr := range cfg.Peers {
		if i == cfg.Index {
			w.peers = append(w.peers, self{w.answer}) // not counted as sent: no network
			continue
		}
		p, err := dial(addr, cfg.Token, cfg.TLS, sent)
		if err != nil {
			lis.Close()
			return nil, err
		}
		defer p.close()
		w.peers = append(w.peers, p)
	}
	srv, err := newServer(lis, w.handle, cfg.Token, cfg.TLS)
	if err != nil {
		lis.Close()
		return nil, err
	}
	defer stopServer(srv)
	if cfg.Index == 0 {
		c := &coordinator{w: w, cfg: cfg, cap: cap}
		res, err := c.run(ctx)
		if err != nil {
			c.abortAll(err)
			return nil, err
		}
		return res, nil
	}
	return nil, w.serve(ctx, cfg)
}

// serve waits for worker 0 to release this worker, and gives up when it
// has not called for PeerTimeout (StartTimeout before its first call).
func (w *worker) serve(ctx context.Context, cfg Config) error {
	started := time.Now()
	tick := time.NewTicker(min(cfg.PeerTimeout/4, 250*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case err := <-w.finish:
			if err != nil {
				return &Error{err.Error()}
			}
			return nil
		case <-ctx.Done():
			return &Error{"cancelled"}
		case <-tick.C:
			last := w.lastWord.Load()
			switch {
			case last == 0 && time.Since(started) > cfg.StartTimeout:
				return &Error{fmt.Sprintf("worker %d: no call from worker 0 (%s) within %s of the start", w.plan.index, cfg.Peers[0], cfg.StartTimeout)}
			case last != 0 && time.Since(time.Unix(0, last)) > cfg.PeerTimeout:
				return &Error{fmt.Sprintf("worker %d: no word from worker 0 (%s) for %s", w.plan.index, cfg.Peers[0], cfg.PeerTimeout)}
			}
		}
	}
}

// stopServer lets the calls in flight (the Release being answered)
// finish, but not for long.
func stopServer(s *grpc.Server) {
	done := make(chan struct{})
	go func() {
		s.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		s.Stop()
	}
}

// describe says what a failed call means, for a reason line.
func describe(err error, timeout time.Duration) string {
	switch status.Code(err) {
	case codes.DeadlineExceeded:
		return fmt.Sprintf("no answer within %s", timeout)
	case codes.Unavailable:
		return "unreachable (" + status.Convert(err).Message() + ")"
	case codes.Unknown:
		return status.Convert(err).Message()
	}
	return err.Error()
}
