package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Unavailable skips t with the reason, or fails it under CI=true, where
// everything the test needs is installed.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run installs it)", msg)
	}
	t.Skip(msg)
}

// chromium finds the browser binary.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is one headless Chromium with a fresh profile. Errors collects
// every console error and uncaught exception of every page it opened.
type Browser struct {
	Ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// Start launches Chromium for the test and closes it at cleanup. The
// flags keep it off the network (the machine has none) and runnable as
// root in a container.
func Start(t testing.TB) *Browser {
	t.Helper()
	bin := chromium()
	if bin == "" {
		Unavailable(t, "no chromium on PATH (apt-get install -y chromium)")
	}
	// The profile directory is removed by hand after the browser is
	// stopped: Chromium's helper processes can still be writing to it for
	// a moment, which makes t.TempDir's own cleanup fail the test.
	profile, err := os.MkdirTemp("", "stateproof-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("allow-file-access-from-files", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 1000),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
		removeProfile(t, profile)
	})
	b := &Browser{Ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.record("console." + string(e.Type) + ": " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			b.record("exception: " + e.ExceptionDetails.Error())
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		Unavailable(t, "chromium does not start: %v", err)
	}
	return b
}

func (b *Browser) record(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = append(b.errors, s)
}

// Errors returns the console errors and exceptions seen so far and
// forgets them.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.errors
	b.errors = nil
	return out
}

// FileURL is the file:// address of a local file.
func FileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file://" + filepath.ToSlash(abs)
}

// removeProfile deletes a stopped browser's profile directory, retrying
// while helper processes finish writing; a directory that still cannot be
// removed is logged, not a test failure (it is under the system's temp dir).
func removeProfile(t testing.TB, dir string) {
	var err error
	for range 20 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("leaving the browser profile %s: %v", dir, err)
}
