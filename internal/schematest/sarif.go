package schematest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// sarifPackage is the npm package the SARIF 2.1.0 schema is taken from:
// the SARIF SDK's multitool, published by the SARIF specification's
// maintainers, which carries the schema it validates with.
const sarifPackage = "@microsoft/sarif-multitool-linux@5.7.0"

const sarifSchemaURL = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIFSchemaFile returns the path of the official SARIF 2.1.0 JSON
// Schema, fetched from the npm registry into the user cache on first use.
// No npm, or no registry, skips the test (fails it under CI=true).
func SARIFSchemaFile(t testing.TB) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "stateproof-test", "sarif-2.1.0")
	file := filepath.Join(dir, "sarif-2.1.0.json")
	if _, err := os.Stat(file); err == nil {
		return file
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		browsertest.Unavailable(t, "no npm on PATH to fetch the SARIF schema (apt-get install -y npm)")
	}
	tmp := t.TempDir()
	cmd := exec.Command(npm, "pack", "--silent", "--pack-destination", tmp, sarifPackage)
	out, err := cmd.CombinedOutput()
	if err != nil {
		browsertest.Unavailable(t, "npm pack %s failed: %v\n%s", sarifPackage, err, out)
	}
	tgz, _ := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if len(tgz) != 1 {
		t.Fatalf("npm pack %s left %v", sarifPackage, tgz)
	}
	schema, err := extract(tgz[0], "package/sarif-2.1.0.json")
	if err != nil {
		t.Fatalf("%s: %v", sarifPackage, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Written aside and renamed, so that test binaries fetching at the
	// same time never read a half-written file.
	part := filepath.Join(dir, fmt.Sprintf(".part-%d", os.Getpid()))
	if err := os.WriteFile(part, schema, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(part, file); err != nil {
		t.Fatal(err)
	}
	return file
}

// extract reads one file out of a gzipped tar archive.
func extract(archive, name string) ([]byte, error) {
	f, err := os.Open(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in the package", name)
		}
		if err != nil {
			return nil, err
		}
		if h.Name == name {
			return io.ReadAll(io.LimitReader(tr, 16<<20))
		}
	}
}

// SARIF fails the test unless data is a SARIF 2.1.0 log that satisfies
// the official schema.
func SARIF(t testing.TB, label string, data []byte) {
	t.Helper()
	if err := ValidateSARIF(t, data); err != nil {
		t.Errorf("%s does not satisfy the SARIF 2.1.0 schema: %v", label, err)
	}
}

// ValidateSARIF checks data against the official SARIF 2.1.0 schema.
func ValidateSARIF(t testing.TB, data []byte) error {
	t.Helper()
	raw, err := os.ReadFile(SARIFSchemaFile(t))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(sarifSchemaURL, doc); err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	s, err := c.Compile(sarifSchemaURL)
	if err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return s.Validate(inst)
}
