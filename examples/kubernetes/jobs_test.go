// Package kubernetes checks the Kubernetes manifests of this directory: they decode strictly
// into the API types, set what an Indexed Job of rdbgen needs, and their arguments and
// environment are what the rdbgen binary takes, run here as the pods would run it.
package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decode reads the manifest file name into v, strictly: an unknown or duplicate field fails.
func decode(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// buildRdbgen builds the rdbgen binary of this repository.
func buildRdbgen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rdbgen")
	if out, err := exec.Command("go", "build", "-C", filepath.Join("..", ".."), "-o", bin, "./cmd/rdbgen").CombinedOutput(); err != nil {
		t.Fatalf("build rdbgen: %v\n%s", err, out)
	}
	return bin
}

// indexedJob decodes the Job in name and checks what every Job of rdbgen shards needs: one
// pod per index, each index retried on its own, a pod replaced only once it has failed (two
// pods never write one shard at once), and one container whose environment names the base
// time every pod shares. It returns the Job, its container, and the container's
// environment as "NAME=value" (the values set inline).
func indexedJob(t *testing.T, name string) (*batchv1.Job, corev1.Container, []string) {
	t.Helper()
	var job batchv1.Job
	decode(t, name, &job)
	s := job.Spec
	switch {
	case job.APIVersion != "batch/v1" || job.Kind != "Job":
		t.Fatalf("%s is a %s %s", name, job.APIVersion, job.Kind)
	case s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion:
		t.Fatalf("%s: completionMode %v, want Indexed", name, s.CompletionMode)
	case s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism:
		t.Fatalf("%s: completions %v and parallelism %v differ", name, s.Completions, s.Parallelism)
	case s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex < 1:
		t.Fatalf("%s: backoffLimitPerIndex %v: each shard needs retries of its own", name, s.BackoffLimitPerIndex)
	case s.PodReplacementPolicy == nil || *s.PodReplacementPolicy != batchv1.Failed:
		t.Fatalf("%s: podReplacementPolicy %v, want Failed", name, s.PodReplacementPolicy)
	case s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever:
		t.Fatalf("%s: restartPolicy %q: backoffLimitPerIndex needs Never", name, s.Template.Spec.RestartPolicy)
	case len(s.Template.Spec.Containers) != 1:
		t.Fatalf("%s: %d containers, want 1", name, len(s.Template.Spec.Containers))
	}
	c := s.Template.Spec.Containers[0]
	var env []string
	for _, e := range c.Env {
		if e.Name == "JOB_COMPLETION_INDEX" {
			t.Fatalf("%s sets JOB_COMPLETION_INDEX, which Kubernetes sets in each pod", name)
		}
		if e.ValueFrom == nil {
			env = append(env, e.Name+"="+e.Value)
		}
	}
	i := slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "RDBGEN_BASE_TIME=") })
	if i < 0 {
		t.Fatalf("%s: no RDBGEN_BASE_TIME: the pods would not agree on the base time", name)
	}
	if _, err := time.Parse(time.RFC3339, strings.TrimPrefix(env[i], "RDBGEN_BASE_TIME=")); err != nil {
		t.Fatalf("%s: %s: want an RFC 3339 time, the same in every pod: %v", name, env[i], err)
	}
	return &job, c, env
}

// flagValue returns the value of --name=value in args.
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	t.Fatalf("no --%s=... in %q", name, args)
	return ""
}

// withFlag returns args with the value of --name=... replaced by value.
func withFlag(args []string, name, value string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if strings.HasPrefix(a, "--"+name+"=") {
			out[i] = "--" + name + "=" + value
		}
	}
	return out
}

// runPod runs bin with args and the environment of pod index: env and JOB_COMPLETION_INDEX
// (none for an index below 0), and nothing of this process's rdbgen variables.
func runPod(bin string, args, env []string, index int) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RDBGEN_") && !strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	if index >= 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", index))
	}
	return cmd.CombinedOutput()
}

