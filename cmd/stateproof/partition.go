package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/cluster"
	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/lineend"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/spill"
	"github.com/stateproof/stateproof/internal/verify"
)

// partitionFlags are the flags of one worker of a partitioned search.
type partitionFlags struct {
	share, peers, peersFile, peersDNS, tokenFile string
	tls                                          cluster.TLSFiles
	peerTimeout, startTimeout                    time.Duration
	local                                        int
	localChild, gather                           bool
}

func (p *partitionFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&p.share, "partition", "", "run worker `I/N` of a partitioned exhaustive search (I or N may be auto: from JOB_COMPLETION_INDEX or SLURM_PROCID, and SLURM_NTASKS or the peer count); worker 0 writes the report")
	f.StringVar(&p.peers, "peers", "", "every worker's `HOST:PORT`, comma-separated, by index (with --partition)")
	f.StringVar(&p.peersFile, "peers-file", "", "read the peers from `FILE`, one HOST:PORT a line (# comments)")
	f.StringVar(&p.peersDNS, "peers-dns", "", "peer `PATTERN` with {i} for the index, e.g. sp-{i}.sp.default.svc:7070 (Kubernetes Indexed Job + headless Service)")
	f.StringVar(&p.tokenFile, "token-file", "", "shared secret every worker must present (required with --partition; `FILE`)")
	f.StringVar(&p.tls.Cert, "tls-cert", "", "this worker's TLS certificate (`PEM`; with --tls-key and --tls-ca: mutual TLS)")
	f.StringVar(&p.tls.Key, "tls-key", "", "this worker's TLS key (`PEM`)")
	f.StringVar(&p.tls.CA, "tls-ca", "", "the CA (`PEM`) that signed every worker's certificate")
	f.DurationVar(&p.peerTimeout, "peer-timeout", 5*time.Second, "undecided when a peer does not answer a call, or worker 0 is silent, for this long")
	f.DurationVar(&p.startTimeout, "start-timeout", time.Minute, "how long workers wait for each other at the start")
	f.IntVar(&p.local, "local-partitions", 0, "run a partitioned search over `N` child processes on 127.0.0.1 (tests, big hosts)")
	f.BoolVar(&p.gather, "gather", false, "worker 0 holds the graph: gather every worker's states so that the checks that need the whole graph (event-before-state, A9–A15, deadlines) are decided, at the memory of one process (docs/scale.md)")
	f.BoolVar(&p.localChild, "local-child", false, "internal: a child of --local-partitions")
	f.MarkHidden("local-child") //nolint:errcheck // the flag exists
}

func (p *partitionFlags) active() bool { return p.share != "" || p.local > 0 }

// index resolves I/N, with auto taken from the scheduler's environment.
func (p *partitionFlags) index(peerCount int) (i, n int, err error) {
	a, b, ok := strings.Cut(p.share, "/")
	if !ok {
		return 0, 0, fmt.Errorf("--partition takes I/N (got %q)", p.share)
	}
	if a == "auto" {
		a = os.Getenv("JOB_COMPLETION_INDEX")
		if a == "" {
			a = os.Getenv("SLURM_PROCID")
		}
		if a == "" {
			return 0, 0, errors.New("--partition auto/N: neither JOB_COMPLETION_INDEX nor SLURM_PROCID is set")
		}
	}
	if b == "auto" {
		b = os.Getenv("SLURM_NTASKS")
		if b == "" && peerCount > 0 {
			b = strconv.Itoa(peerCount)
		}
		if b == "" {
			return 0, 0, errors.New("--partition I/auto: SLURM_NTASKS is not set and no peer list gives the count")
		}
	}
	return parseShare("partition", a+"/"+b)
}

// peerList reads the peers from whichever flag gives them.
func (p *partitionFlags) peerList(rd func(string) ([]byte, error)) ([]string, error) {
	given := 0
	for _, s := range []string{p.peers, p.peersFile, p.peersDNS} {
		if s != "" {
			given++
		}
	}
	if given != 1 {
		return nil, errors.New("--partition needs exactly one of --peers, --peers-file and --peers-dns")
	}
	var list []string
	switch {
	case p.peers != "":
		list = strings.Split(p.peers, ",")
	case p.peersFile != "":
		data, err := rd(p.peersFile)
		if err != nil {
			return nil, fmt.Errorf("--peers-file: %v", err)
		}
		text := string(data)
		for n, start := 0, 0; start < len(text); n, start = n+1, lineend.Next(text, start) {
			// A lone "\r" ends a line (and its "#" comment) too, as an editor shows it.
			line, _, _ := strings.Cut(text[start:lineend.LineEnd(text, start)], "#")
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
			if err := checkHostPort(line); err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not HOST:PORT: %v", p.peersFile, n+1, line, err)
			}
			list = append(list, line)
		}
		return list, nil
	default:
		return nil, nil // expanded once N is known
	}
	for k, a := range list {
		if err := checkHostPort(strings.TrimSpace(a)); err != nil {
			return nil, fmt.Errorf("--peers: entry %d %q is not HOST:PORT: %v", k, a, err)
		}
		list[k] = strings.TrimSpace(a)
	}
	return list, nil
}

