package input_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/live"
)

// TestSnapshotRefuses: a live input gives a whole snapshot only of one server, every
// database, read as a replica; other inputs have none. Nothing is dialled to refuse.
func TestSnapshotRefuses(t *testing.T) {
	tests := []struct {
		arg  string
		opts input.Options
		err  string
	}{
		{"redis://127.0.0.1:1/2", input.Options{}, "redis://127.0.0.1:1/2: inspect reads every database of a server: leave the database out of the URL"},
		{"redis://127.0.0.1:1", input.Options{Live: live.Options{Via: live.Scan}}, "--via scan: inspect reads the server's snapshot (--via sync); to inspect its keys, write them to a file first (rdbgen convert redis://127.0.0.1:1 --via scan -o dump.rdb) and inspect that"},
		{"", input.Options{Dataset: &dataset.Config{Count: 1}}, "input: the dataset is no live server: it has no snapshot"},
	}
	for _, tt := range tests {
		in, err := input.Open(t.Context(), tt.arg, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		sn, err := in.Snapshot(t.Context())
		if sn != nil || err == nil || err.Error() != tt.err {
			t.Errorf("%s: %v, %v; want %q", tt.arg, sn, err, tt.err)
		}
		in.Close()
	}
}

// TestSnapshotRefusedNamesScan: a server that refuses SYNC and PSYNC (a managed service) has
// no snapshot for inspect; the error names the way to its keys, a scan into a file.
func TestSnapshotRefusedNamesScan(t *testing.T) {
	srv := servertest.StartEmpty(t, "--rename-command", "SYNC", "", "--rename-command", "PSYNC", "")
	in, err := input.Open(t.Context(), "redis://"+srv.Addr, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	sn, err := in.Snapshot(t.Context())
	want := "rdbgen convert redis://" + srv.Addr + " --via scan -o dump.rdb"
	if sn != nil || err == nil || !strings.Contains(err.Error(), "refuses replication") || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v, %v; want the refusal and %q", sn, err, want)
	}
}

// TestSnapshotOfServer reads the snapshot of a real server: an RDB file, whole.
func TestSnapshotOfServer(t *testing.T) {
	srv := servertest.StartEmpty(t, "--repl-diskless-sync-delay", "0")
	if err := srv.Client().Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	in, err := input.Open(t.Context(), "redis://"+srv.Addr, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	sn, err := in.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Close()
	b, err := io.ReadAll(sn)
	if err != nil || !bytes.HasPrefix(b, []byte("REDIS")) || !bytes.Contains(b, []byte("k")) {
		t.Fatalf("snapshot %q, %v", b[:min(len(b), 40)], err)
	}
	if !strings.HasSuffix(in.Name, srv.Addr) {
		t.Fatalf("name %q", in.Name)
	}
}
