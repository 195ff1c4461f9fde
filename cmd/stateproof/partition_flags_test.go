package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestPartitionConfig: the peers and the worker's index come from the
// flags, a peers file, a DNS pattern or the scheduler's environment, and
// a missing or short token, a bad address or a count mismatch is refused
// with what to fix.
func TestPartitionConfig(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("0123456789abcdef0123\n"), 0o600)                                                    //nolint:errcheck // checked by the reads below
	os.WriteFile(filepath.Join(dir, "short"), []byte("abc"), 0o600)                                               //nolint:errcheck
	os.WriteFile(filepath.Join(dir, "peers"), []byte("# workers\nh0:7070\nh1:7070 # second\n\nh2:7070\n"), 0o600) //nolint:errcheck
	os.WriteFile(filepath.Join(dir, "bad"), []byte("h0:7070\nnoport\n"), 0o600)                                   //nolint:errcheck
	os.WriteFile(filepath.Join(dir, "peers-cr"), []byte("# workers\rh0:7070 # first\rh1:7070\r\nh2:7070"), 0o600) //nolint:errcheck
	os.WriteFile(filepath.Join(dir, "bad-cr"), []byte("h0:7070 # first\rnoport\n"), 0o600)                        //nolint:errcheck
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_PROCID", "")
	t.Setenv("SLURM_NTASKS", "")
	ok := func(p partitionFlags, index int, peers ...string) {
		t.Helper()
		p.tokenFile, p.peerTimeout, p.startTimeout = tok, 1, 1
		cfg, err := p.config(os.ReadFile)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		if cfg.Index != index || !reflect.DeepEqual(cfg.Peers, peers) || string(cfg.Token) != "0123456789abcdef0123" {
			t.Errorf("%+v: index %d peers %v token %q", p, cfg.Index, cfg.Peers, cfg.Token)
		}
	}
	bad := func(p partitionFlags, want string) {
		t.Helper()
		if p.tokenFile == "" {
			p.tokenFile = tok
		}
		p.peerTimeout, p.startTimeout = 1, 1
		if _, err := p.config(os.ReadFile); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", p, err, want)
		}
	}
	ok(partitionFlags{share: "1/2", peers: "a:1, b:2"}, 1, "a:1", "b:2")
	ok(partitionFlags{share: "2/auto", peersFile: filepath.Join(dir, "peers")}, 2, "h0:7070", "h1:7070", "h2:7070")
	// A lone CR ends a line and its comment (issue 38 item 8.1).
	ok(partitionFlags{share: "2/auto", peersFile: filepath.Join(dir, "peers-cr")}, 2, "h0:7070", "h1:7070", "h2:7070")
	t.Setenv("JOB_COMPLETION_INDEX", "3")
	ok(partitionFlags{share: "auto/4", peersDNS: "sp-{i}.sp:7070"}, 3, "sp-0.sp:7070", "sp-1.sp:7070", "sp-2.sp:7070", "sp-3.sp:7070")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_PROCID", "1")
	t.Setenv("SLURM_NTASKS", "2")
	ok(partitionFlags{share: "auto/auto", peers: "n1:7070,n2:7070"}, 1, "n1:7070", "n2:7070")
	t.Setenv("SLURM_PROCID", "")
	bad(partitionFlags{share: "auto/2", peers: "a:1,b:2"}, "neither JOB_COMPLETION_INDEX nor SLURM_PROCID")
	bad(partitionFlags{share: "0/3", peers: "a:1,b:2"}, "needs 3 peers")
	bad(partitionFlags{share: "0/2", peers: "a:1,b"}, `entry 1 "b" is not HOST:PORT`)
	bad(partitionFlags{share: "0/2", peersFile: filepath.Join(dir, "bad")}, "bad:2:")
	bad(partitionFlags{share: "0/2", peersFile: filepath.Join(dir, "bad-cr")}, "bad-cr:2:")
	bad(partitionFlags{share: "0/2", peersDNS: "sp.sp:7070"}, "has no {i}")
	// a port that cannot be dialled is refused now, not after --start-timeout
	bad(partitionFlags{share: "0/2", peers: "a:1,b:99999"}, `entry 1 "b:99999" is not HOST:PORT: the port must be a number from 1 to 65535`)
	bad(partitionFlags{share: "0/2", peers: "a:notaport,b:2"}, `entry 0 "a:notaport" is not HOST:PORT: the port must be`)
	bad(partitionFlags{share: "0/2", peers: "a:0,b:2"}, `"0"`)
	bad(partitionFlags{share: "0/2", peersDNS: "sp-{i}:70700"}, `"sp-0:70700" is not HOST:PORT: the port must be`)
	os.WriteFile(filepath.Join(dir, "badport"), []byte("h0:7070\nh1:http\n"), 0o600) //nolint:errcheck
	bad(partitionFlags{share: "0/2", peersFile: filepath.Join(dir, "badport")}, "badport:2:")
	bad(partitionFlags{share: "0/1", peers: "a:1", tokenFile: filepath.Join(dir, "short")}, "at least 16")
	bad(partitionFlags{share: "2/2", peers: "a:1,b:2"}, "0 <= I < N")
	bad(partitionFlags{share: "0/2", peers: "a:1,b:2", peersDNS: "x{i}:1"}, "exactly one of")
	p := partitionFlags{share: "0/1", peers: "a:1"}
	p.peerTimeout, p.startTimeout = 1, 1
	if _, err := p.config(os.ReadFile); err == nil || !strings.Contains(err.Error(), "--token-file") {
		t.Errorf("no token: %v", err)
	}
}
