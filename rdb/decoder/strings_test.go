package decoder_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// traceSink writes down every call a Reader makes, with the Reader's offsets at each Begin
// of a string and each End.
type traceSink struct {
	rd     *decoder.Reader // nil: no offsets
	lines  []string
	failAt int  // Begin returns errSinkStop at this record (1-based), 0 never
	values bool // Add writes down a member's value, score and expiry too
}

var errSinkStop = errors.New("the sink stops")

func (s *traceSink) at() string {
	if s.rd == nil {
		return ""
	}
	return fmt.Sprintf(" @%d-%d/%d", s.rd.RecordOffset(), s.rd.Offset(), s.rd.RecordType())
}

func (s *traceSink) BeginDB(db int, c record.Counts) error {
	s.lines = append(s.lines, fmt.Sprintf("db %d %+v", db, c))
	return nil
}

func (s *traceSink) Begin(h *record.Header) error {
	line := fmt.Sprintf("begin %q %s %q len=%d exp=%d", h.Key, h.Type, h.Value, h.Len, h.ExpireAtMS)
	if h.Type == record.String {
		line += s.at()
	}
	s.lines = append(s.lines, line)
	if s.failAt > 0 && len(s.lines) >= s.failAt {
		return errSinkStop
	}
	return nil
}

func (s *traceSink) Add(m *record.Member) error {
	line := fmt.Sprintf("add %q", m.Name)
	if s.values {
		line += fmt.Sprintf(" %q %g %d", m.Value, m.Score, m.ExpireAtMS)
	}
	s.lines = append(s.lines, line)
	return nil
}

func (s *traceSink) End(*record.StreamTail) error {
	s.lines = append(s.lines, "end"+s.at())
	return nil
}

func (s *traceSink) WriteFunction([]byte) error             { return nil }
func (s *traceSink) WriteModuleAux(*record.ModuleAux) error { return nil }

// stringsFile is a dump of n records, mostly strings in increasing key order, keys and
// values of one length byte or two, with what the fast path leaves to the general one
// among them (values of 16384 bytes and more, integers, sets, expiries in seconds, AUX
// fields between an expiry and its key, databases left and taken up again) and expiries
// in ms of every kind (none, past, -1). With breakAt > 0, record breakAt has a key out of
// order, and record again has the key of record again/2.
func stringsFile(n, breakAt, again int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var objs [][]byte
	keys := map[int]string{}
	db := byte(0)
	for i := range n {
		key := fmt.Sprintf("k%08d", i)
		switch {
		case i == breakAt && breakAt > 0:
			key = "a" + key
		case i == again && breakAt > 0:
			key = keys[again/2]
		}
		keys[i] = key
		value := strings.Repeat("v", r.IntN(40))
		switch r.IntN(50) {
		case 0:
			value = strings.Repeat("w", 64+r.IntN(100))
		case 1:
			objs = append(objs, expMS(-1))
		case 2:
			objs = append(objs, expMS(0))
		case 3:
			objs = append(objs, expS(1700000000))
		case 4:
			objs = append(objs, expMS(1700000000000), aux("x", "y"))
		case 5:
			objs = append(objs, plainSet(key))
			continue
		case 6:
			objs = append(objs, cat([]byte{0, byte(len(key))}, []byte(key), []byte{0xc0, byte(i)}))
			continue
		case 7:
			db = (db + 1) % 3
			objs = append(objs, selectDB(db))
		case 8:
			key += strings.Repeat("x", 50+r.IntN(30)) // still in order
		case 9:
			value = strings.Repeat("z", 16300+r.IntN(200)) // a length of two bytes or five
		}
		if r.IntN(3) == 0 {
			objs = append(objs, expMS(1700000000000+int64(i)))
		}
		objs = append(objs, cat([]byte{0}, rawStr(key), rawStr(value)))
	}
	return rdbFile("0010", objs...)
}

// rawStr is a raw RDB string, its length in one, two or five bytes.
func rawStr(s string) []byte {
	switch {
	case len(s) < 64:
		return rstr(s)
	case len(s) < 16384:
		return append([]byte{0x40 | byte(len(s)>>8), byte(len(s))}, s...)
	}
	return append(binary.BigEndian.AppendUint32([]byte{0x80}, uint32(len(s))), s...)
}

// TestStringsFastPath reads dumps of strings, read by the fast path where it can, in every
// mode of OnDuplicate and with a sink that stops, with the fast path on and off: the calls,
// the offsets, the progress, the stats and the error are the same.
func TestStringsFastPath(t *testing.T) {
	const n = 40000
	dir := t.TempDir()
	files := map[string][]byte{
		"in order":         stringsFile(n, 0, 0),
		"broken, repeated": stringsFile(n, n/3, n-10),
		"broken early":     stringsFile(n, 1, n/2),
	}
	type mode struct {
		name   string
		on     record.OnDuplicate
		first  bool
		file   bool // read by File: no offsets
		once   bool // read from a source that cannot be read again
		failAt int
	}
	modes := []mode{
		{name: "no check"},
		{name: "no check, sink stops", failAt: 25001},
		{name: "error", on: record.DupError},
		{name: "error, sink stops", on: record.DupError, failAt: 30001},
		{name: "error, read once", on: record.DupError, once: true},
		{name: "error, keys first", on: record.DupError, first: true, file: true},
		{name: "first", on: record.DupFirst, file: true},
		{name: "last", on: record.DupLast, file: true},
	}
	read := func(t *testing.T, path string, m mode) []string {
		var progress []string
		opts := decoder.Options{BufferSize: 64 << 10, OnDuplicate: m.on, CheckKeysFirst: m.first,
			Progress: func(p record.Progress) { progress = append(progress, fmt.Sprintf("progress %+v", p)) }}
		sink := &traceSink{failAt: m.failAt}
		var rd *decoder.Reader
		var err error
		if m.file {
			rd, err = decoder.File{Path: path, Options: opts}.Read(context.Background(), sink)
		} else {
			f, ferr := os.Open(path)
			if ferr != nil {
				t.Fatal(ferr)
			}
			defer f.Close()
			var src io.Reader = f
			if m.once {
				src = io.MultiReader(f) // no io.ReaderAt
			}
			if rd, err = decoder.NewReader(src, opts); err != nil {
				t.Fatal(err)
			}
			sink.rd = rd
			err = rd.WriteTo(context.Background(), sink)
		}
		out := append(sink.lines, progress...)
		if rd != nil {
			out = append(out, fmt.Sprintf("stats %+v", rd.Stats()))
		}
		return append(out, fmt.Sprintf("error %v", err))
	}
	for name, file := range files {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".rdb")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range modes {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				fast := read(t, path, m)
				restore := decoder.SetStringsFast(false)
				slow := read(t, path, m)
				restore()
				if len(fast) < n/2 && !m.first {
					t.Fatalf("%d calls: %.300q", len(fast), fast[len(fast)-1])
				}
				if i := slices.IndexFunc(fast, func(s string) bool { return strings.HasPrefix(s, "error ") }); i != len(fast)-1 {
					t.Fatalf("%.300q", fast[i])
				}
				for i := range max(len(fast), len(slow)) {
					if i >= len(fast) || i >= len(slow) || fast[i] != slow[i] {
						t.Fatalf("call %d: fast path %.300q, general path %.300q", i, at(fast, i), at(slow, i))
					}
				}
				t.Logf("%d calls, %.300s", len(fast), fast[len(fast)-1])
			})
		}
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