// TestGenerateShardsJob runs the container of generate-shards.yaml as its pods run it, once
// per index, with the dataset scaled down to 20000 keys and the volume a temporary
// directory: the pods' files are the one-process split's byte for byte, and rdbgen verify
// --cluster passes on them.
func TestGenerateShardsJob(t *testing.T) {
	var pvc corev1.PersistentVolumeClaim
	decode(t, "shards-pvc.yaml", &pvc)
	if !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Fatalf("shards-pvc.yaml: access modes %v: every pod mounts the volume at once", pvc.Spec.AccessModes)
	}
	job, c, env := indexedJob(t, "generate-shards.yaml")
	vols := job.Spec.Template.Spec.Volumes
	if len(vols) != 1 || vols[0].PersistentVolumeClaim == nil || vols[0].PersistentVolumeClaim.ClaimName != pvc.Name {
		t.Fatalf("generate-shards.yaml: volumes %+v, want the claim %s", vols, pvc.Name)
	}
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].Name != vols[0].Name {
		t.Fatalf("generate-shards.yaml: volume mounts %+v", c.VolumeMounts)
	}
	shards, err := strconv.Atoi(flagValue(t, c.Args, "cluster-shards"))
	if err != nil || int32(shards) != *job.Spec.Completions {
		t.Fatalf("generate-shards.yaml: --cluster-shards %d (%v), %d completions: one pod per shard", shards, err, *job.Spec.Completions)
	}
	out := flagValue(t, c.Args, "output")
	mount := c.VolumeMounts[0].MountPath
	rel, err := filepath.Rel(mount, out)
	if err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("generate-shards.yaml: --output %s is not on the volume, mounted at %s", out, mount)
	}

	bin := buildRdbgen(t)
	root := t.TempDir()
	args := withFlag(withFlag(c.Args, "count", "20000"), "output", filepath.Join(root, "volume", rel))
	for i := range shards {
		if out, err := runPod(bin, args, env, i); err != nil {
			t.Fatalf("pod %d: %v: %s", i, err, out)
		}
	}
	// The same dataset written by one process, at the pods' base time.
	if out, err := runPod(bin, withFlag(args, "output", filepath.Join(root, "split")), env, -1); err != nil {
		t.Fatalf("split: %v: %s", err, out)
	}
	for i := range shards {
		for _, name := range []string{fmt.Sprintf("shard-%d.rdb", i), fmt.Sprintf("shard-%d.rdb.manifest.json", i)} {
			a, err1 := os.ReadFile(filepath.Join(root, "split", name))
			b, err2 := os.ReadFile(filepath.Join(root, "volume", rel, name))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Fatalf("%s: %d bytes from the split, %d from pod %d (%v, %v)", name, len(a), len(b), i, err1, err2)
			}
		}
	}
	if out, err := exec.Command(bin, "verify", "--cluster", filepath.Join(root, "volume", rel), "--backend", "offline").CombinedOutput(); err != nil || !bytes.Contains(out, []byte("\nPASS\n")) {
		t.Fatalf("verify --cluster: %v: %s", err, out)
	}
}

// TestLoadShardsJob checks the container of load-shards.yaml against the rdbgen binary: its
// RDBGEN_SHARD_COUNT is the completions, every flag it gives is one that load takes, and a
// pod run with them, its index and base time gets as far as dialling the cluster (a closed
// port here).
func TestLoadShardsJob(t *testing.T) {
	job, c, env := indexedJob(t, "load-shards.yaml")
	if c.Args[0] != "load" || !slices.Contains(c.Args, "--cluster") {
		t.Fatalf("load-shards.yaml: args %q, want load --cluster", c.Args)
	}
	// Each pod must know the job's size, to refuse a cluster of another number of primaries.
	if want := fmt.Sprintf("RDBGEN_SHARD_COUNT=%d", *job.Spec.Completions); !slices.Contains(env, want) {
		t.Fatalf("load-shards.yaml: environment %q, want %s (the completions)", env, want)
	}
	bin := buildRdbgen(t)
	help := takesFlags(t, bin, "load-shards.yaml", c.Args)
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && !bytes.Contains(help, []byte("$"+e.Name)) {
			t.Errorf("load-shards.yaml: load reads no $%s", e.Name)
		}
	}
	args := withFlag(withFlag(c.Args, "addr", "127.0.0.1:1"), "count", "100")
	out, err := runPod(bin, args, env, 3)
	if err == nil || !bytes.Contains(out, []byte("connection refused")) {
		t.Fatalf("pod 3: %v: %s (want it to dial 127.0.0.1:1)", err, out)
	}
}

// TestGenerateShardsObjectJob checks generate-shards-s3.yaml: an Indexed Job of one pod per
// shard, no volume, its output a prefix of object storage, and every flag one the rdbgen
// binary takes (the pods' objects are the split's byte for byte: TestShardsToObjectStore
// in cmd/rdbgen, against MinIO).
func TestGenerateShardsObjectJob(t *testing.T) {
	job, c, _ := indexedJob(t, "generate-shards-s3.yaml")
	if len(job.Spec.Template.Spec.Volumes) != 0 || len(c.VolumeMounts) != 0 {
		t.Fatal("generate-shards-s3.yaml mounts a volume: its pods write to object storage")
	}
	shards, err := strconv.Atoi(flagValue(t, c.Args, "cluster-shards"))
	if err != nil || int32(shards) != *job.Spec.Completions {
		t.Fatalf("--cluster-shards %d (%v), %d completions: one pod per shard", shards, err, *job.Spec.Completions)
	}
	if out := flagValue(t, c.Args, "output"); !strings.HasPrefix(out, "s3://") || !strings.HasSuffix(out, "/") {
		t.Fatalf("--output %s: want an s3:// prefix ending in /", out)
	}
	takesFlags(t, buildRdbgen(t), "generate-shards-s3.yaml", c.Args)
}

// takesFlags checks that every flag of args (a command and its --name=value flags, from the
// manifest file) is one the command of bin takes, and returns the command's help.
func takesFlags(t *testing.T, bin, file string, args []string) []byte {
	t.Helper()
	help, err := exec.Command(bin, args[0], "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --help: %v: %s", args[0], err, help)
	}
	for _, a := range args[1:] {
		name, _, _ := strings.Cut(a, "=")
		if !bytes.Contains(help, []byte("   "+name+" ")) && !bytes.Contains(help, []byte("   "+name+",")) && !bytes.Contains(help, []byte(", "+name+" ")) {
			t.Errorf("%s: %s has no flag %s", file, args[0], name)
		}
	}
	return help
}
