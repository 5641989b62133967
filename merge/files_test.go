package merge_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/merge"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// dump writes recs as an RDB file in dir and returns its path.
func dump(t *testing.T, dir, name string, recs record.Records) string {
	t.Helper()
	path := filepath.Join(dir, name)
	o, err := output.File(path, output.Options{NoManifest: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Write(context.Background(), recs, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFiles: the files are read in order, a key in both kept from the first under
// DupFirst and counted; standard input is refused.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	a := dump(t, dir, "a.rdb", record.Records{{Key: []byte("k"), Type: record.String, Value: []byte("a")}, {Key: []byte("x"), Type: record.String, Value: []byte("1")}})
	b := dump(t, dir, "b.rdb", record.Records{{Key: []byte("k"), Type: record.String, Value: []byte("b")}, {DB: 2, Key: []byte("y"), Type: record.String, Value: []byte("2")}})
	src, err := merge.Files([]string{a, b}, decoder.Options{OnDuplicate: record.DupFirst})
	if err != nil {
		t.Fatal(err)
	}
	var out record.Recorder
	if err := src.WriteTo(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range out.Records {
		got[string(r.Key)] = string(r.Value)
	}
	if len(out.Records) != 3 || got["k"] != "a" || got["x"] != "1" || got["y"] != "2" || src.Duplicates != 1 {
		t.Errorf("records %v, %d duplicates; want k=a, x=1, y=2 and 1", got, src.Duplicates)
	}
	var m manifest.Manifest
	src.Describe(&m)
	if want := (manifest.Import{Inputs: []string{a, b}, Format: "rdb", Duplicates: 1, OnDup: "first"}); m.Import == nil || !reflect.DeepEqual(*m.Import, want) {
		t.Errorf("manifest import %+v, want %+v", m.Import, want)
	}
	if _, err := merge.Files([]string{a, "-"}, decoder.Options{}); err == nil {
		t.Error("stdin accepted")
	}
}
