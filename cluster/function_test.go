package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestWriterGivesEveryShardTheFunctions: every node of a cluster needs the function
// libraries, which belong to no slot: each shard file holds them all, in order, whether the
// headers are filled in last or not, and below RDB 10 the error names the shard and the
// library.
func TestWriterGivesEveryShardTheFunctions(t *testing.T) {
	libs := [][]byte{[]byte("#!lua name=a\nreturn 1"), []byte("#!lua name=b\nreturn 2")}
	layout, err := cluster.Even(3)
	if err != nil {
		t.Fatal(err)
	}
	for _, fill := range []bool{false, true} {
		dir := t.TempDir()
		var dsts []io.Writer
		var paths []string
		for i := range 3 {
			p := filepath.Join(dir, string(rune('0'+i))+".rdb")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			dsts, paths = append(dsts, f), append(paths, p)
		}
		w, err := cluster.NewWriter(dsts, layout, cluster.WriterOptions{Encoder: encoder.Options{Target: "redis-7.0"}, FillCounts: fill})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.BeginDB(0, record.Counts{}); err != nil {
			t.Fatal(err)
		}
		for _, code := range libs {
			if err := w.WriteFunction(code); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range []string{"x", "y", "z", "{a}1", "foo"} {
			if err := writeString(w, []byte(k), []byte("v"), 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			var c record.Collector
			if _, err := (decoder.File{Path: p}).Read(context.Background(), &c); err != nil {
				t.Fatalf("fill %v: %s: %v", fill, p, err)
			}
			if !slices.EqualFunc(c.Functions, libs, bytes.Equal) {
				t.Fatalf("fill %v: %s holds the libraries %q, want %q", fill, p, c.Functions, libs)
			}
		}
	}

	old, err := cluster.NewWriter([]io.Writer{io.Discard, io.Discard, io.Discard}, layout, cluster.WriterOptions{Encoder: encoder.Options{Target: "redis-6.2"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.WriteFunction(libs[0]); !errors.Is(err, rdb.ErrCannotHold) || err.Error() != `shard 0: function library "a": a function library needs RDB 10 (redis-7.0 or later), and redis-6.2 writes RDB 9` {
		t.Fatalf("RDB 9: %v", err)
	}
}
