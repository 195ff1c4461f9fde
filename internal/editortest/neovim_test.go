package editortest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// luaBlocks returns the ```lua blocks of docs/editor.md.
func luaBlocks(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "editor.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```lua\n(.*?)```").FindAllStringSubmatch(string(raw), -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) < 5 {
		t.Fatalf("docs/editor.md has %d Lua blocks, want the Neovim setups (at least 5)", len(blocks))
	}
	return blocks
}

// nvimVersion returns Neovim's minor version (0.x), or skips.
func nvimVersion(t *testing.T) (string, int) {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		browsertest.Unavailable(t, "no nvim on PATH for the Neovim setup test (apt-get install -y neovim)")
	}
	out, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatalf("nvim --version: %v", err)
	}
	m := regexp.MustCompile(`NVIM v0\.(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("nvim --version: %q", out)
	}
	minor, _ := strconv.Atoi(string(m[1]))
	return nvim, minor
}

// TestNeovimSetupFromDocs runs the Neovim setup that docs/editor.md gives
// for the installed Neovim, in a headless Neovim, against a stand-in
// server installed as "stateproof" on PATH: opening an .fcstm file must
// start "stateproof lsp" for the fcstm file type and show the diagnostic
// the server publishes. Every other Lua block of the page must compile.
func TestNeovimSetupFromDocs(t *testing.T) {
	nvim, minor := nvimVersion(t)
	node := nodeTool(t, "node")
	blocks := luaBlocks(t)
	dir := t.TempDir()

	// Each block compiles (LuaJIT's loadstring: syntax only).
	for i, b := range blocks {
		f := filepath.Join(dir, "block"+strconv.Itoa(i)+".lua")
		if err := os.WriteFile(f, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		check := "lua local f = io.open([[" + f + "]]); local ok, err = loadstring(f:read('*a')); if not ok then io.stderr:write(err) vim.cmd('cquit 1') end"
		if out, err := exec.Command(nvim, "--headless", "-u", "NONE", "-c", check, "-c", "qa!").CombinedOutput(); err != nil {
			t.Errorf("docs/editor.md Lua block %d does not compile: %v\n%s\n%s", i+1, err, out, b)
		}
	}

	// The setup for this Neovim: vim.lsp.start from 0.8, start_client before.
	setup := ""
	for _, b := range blocks {
		if minor >= 8 && strings.Contains(b, "vim.lsp.start({") || minor < 8 && strings.Contains(b, "vim.lsp.start_client") {
			setup = b
			break
		}
	}
	if setup == "" {
		t.Fatalf("docs/editor.md has no Neovim setup for Neovim 0.%d", minor)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	fake, err := filepath.Abs(filepath.Join("testdata", "fake-lsp.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(fake); err != nil { // read here too, so that go test's cache sees it
		t.Fatal(err)
	}
	script := "#!/bin/sh\nexec '" + node + "' '" + fake + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "stateproof"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "broken.fcstm")
	if err := os.WriteFile(model, []byte("state Root {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "diagnostics.json")
	// After the page's setup: write the diagnostics to a file as soon as
	// any arrive, and quit.
	init := setup + `
vim.api.nvim_create_autocmd('DiagnosticChanged', {
  callback = function()
    local d = vim.diagnostic.get()
    if #d == 0 then return end
    local f = io.open([[` + out + `]], 'w')
    f:write(vim.fn.json_encode({ filetype = vim.bo.filetype, diagnostics = d }))
    f:close()
    vim.cmd('qa!')
  end,
})
`
	initFile := filepath.Join(dir, "init.lua")
	if err := os.WriteFile(initFile, []byte(init), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", initFile, model)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_LSP_LOG="+filepath.Join(dir, "lsp.log"), "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	combined, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Neovim got no diagnostics within 30 s\n%s", combined)
	}
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, combined)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no diagnostics written: %v\n%s", err, combined)
	}
	var got struct {
		Filetype    string `json:"filetype"`
		Diagnostics []struct {
			Message string `json:"message"`
			Lnum    int    `json:"lnum"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if got.Filetype != "fcstm" {
		t.Errorf("file type %q, want fcstm (vim.filetype.add)", got.Filetype)
	}
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Message != "args=lsp language=fcstm" || got.Diagnostics[0].Lnum != 0 {
		t.Errorf("diagnostics %+v, want the server's one, started as `stateproof lsp` for fcstm", got.Diagnostics)
	}
}
