package image

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// TestContextOfDamagedDump: a dump cut short, or with a byte changed, is refused before any
// build context is written.
func TestContextOfDamagedDump(t *testing.T) {
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.0"})
	if err != nil {
		t.Fatal(err)
	}
	w.BeginDB(0, record.Counts{Keys: 100})
	for i := range 100 {
		w.Begin(&record.Header{Key: []byte("key" + strings.Repeat("x", i)), Type: record.String, Value: []byte("value")})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0xff
	offline := Options{DockerHost: "unix:///nonexistent/docker.sock", Base: "redis:7.0"}
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"truncated", good[:len(good)*2/3]},
		{"flipped byte", flipped},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dump := filepath.Join(t.TempDir(), "dump.rdb")
			os.WriteFile(dump, tt.data, 0o644)
			dir := filepath.Join(t.TempDir(), "ctx")
			_, err := WriteContext(context.Background(), dump, dir, false, offline)
			t.Log(err)
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "damaged dump: "+dump+": ") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v", err)
			}
			if es, _ := os.ReadDir(dir); len(es) != 0 {
				t.Fatalf("context holds %v", es)
			}
		})
	}
	dump := filepath.Join(t.TempDir(), "dump.rdb")
	os.WriteFile(dump, good, 0o644)
	if _, err := WriteContext(context.Background(), dump, filepath.Join(t.TempDir(), "ctx"), false, offline); err != nil {
		t.Fatalf("good dump: %v", err)
	}
}
