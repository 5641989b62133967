package resp

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenRecords are records of every type, with expiries, field TTLs and a stream with a
// group, in two databases.
func goldenRecords() map[int][]record.Record {
	id := func(ms, seq uint64) record.StreamID { return record.StreamID{Ms: ms, Seq: seq} }
	return map[int][]record.Record{
		0: {
			{Key: []byte("s"), Type: record.String, Value: []byte("bin\x00\r\nary"), ExpireAtMS: 1767225600000},
			{Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("1")}, {Name: []byte("g"), Value: []byte(""), ExpireAtMS: 1767225600500}}},
			{Key: []byte("l"), Type: record.List, Members: members("a", "b")},
			{Key: []byte("z"), Type: record.ZSet, ExpireAtMS: 1767225601000, Members: []record.Member{{Name: []byte("lo"), Score: math.Inf(-1)}, {Name: []byte("pi"), Score: math.Pi}}},
			{Key: []byte("x"), Type: record.Stream, Members: []record.Member{{ID: id(5, 0), Fields: [][]byte{[]byte("k"), []byte("v")}}},
				Stream: record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g"), LastID: id(5, 0), EntriesRead: 1,
					Pending:   []record.StreamPending{{ID: id(5, 0), DeliveryTimeMS: 1767225600000, DeliveryCount: 2}},
					Consumers: []record.StreamConsumer{{Name: []byte("c"), Pending: []record.StreamID{id(5, 0)}}}}}}},
		},
		9: {{Key: []byte("set"), Type: record.Set, Members: members("m1", "m2", "m3")}},
	}
}

// TestGolden writes goldenRecords and compares the stream with testdata/records.resp; go
// test -run Golden -update rewrites it.
func TestGolden(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWriter(&b, Options{MaxMembers: 2})
	if err != nil {
		t.Fatal(err)
	}
	recs := goldenRecords()
	for _, db := range []int{0, 9} {
		if err := w.BeginDB(db, record.Counts{}); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs[db] {
			if err := r.WriteTo(w); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "records.resp")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("the stream differs from %s:\n%q", golden, b.String())
	}
	// Every command parses back, and there are as many as the Writer counted.
	cmds, err := parseCommands(b.Bytes())
	if err != nil || uint64(len(cmds)) != w.Count() {
		t.Fatalf("%d commands parsed (%v), %d written", len(cmds), err, w.Count())
	}
}

// parseCommands parses a RESP stream of commands: arrays of bulk strings.
func parseCommands(in []byte) ([][][]byte, error) {
	r := bufio.NewReader(bytes.NewReader(in))
	var cmds [][][]byte
	readLen := func(prefix byte) (int, error) {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0, err
		}
		if len(line) < 3 || line[0] != prefix || line[len(line)-2] != '\r' {
			return 0, fmt.Errorf("line %q", line)
		}
		return strconv.Atoi(line[1 : len(line)-2])
	}
	for {
		n, err := readLen('*')
		if errors.Is(err, io.EOF) {
			return cmds, nil
		}
		if err != nil {
			return cmds, err
		}
		var args [][]byte
		for range n {
			size, err := readLen('$')
			if err != nil {
				return cmds, err
			}
			arg := make([]byte, size+2)
			if _, err := io.ReadFull(r, arg); err != nil || !bytes.HasSuffix(arg, []byte("\r\n")) {
				return cmds, fmt.Errorf("bulk of %d bytes: %v", size, err)
			}
			args = append(args, arg[:size])
		}
		cmds = append(cmds, args)
	}
}

// FuzzWriter writes a string and a set of arbitrary bytes: the stream parses back to the
// very arguments, however the members are split into commands.
func FuzzWriter(f *testing.F) {
	f.Add([]byte("k"), []byte("v"), []byte("a\x00b\r\nc"), 2)
	f.Fuzz(func(t *testing.T, key, value, members []byte, maxMembers int) {
		var b bytes.Buffer
		w, err := NewWriter(&b, Options{MaxMembers: int(uint(maxMembers)%8) + 1, MaxBytes: 16})
		if err != nil {
			t.Fatal(err)
		}
		parts := bytes.Split(members, []byte(","))
		_ = w.Begin(&record.Header{Key: key, Type: record.String, Value: value})
		_ = w.Begin(&record.Header{Key: key, Type: record.Set, Len: uint64(len(parts))})
		for _, m := range parts {
			_ = w.Add(&record.Member{Name: m})
		}
		_ = w.End(nil)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		cmds, err := parseCommands(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) < 3 || !bytes.Equal(cmds[0][1], key) || !bytes.Equal(cmds[0][2], value) || string(cmds[1][0]) != "DEL" {
			t.Fatalf("commands %q", cmds)
		}
		var got [][]byte
		for _, c := range cmds[2:] {
			if string(c[0]) != "SADD" || !bytes.Equal(c[1], key) || len(c) < 3 {
				t.Fatalf("command %q", c)
			}
			got = append(got, c[2:]...)
		}
		if len(got) != len(parts) {
			t.Fatalf("%d members, want %d", len(got), len(parts))
		}
		for i := range got {
			if !bytes.Equal(got[i], parts[i]) {
				t.Fatalf("member %d: %q, want %q", i, got[i], parts[i])
			}
		}
	})
}
