package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// TestKubernetesManifestRuns: the model the manifest's ConfigMap carries
// is a valid model, and the workers' arguments are verify's flags (the
// API types are checked by deploy/kubernetes/validate, a module of its
// own).
func TestKubernetesManifestRuns(t *testing.T) {
	data, err := os.ReadFile("../../deploy/kubernetes/stateproof.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var model string
	var args []string
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var obj struct {
			Kind string
			Data map[string]string
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct{ Args []string }
					}
				}
			}
		}
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		switch obj.Kind {
		case "ConfigMap":
			model = obj.Data["model.json"]
		case "Job":
			args = obj.Spec.Template.Spec.Containers[0].Args
		}
	}
	res, err := jsonmodel.Decode([]byte(model))
	if err != nil || !res.Valid() {
		t.Fatalf("the ConfigMap's model: %v %v", err, res.Errors)
	}
	if len(args) < 2 || args[0] != "verify" {
		t.Fatalf("worker args %v", args)
	}
	cmd := newVerifyCmd(io.Discard, io.Discard)
	if err := cmd.ParseFlags(args[2:]); err != nil {
		t.Errorf("the workers' flags: %v", err)
	}
}
