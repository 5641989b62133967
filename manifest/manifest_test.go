package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/record"
)

func TestWriteRead(t *testing.T) {
	path := PathFor(filepath.Join(t.TempDir(), "dump.rdb"))
	if !strings.HasSuffix(path, "dump.rdb.manifest.json") {
		t.Fatalf("PathFor gave %q", path)
	}
	want := &Manifest{
		Format:     FormatVersion,
		Generator:  "rdbgen test",
		CreatedAt:  time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		Target:     "redis-7.0",
		RDBVersion: 10,
		Compressed: true,
		Checksum:   FormatChecksum(0xe9c6d914c4b8d9ca),
		Bytes:      1234,
		DBs:        map[int]record.Counts{3: {Keys: 10, Expires: 10}},
		Keys:       10,
		Expires:    10,
		Dataset: &dataset.Config{Count: 10, KeyPrefix: "k", TTL: time.Minute, TTLJitter: time.Second,
			BaseTimeMS: 1_900_000_000_000, DB: 3, Value: dataset.ValueRandom, ValueSize: 8, Seed: 2},
	}
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back %+v\nwant %+v", got, want)
	}
	if want.Checksum != "e9c6d914c4b8d9ca" {
		t.Fatalf("FormatChecksum gave %q", want.Checksum)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"not json":       "{",
		"wrong format":   `{"format": 99}`,
		"invalid params": `{"format": 1, "dataset": {"count": 1, "value": "bogus"}}`,
	}
	for name, body := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "read manifest") {
			t.Errorf("%s: got %v", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: no error")
	}
}