// checkHostPort checks a peer address now: a port that is not a number
// from 1 to 65535 would otherwise fail only when the workers dial each
// other, after --start-timeout.
func checkHostPort(a string) error {
	_, port, err := net.SplitHostPort(a)
	if err != nil {
		return err
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return fmt.Errorf("the port must be a number from 1 to 65535 (got %q)", port)
	}
	return nil
}

// dnsPeers expands --peers-dns for n workers.
func (p *partitionFlags) dnsPeers(n int) ([]string, error) {
	if !strings.Contains(p.peersDNS, "{i}") {
		return nil, fmt.Errorf("--peers-dns %q has no {i}", p.peersDNS)
	}
	var list []string
	for i := range n {
		a := strings.ReplaceAll(p.peersDNS, "{i}", strconv.Itoa(i))
		if err := checkHostPort(a); err != nil {
			return nil, fmt.Errorf("--peers-dns: %q is not HOST:PORT: %v", a, err)
		}
		list = append(list, a)
	}
	return list, nil
}

// config builds this worker's cluster configuration from the flags.
func (p *partitionFlags) config(rd func(string) ([]byte, error)) (cluster.Config, error) {
	var cfg cluster.Config
	if p.peerTimeout <= 0 || p.startTimeout <= 0 {
		return cfg, errors.New("--peer-timeout and --start-timeout must be positive")
	}
	peers, err := p.peerList(rd)
	if err != nil {
		return cfg, err
	}
	i, n, err := p.index(len(peers))
	if err != nil {
		return cfg, err
	}
	if p.peersDNS != "" {
		if peers, err = p.dnsPeers(n); err != nil {
			return cfg, err
		}
	}
	if len(peers) != n {
		return cfg, fmt.Errorf("--partition %d/%d needs %d peers, the list has %d", i, n, n, len(peers))
	}
	if p.tokenFile == "" {
		return cfg, errors.New("--partition needs --token-file: a peer without the shared token is refused")
	}
	tok, err := rd(p.tokenFile)
	if err != nil {
		return cfg, fmt.Errorf("--token-file: %v", err)
	}
	if tok = []byte(strings.TrimSpace(string(tok))); len(tok) < 16 {
		return cfg, fmt.Errorf("--token-file %s: the token must be at least 16 characters", p.tokenFile)
	}
	return cluster.Config{Index: i, Peers: peers, Token: tok, TLS: &p.tls, PeerTimeout: p.peerTimeout, StartTimeout: p.startTimeout}, nil
}

// runPartition runs one worker of a partitioned search and, on worker 0,
// the checks over the settled exploration. Worker 0 gathers no state
// unless --gather asks it to hold the graph: the checks that read one
// state run at the owners (verify.Probes), and those that need the whole
// graph are undecided, "graph partitioned" (verify.Reached).
func (p *partitionFlags) runPartition(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, name string, res *jsonmodel.Result, opts verify.Options) error {
	if !res.Valid() {
		return emitVerify(out, stdout, name, verify.Run(res, opts), res)
	}
	hash, _ := jsonmodel.Hash(res.Model.Raw, "v1")
	mc := runtime.Compile(res.Model)
	var probes []func([]int64, bool) bool
	if !p.gather {
		probes = verify.Probes(res.Model, mc)
	}
	r, err := p.search(cmd, out, stdout, stderr, hash, mc, opts.MaxStates, workerSpill(cmd, opts), !p.gather, probes, nil)
	if r == nil {
		return err
	}
	if r.Summary == nil {
		opts.Explored = r.Graph
	} else if opts.Reached, err = reached(mc, r.Summary); err != nil {
		fmt.Fprintf(stderr, "stateproof: worker 0: undecided: %v (PARTITION_UNDECIDED)\n", err)
		return &exitError{exitUndecided}
	}
	start := time.Now()
	rep := verify.Run(res, opts)
	fmt.Fprintf(stderr, "stateproof: partitioned search: checks on worker 0 in %s\n", time.Since(start).Round(time.Millisecond))
	return emitVerify(out, stdout, name, rep, res)
}

// reached turns worker 0's summary into what verify reads instead of the
// graph: the declared states reached and each probe's least runtime, with
// its path.
func reached(mc *runtime.Machine, s *cluster.Summary) (*verify.Reached, error) {
	r := &verify.Reached{Len: s.Len, Cap: s.Cap, Truncated: s.Truncated, States: make([]bool, len(mc.States)), Machine: mc}
	for st := range s.First {
		if st < 0 || st >= len(mc.States) {
			return nil, fmt.Errorf("a worker reported state %d of a model of %d", st, len(mc.States))
		}
		r.States[st] = true
	}
	for _, h := range s.Hits {
		hit := verify.Hit{Index: h.Index, Runtime: h.Words}
		for _, t := range h.Path {
			if t < 0 || t >= len(mc.Model.Transitions) {
				return nil, fmt.Errorf("a worker reported transition %d of a model of %d", t, len(mc.Model.Transitions))
			}
			from, event, to := mc.Describe(t)
			hit.Path = append(hit.Path, explore.Step{From: from, Event: event, To: to})
		}
		r.Hits = append(r.Hits, hit)
	}
	return r, nil
}

