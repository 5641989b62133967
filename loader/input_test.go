package loader_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
	"github.com/rdbgen/rdbgen/spec"
)

// TestInputManifest opens each kind of input for a load, reads it as a load does, and checks
// the manifest section that recomputes its records: the dataset, the spec file (left out once
// moved to other databases), a real Redis dump counted on its way (its function libraries
// left out when dropped), JSON Lines with its rewrite rules.
func TestInputManifest(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	res := &loader.Result{DBs: map[int]record.Counts{0: {Keys: 1}}}
	jsonl := filepath.Join(t.TempDir(), "a.jsonl")
	if err := os.WriteFile(jsonl, []byte(`{"db":0,"key":"a","type":"string","value":"1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, req input.Request, drop bool) *loader.Input {
		t.Helper()
		req.Given = func(name string) bool { return name == "count" }
		req.Dataset = func() (*dataset.Config, error) { return &dataset.Config{Count: 3, KeyPrefix: "k:"}, nil }
		req.SpecParams = func(p *spec.Params) { p.CountScale = 0.001 }
		in, err := loader.OpenInput(t.Context(), req, drop, false)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { in.Close() })
		var got record.Recorder
		if err := in.Records.WriteTo(t.Context(), &got); err != nil || len(got.Records) == 0 {
			t.Fatalf("read %d records: %v", len(got.Records), err)
		}
		return in
	}

	ds := open(t, input.Request{}, false)
	if m := ds.Manifest(res, now, false); m.Dataset != ds.Dataset || m.Spec != nil || m.Import != nil || m.Keys != 1 {
		t.Errorf("dataset: %+v", m)
	}
	sp := open(t, input.Request{Spec: filepath.Join("..", "examples", "sessions.yaml")}, false)
	if m := sp.Manifest(res, now, false); m.Spec == nil || m.Spec.YAML != string(sp.Spec.Source) || m.Dataset != nil {
		t.Errorf("spec: %+v", m)
	}
	if m := sp.Manifest(res, now, true); m.Spec != nil {
		t.Errorf("spec moved: %+v", m.Spec)
	}

	path := redistest.WriteFunctionDump(t, false)
	for _, drop := range []bool{false, true} {
		dump := open(t, input.Request{Args: []string{path}, Options: input.Options{OnDuplicate: record.DupFirst}}, drop)
		m := dump.Manifest(res, now, false)
		if dump.Dump == nil || m.Import == nil || m.Import.Format != "rdb" || m.Import.Records != dump.Dump.Read ||
			m.Import.OnDup != "first" || !slices.Equal(m.Import.Inputs, []string{path}) || m.Rewrite != nil {
			t.Errorf("dump: %+v, %+v", m.Import, dump.Dump)
		}
		if dropped := dump.Dump.FunctionsDropped; drop && dropped != 2 || !drop && dropped != 0 {
			t.Errorf("drop %v: %d libraries dropped", drop, dropped)
		}
	}

	js := open(t, input.Request{Args: []string{jsonl}}, false)
	if m := js.Manifest(res, now, false); m.Import == nil || m.Import.Format != "json" || m.Import.Records != 1 || m.Rewrite != nil || js.Dump != nil {
		t.Errorf("json: %+v, rewrite %v", m.Import, m.Rewrite)
	}
	js.Rewrite = &rewrite.Description{File: "r.yaml"}
	if m := js.Manifest(res, now, false); m.Rewrite != js.Rewrite {
		t.Errorf("json rewritten: rewrite %v", m.Rewrite)
	}
}
