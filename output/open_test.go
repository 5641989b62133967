package output_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
)

// TestOpen: Open writes one file, every shard file of a layout, or the one of Shard.
func TestOpen(t *testing.T) {
	layout, err := cluster.Even(3)
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	inDB0 := slices.DeleteFunc(slices.Clone(sample), func(r record.Record) bool { return r.DB != 0 })
	for _, tt := range []struct {
		name  string
		opts  output.Options
		files []string
	}{
		{"file", output.Options{}, []string{"out", "out.manifest.json"}},
		{"shards", output.Options{Layout: layout}, []string{"shard-0.rdb", "shard-0.rdb.manifest.json", "shard-1.rdb", "shard-1.rdb.manifest.json", "shard-2.rdb", "shard-2.rdb.manifest.json"}},
		{"shard", output.Options{Layout: layout, Shard: &one}, []string{"shard-1.rdb", "shard-1.rdb.manifest.json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out")
			o, err := output.Open(path, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := o.Write(context.Background(), inDB0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.opts.Layout != nil {
				dir = path
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, tt.files) {
				t.Errorf("files %v, want %v", got, tt.files)
			}
			if res.Path != path {
				t.Errorf("Path %q, want %q", res.Path, path)
			}
		})
	}
}

// TestCheckManifest: a manifest named that is the output, or that exists without Force, is
// refused before anything is written; with none named, a split, or RESP, nothing is checked.
func TestCheckManifest(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "m.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.rdb")
	layout, _ := cluster.Even(2)
	for _, tt := range []struct {
		name string
		opts output.Options
		want string // empty: no error
	}{
		{"none", output.Options{}, ""},
		{"new", output.Options{Manifest: filepath.Join(dir, "new.json")}, ""},
		{"the output", output.Options{Manifest: dir + "/./out.rdb"}, dir + "/./out.rdb is the output file"},
		{"exists", output.Options{Manifest: existing}, existing + ": file exists"},
		{"exists, force", output.Options{Manifest: existing, Force: true}, ""},
		{"split", output.Options{Manifest: existing, Layout: layout}, ""},
		{"no manifest", output.Options{Manifest: existing, NoManifest: true}, ""},
	} {
		err := output.CheckManifest(out, tt.opts)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := output.CheckManifest(out, output.Options{Manifest: existing}); !errors.Is(err, output.ErrExists) {
		t.Errorf("existing manifest: %v does not wrap ErrExists", err)
	}
}

// TestInterrupted: a cancelled run says what went to stdout or a FIFO; a file, and stdout
// before any byte, keep the context error.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout bytes.Buffer
	toStdout, err := output.Open("-", output.Options{Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	if err := output.Interrupted(toStdout, ctx.Err()); err != ctx.Err() {
		t.Errorf("stdout, nothing written: %v", err)
	}
	if err := sample.WriteTo(context.Background(), toStdout.Sink()); err != nil {
		t.Fatal(err)
	}
	if _, err := toStdout.Commit(nil); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("interrupted after %d B went to stdout: that output is incomplete, discard it", stdout.Len())
	if err := output.Interrupted(toStdout, fmt.Errorf("write: %w", ctx.Err())); err == nil || err.Error() != want {
		t.Errorf("stdout: got %v, want %q", err, want)
	}
	file, err := output.Open(filepath.Join(t.TempDir(), "d.rdb"), output.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Abort()
	if err := output.Interrupted(file, ctx.Err()); err != ctx.Err() {
		t.Errorf("file: %v", err)
	}
	if err := output.Interrupted(nil, ctx.Err()); err != ctx.Err() {
		t.Errorf("not opened: %v", err)
	}
	other := errors.New("other")
	if err := output.Interrupted(file, other); err != other {
		t.Errorf("not an interruption: %v", err)
	}

	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	toFIFO, err := output.Open(fifo, output.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer toFIFO.Abort()
	if err := output.Interrupted(toFIFO, ctx.Err()); err == nil || err.Error() != "interrupted: what "+fifo+" received is incomplete, discard it" {
		t.Errorf("FIFO: %v", err)
	}
}
