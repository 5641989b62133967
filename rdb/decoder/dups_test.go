package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// keyFile writes a file of distinct keys (k0 to k{n-1} in db 0, k0 in db 1, an empty set
// "e" then a string "e" in db 0), and, with again, k7 again at its end. It returns the
// path and the offset of k7's first record.
func keyFile(t *testing.T, n int, again bool) (string, int64) {
	t.Helper()
	objects := [][]byte{plainSet("e"), str("e", "1")}
	first := int64(-1)
	for i := range n {
		if i == 7 {
			first = int64(len(rdbFile("0010", objects...))) - 9 // less EOF and checksum
		}
		objects = append(objects, str("k"+strconv.Itoa(i), "first"))
	}
	objects = append(objects, selectDB(1), str("k0", "db 1"), selectDB(0))
	if again {
		objects = append(objects, str("k7", "again"))
	}
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, rdbFile("0010", objects...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, first
}

// dupRead is one way of reading a file under OnDuplicate.
type dupRead struct {
	name  string
	on    record.OnDuplicate
	first bool // CheckKeysFirst
	once  bool // a Reader over bytes.Reader (read again to confirm), not a File
}

var dupReads = []dupRead{
	{"error, File", record.DupError, false, false},
	{"error, Reader", record.DupError, false, true},
	{"error, CheckKeysFirst", record.DupError, true, false},
	{"first", record.DupFirst, false, false},
	{"last", record.DupLast, false, false},
}

func (r dupRead) read(ctx context.Context, path string, sink record.Sink) (*decoder.Reader, error) {
	opts := decoder.Options{OnDuplicate: r.on, CheckKeysFirst: r.first}
	if !r.once {
		return decoder.File{Path: path, Options: opts}.Read(ctx, sink)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rd, err := decoder.NewReader(bytes.NewReader(b), opts)
	if err != nil {
		return nil, err
	}
	return rd, rd.WriteTo(ctx, sink)
}

// TestRepeatedKeysSharingHashes makes keys share their hashes (all of them, or half, or
// none) and the hash log spill and check in rounds (tiny buffers and tables): distinct keys
// are never reported, a key that comes again is, in every mode, and the error names its
// first record.
func TestRepeatedKeysSharingHashes(t *testing.T) {
	for _, mask := range []uint64{0, 1, ^uint64(0)} {
		for _, tiny := range []bool{false, true} {
			t.Run(fmt.Sprintf("mask %x tiny %v", mask, tiny), func(t *testing.T) {
				defer decoder.SetKeyMask(mask)()
				if tiny {
					defer decoder.SetLogSizes(2, 4)()
				}
				testRepeatedKeys(t)
			})
		}
	}
}

func testRepeatedKeys(t *testing.T) {
	const n = 300
	distinct, _ := keyFile(t, n, false)
	repeated, first := keyFile(t, n, true)
	ctx := context.Background()
	for _, r := range dupReads {
		t.Run(r.name, func(t *testing.T) {
			var rec recorder
			rd, err := r.read(ctx, distinct, &rec)
			if err != nil {
				t.Fatalf("distinct keys: %v", err)
			}
			if st := rd.Stats(); len(rec.Records) != n+2 || st.Keys != n+2 || st.Duplicates != 0 {
				t.Fatalf("distinct keys: %d records, stats %+v; want %d", len(rec.Records), st, n+2)
			}
			rec = recorder{}
			rd, err = r.read(ctx, repeated, &rec)
			if r.on == record.DupError {
				var de *decoder.Error
				want := fmt.Sprintf("duplicate key in db 0 (its first record at byte %d)", first)
				if !errors.As(err, &de) || !errors.Is(err, record.ErrDuplicateKey) || string(de.Key) != "k7" || !strings.Contains(err.Error(), want) {
					t.Fatalf("got %v, want record.ErrDuplicateKey naming \"k7\" and saying %q", err, want)
				}
				if r.first && len(rec.Records) != 0 {
					t.Errorf("CheckKeysFirst: %d records passed on before the error", len(rec.Records))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := map[record.OnDuplicate]string{record.DupFirst: "first", record.DupLast: "again"}[r.on]
			var got []string
			for _, rc := range rec.Records {
				if string(rc.Key) == "k7" {
					got = append(got, string(rc.Value))
				}
			}
			if st := rd.Stats(); len(got) != 1 || got[0] != want || st.Duplicates != 1 || st.Keys != n+2 {
				t.Fatalf("k7 passed on as %q, stats %+v; want once as %q, 1 duplicate", got, st, want)
			}
		})
	}
}

// TestHashLogTempFile checks that the hash log, with tiny buffers, keeps the hashes in a
// temporary file in $TMPDIR while the file is read (of its keys, or of the members of a
// large set), and removes it when the reading succeeds, fails on a repeated key or member,
// or is cancelled.
func TestHashLogTempFile(t *testing.T) {
	defer decoder.SetLogSizes(4, 1<<16)()
	defer decoder.SetLoggedMembers(16)()
	const n = 5000
	distinct, _ := keyFile(t, n, false)
	repeated, _ := keyFile(t, n, true)
	bigSet := func(extra ...string) string {
		path := filepath.Join(t.TempDir(), "set.rdb")
		if err := os.WriteFile(path, rdbFile("0009", bigCollection(2, setMembers(n, extra...))), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	distinctSet, repeatedSet := bigSet(), bigSet("m5")
	cases := []struct {
		name     string
		path     string
		r        dupRead
		cancelAt int // cancel at this record, 0 never
		want     error
	}{
		{"success", distinct, dupReads[0], 0, nil},
		{"repeated key", repeated, dupReads[0], 0, record.ErrDuplicateKey},
		{"cancelled", distinct, dupReads[0], 100, context.Canceled},
		{"first", repeated, dupReads[3], 0, nil},
		{"repeated key, CheckKeysFirst", repeated, dupReads[2], 0, record.ErrDuplicateKey},
		{"set, success", distinctSet, dupReads[0], 0, nil},
		{"set, repeated member", repeatedSet, dupReads[0], 0, record.ErrDuplicateMember},
		{"set, cancelled", distinctSet, dupReads[0], 4000, context.Canceled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("TMPDIR", dir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sink := &tempWatch{dir: dir, at: 3000, cancelAt: tc.cancelAt, cancel: cancel}
			_, err := tc.r.read(ctx, tc.path, sink)
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if tc.r.on == record.DupError && !tc.r.first && !sink.found {
				t.Errorf("no temporary file in $TMPDIR at record %d", sink.at)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left in $TMPDIR: %v", left)
			}
		})
	}
}

// tempWatch is a sink that looks for a hash log's file in dir at record (or set member)
// at, and cancels at record (or member) cancelAt.
type tempWatch struct {
	nopSink
	dir      string
	n, at    int
	cancelAt int
	cancel   func()
	found    bool
}

func (s *tempWatch) Begin(h *record.Header) error {
	if h.Type == record.String {
		return s.tick()
	}
	return nil
}

func (s *tempWatch) Add(*record.Member) error { return s.tick() }

func (s *tempWatch) tick() error {
	s.n++
	if s.n == s.cancelAt {
		s.cancel()
	}
	if s.n == s.at {
		files, _ := filepath.Glob(filepath.Join(s.dir, "rdbgen-*"))
		s.found = len(files) > 0
	}
	return nil
}

// setMembers returns the members m0 to m{n-1}, then extra.
func setMembers(n int, extra ...string) []string {
	var m []string
	for i := range n {
		m = append(m, "m"+strconv.Itoa(i))
	}
	return append(m, extra...)
}