// workerSpill is a worker's memory budget when a spill flag is set (the
// flags' spill directory is this process's own, made fresh in
// --spill-dir), or nil: without one a worker keeps its states in memory,
// as it pays nothing for a budget then.
func workerSpill(cmd *cobra.Command, opts verify.Options) *explore.Spill {
	if setFlag(cmd, spillFlagNames...) == "" || opts.Spill == nil {
		return nil
	}
	return &opts.Spill.Spill
}

// search runs this worker's part of the partitioned search of mc, whose
// model hashes to hash, keeping its states within sp (nil: in memory);
// summarize makes worker 0 gather no state (cluster.Config.Summarize),
// and every owner run probes and marks over its own states. On worker 0
// it returns the settled exploration; otherwise (a worker done, or a
// failure) it returns nil and what the command returns.
func (p *partitionFlags) search(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, hash string, mc concrete.Portable, maxStates int, sp *explore.Spill, summarize bool, probes []func([]int64, bool) bool, marks func([]int64, bool, func(string, bool))) (*cluster.Result, error) {
	var cfg cluster.Config
	var err error
	if p.localChild {
		cfg, err = p.childConfig(stdout)
	} else {
		cfg, err = p.config(inputReader(cmd).ReadFile)
	}
	if err != nil {
		return nil, refuse(out, stdout, stderr, "BAD_OPTION", err.Error())
	}
	cfg.Version = buildVersion()
	cfg.ModelHash = hash
	cfg.Summarize, cfg.Probes, cfg.Marks, cfg.Spill = summarize, probes, marks, sp
	r, err := cluster.Run(cmd.Context(), cfg, mc, maxStates)
	if sp != nil && sp.Dir.Peak() > 0 {
		fmt.Fprintf(stderr, "stateproof: worker %d of %d: spilled its states past --memory %s to disk (peak disk %s)\n",
			cfg.Index, len(cfg.Peers), spill.FormatSize(sp.Memory), spill.FormatSize(sp.Dir.Peak()))
	}
	var ce *cluster.Error
	switch {
	case cmd.Context().Err() != nil:
		return nil, &exitError{exitInterrupted} // stopped, not undecided
	case errors.As(err, &ce):
		fmt.Fprintf(stderr, "stateproof: worker %d of %d: undecided: %s (PARTITION_UNDECIDED)\n", cfg.Index, len(cfg.Peers), ce.Reason)
		return nil, &exitError{exitUndecided}
	case err != nil:
		return nil, refuse(out, stdout, stderr, "BAD_OPTION", err.Error())
	case r == nil:
		fmt.Fprintf(stderr, "stateproof: worker %d of %d: my part of the exploration is done; worker 0 writes the report\n", cfg.Index, len(cfg.Peers))
		return nil, nil
	}
	n, gathered := 0, "gathered"
	if r.Graph != nil {
		n = r.Graph.Len()
	} else {
		n, gathered = r.Summary.Len, "summarized (no state gathered)"
	}
	fmt.Fprintf(stderr, "stateproof: partitioned search: %d states in %d levels over %d workers, %d bytes sent (%.1f per state); explored in %s, %s in %s\n",
		n, r.Levels, len(cfg.Peers), r.BytesSent, float64(r.BytesSent)/float64(max(1, n)),
		r.Explore.Round(time.Millisecond), gathered, r.Gather.Round(time.Millisecond))
	return r, nil
}

// childConfig is a --local-partitions child's setup: it listens on a port
// the system picks, tells the parent (first line of stdout), and reads
// the peer list and token from the parent (a line of stdin).
func (p *partitionFlags) childConfig(stdout io.Writer) (cluster.Config, error) {
	var cfg cluster.Config
	i, n, err := parseShare("partition", p.share)
	if err != nil {
		return cfg, err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return cfg, err
	}
	fmt.Fprintf(stdout, "ADDR %s\n", lis.Addr())
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	fields := strings.Fields(line)
	if err != nil || len(fields) != 4 || fields[0] != "PEERS" || fields[2] != "TOKEN" {
		lis.Close()
		return cfg, fmt.Errorf("local partition %d: no peer list from the parent", i)
	}
	peers := strings.Split(fields[1], ",")
	if len(peers) != n {
		lis.Close()
		return cfg, fmt.Errorf("local partition %d: %d peers for %d workers", i, len(peers), n)
	}
	return cluster.Config{Index: i, Peers: peers, Listener: lis, Token: []byte(fields[3]), PeerTimeout: p.peerTimeout, StartTimeout: p.startTimeout}, nil
}
