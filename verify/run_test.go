package verify_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

func TestRunRefuses(t *testing.T) {
	docker := server.Options{Container: "redis1"}
	tests := []struct {
		name string
		req  verify.Request
		err  string
	}{
		{"two files", verify.Request{Args: []string{"a", "b"}}, `unexpected argument "b": verify takes one file`},
		{"a file and a server", verify.Request{Args: []string{"a"}, Addr: "h:1"}, "give a file or --addr/--url, not both"},
		{"nothing", verify.Request{}, "no file to verify"},
		{"addr and url", verify.Request{Addr: "h:1", URL: "redis://h:1"}, "give --addr or --url, not both"},
		{"negative sample", verify.Request{Args: []string{"a"}, Sample: -1}, "--sample -1 is negative"},
		{"unknown backend", verify.Request{Args: []string{"a"}, Backend: "vm"}, `unknown backend "vm"`},
		{"container offline", verify.Request{Args: []string{"a"}, Backend: "offline", Server: docker}, "--container restarts a docker container: it does not go with --backend offline"},
		{"container process", verify.Request{Args: []string{"a"}, Backend: "process", Server: docker}, "it does not go with --backend process"},
		{"server and backend", verify.Request{Addr: "h:1", Backend: "docker"}, "--addr and --url check a running server: --backend and --container do not apply"},
		{"server and container", verify.Request{URL: "redis://h:1", Server: docker}, "--backend and --container do not apply"},
		{"server without manifest", verify.Request{Addr: "h:1"}, "--addr and --url need --manifest"},
		{"cluster without directory", verify.Request{Cluster: true}, "--cluster needs the directory of the shard files"},
		{"cluster of two", verify.Request{Cluster: true, Args: []string{"a", "b"}}, `unexpected argument "b": verify --cluster takes one directory`},
		{"cluster and manifest", verify.Request{Cluster: true, Args: []string{"a"}, Manifest: "m.json"}, "--manifest does not go with --cluster"},
		{"cluster and container", verify.Request{Cluster: true, Args: []string{"a"}, Server: docker}, "--container does not go with --cluster"},
		{"cluster and addr", verify.Request{Cluster: true, Args: []string{"a"}, Addr: "h:1"}, "--addr does not go with --cluster"},
		{"cluster, negative sample", verify.Request{Cluster: true, Args: []string{"a"}, Sample: -2}, "--sample -2 is negative"},
	}
	for _, tt := range tests {
		res, err := verify.Run(testContext(t), tt.req)
		if res != nil || err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, %v; want the error %q", tt.name, res, err, tt.err)
		}
	}
}

func TestRunServerBadURL(t *testing.T) {
	dir := t.TempDir()
	_, m := generate(t, classic(10), encoder.Options{})
	path := filepath.Join(dir, "m.json")
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = verify.Run(testContext(t), verify.Request{URL: "http://h:1", Manifest: path})
	if err == nil || !strings.HasPrefix(err.Error(), "--url: ") {
		t.Fatalf("error %v, want one of --url", err)
	}
}

func TestRunFileOffline(t *testing.T) {
	path, _ := generate(t, classic(50), encoder.Options{})
	seed := uint64(7)
	var stages []string
	res, err := verify.Run(testContext(t), verify.Request{Args: []string{path}, Backend: "offline", SampleSeed: &seed,
		Progress: func(p record.Progress) { stages = append(stages, p.Stage) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.ManifestPath != path+".manifest.json" || res.Report == nil || res.Cluster != nil || res.Verdict() != nil || len(stages) == 0 {
		t.Fatalf("result %+v, verdict %v, stages %v", res, res.Verdict(), stages)
	}
	b, err := json.Marshal(res.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(`{"manifest":"`+path+`.manifest.json","pass":true,`)) {
		t.Fatalf("JSON %s", b)
	}
	var text bytes.Buffer
	if err := res.WriteText(&text); err != nil || !strings.Contains(text.String(), "PASS") {
		t.Fatalf("text %q, %v", text.String(), err)
	}

	// The same file against a manifest of other keys fails: the verdict says why.
	other, _ := generate(t, classic(60), encoder.Options{})
	res, err = verify.Run(testContext(t), verify.Request{Args: []string{path}, Backend: "offline", Manifest: other + ".manifest.json"})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Verdict(); v == nil || !strings.HasPrefix(v.Error(), "FAIL: ") || v.Error() != "FAIL: "+res.Report.Reason {
		t.Fatalf("verdict %v, reason %q", v, res.Report.Reason)
	}
}

func TestRunNoFile(t *testing.T) {
	res, err := verify.Run(testContext(t), verify.Request{Args: []string{filepath.Join(t.TempDir(), "none.rdb")}, Backend: "offline"})
	if res != nil || err == nil {
		t.Fatalf("%+v, %v; want an error and no result", res, err)
	}
}

func TestMeasure(t *testing.T) {
	tests := []struct {
		p           record.Progress
		done, total int64
		unit        string
	}{
		{record.Progress{Stage: string(verify.StageFile), Bytes: 3, TotalBytes: 9, Keys: 1, Total: 2}, 3, 9, "bytes read"},
		{record.Progress{Stage: string(verify.StageLoad), Bytes: 4, TotalBytes: 9}, 4, 9, "bytes loaded"},
		{record.Progress{Stage: string(verify.StageServer), Bytes: 3, TotalBytes: 9, Keys: 5, Total: 8}, 5, 8, "keys checked"},
	}
	for _, tt := range tests {
		if done, total, unit := verify.Measure(tt.p); done != tt.done || total != tt.total || unit != tt.unit {
			t.Errorf("%+v: %d of %d %s", tt.p, done, total, unit)
		}
	}
}
