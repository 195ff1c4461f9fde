// Package validate checks deploy/kubernetes/stateproof.yaml against the
// Kubernetes API types of k8s.io/api (a module of its own, so that the
// stateproof module does not depend on Kubernetes): every document decodes
// strictly (an unknown or misspelt field fails) into the type of its kind,
// and the pieces fit together (the Job's pods are the Service's, the
// Service is their subdomain, the worker count is the Job's).
package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func strict(doc []byte, into any) error {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

func TestManifest(t *testing.T) {
	data, err := os.ReadFile("../stateproof.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var svc *corev1.Service
	var cm *corev1.ConfigMap
	var sec *corev1.Secret
	var job *batchv1.Job
	for i, doc := range strings.Split(string(data), "\n---\n") {
		var head struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		var into any
		switch head.APIVersion + " " + head.Kind {
		case "v1 Service":
			svc = new(corev1.Service)
			into = svc
		case "v1 ConfigMap":
			cm = new(corev1.ConfigMap)
			into = cm
		case "v1 Secret":
			sec = new(corev1.Secret)
			into = sec
		case "batch/v1 Job":
			job = new(batchv1.Job)
			into = job
		default:
			t.Fatalf("document %d: unexpected %s %s", i, head.APIVersion, head.Kind)
		}
		if err := strict([]byte(doc), into); err != nil {
			t.Fatalf("document %d (%s): %v", i, head.Kind, err)
		}
	}
	if svc == nil || cm == nil || sec == nil || job == nil {
		t.Fatal("the manifest needs a Service, a ConfigMap, a Secret and a Job")
	}
	if err := fits(svc, cm, sec, job); err != nil {
		t.Error(err)
	}
	if !json.Valid([]byte(cm.Data["model.json"])) {
		t.Error("the ConfigMap's model.json is not JSON")
	}
}

// fits checks what the API types cannot: that the objects refer to each
// other correctly and the workers' flags match the Job.
func fits(svc *corev1.Service, cm *corev1.ConfigMap, sec *corev1.Secret, job *batchv1.Job) error {
	spec := job.Spec
	pod := spec.Template.Spec
	switch {
	case spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion:
		return fmt.Errorf("the Job must be Indexed")
	case spec.Completions == nil || spec.Parallelism == nil || *spec.Completions != *spec.Parallelism:
		return fmt.Errorf("completions and parallelism must be equal: the workers run together")
	case svc.Spec.ClusterIP != corev1.ClusterIPNone:
		return fmt.Errorf("the Service must be headless")
	case pod.Subdomain != svc.Name:
		return fmt.Errorf("the pods' subdomain %q is not the Service %q", pod.Subdomain, svc.Name)
	case pod.RestartPolicy != corev1.RestartPolicyNever:
		return fmt.Errorf("restartPolicy must be Never: a restarted worker cannot rejoin a run")
	}
	for k, v := range svc.Spec.Selector {
		if spec.Template.Labels[k] != v {
			return fmt.Errorf("the Service selects %s=%s, the pods do not carry it", k, v)
		}
	}
	args := pod.Containers[0].Args
	n := fmt.Sprint(*spec.Completions)
	if !slices.Contains(args, "--partition=auto/"+n) {
		return fmt.Errorf("the workers need --partition=auto/%s, they have %v", n, args)
	}
	if !slices.Contains(args, "--peers-dns="+job.Name+"-{i}."+svc.Name+":7070") {
		return fmt.Errorf("--peers-dns must name %s-{i}.%s:7070", job.Name, svc.Name)
	}
	vols := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		vols[v.Name] = v
	}
	for _, m := range pod.Containers[0].VolumeMounts {
		v, ok := vols[m.Name]
		switch {
		case !ok:
			return fmt.Errorf("mount %s has no volume", m.Name)
		case v.ConfigMap != nil && v.ConfigMap.Name != cm.Name:
			return fmt.Errorf("volume %s names ConfigMap %s", v.Name, v.ConfigMap.Name)
		case v.Secret != nil && v.Secret.SecretName != sec.Name:
			return fmt.Errorf("volume %s names Secret %s", v.Name, v.Secret.SecretName)
		}
	}
	if _, ok := sec.StringData["token"]; !ok {
		return fmt.Errorf("the Secret has no token")
	}
	return nil
}
