package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// TestNeovimClient opens a broken FCSTM file in headless Neovim with its
// built-in LSP client (editors/neovim/test-init.lua) and reads the
// diagnostics Neovim received. Neovim converts the protocol's UTF-16
// columns to byte columns, so the emoji before the error checks the
// server's position encoding end to end.
func TestNeovimClient(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		browsertest.Unavailable(t, "no nvim on PATH (apt-get install -y neovim)")
	}
	bin := stateproofBinary(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "broken.fcstm")
	if err := os.WriteFile(file, []byte(brokenFCSTM), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "diagnostics.json")
	init, err := filepath.Abs("../../editors/neovim/test-init.lua")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", init, file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "STATEPROOF_BIN="+bin, "STATEPROOF_DIAG_OUT="+out, "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no diagnostics: %v", err)
	}
	var got struct {
		Received    bool
		Diagnostics []struct {
			L       int    `json:"lnum"`
			C       int    `json:"col"`
			EC      int    `json:"end_col"`
			Code    string `json:"code"`
			Message string `json:"message"`
		}
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if !got.Received || len(got.Diagnostics) != 2 {
		t.Fatalf("diagnostics in Neovim: %s", data)
	}
	// C and D: line 5 and 6 (0-based), byte column 23 (after 4 spaces,
	// "/* ", the 4-byte emoji, " ", the 2-byte é, " */ " and "A -> ").
	for i, d := range got.Diagnostics {
		if d.L != 5+i || d.C != 23 || d.EC != 24 || d.Code != "E_UNKNOWN_STATE" {
			t.Errorf("diagnostic %d: %+v", i, d)
		}
	}
}
