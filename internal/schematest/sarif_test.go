package schematest

import "testing"

// TestSARIFSchemaRejects: the schema the SARIF tests validate with is
// the real one: it accepts a minimal log and refuses broken ones.
func TestSARIFSchemaRejects(t *testing.T) {
	ok := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}`
	if err := ValidateSARIF(t, []byte(ok)); err != nil {
		t.Fatalf("a minimal log is refused: %v", err)
	}
	for _, bad := range []string{
		`{"version":"2.0.0","runs":[]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"region":{"startLine":0}}}]}]}]}`,
	} {
		if ValidateSARIF(t, []byte(bad)) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
