package decoder_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// Byte-level pieces of the dumps of the cases the server reads its own way.
func expMS(v int64) []byte { return append([]byte{0xfc}, le64(uint64(v))...) }
func expS(v int32) []byte  { return binary.LittleEndian.AppendUint32([]byte{0xfd}, uint32(v)) }
func str(k, v string) []byte {
	return cat([]byte{0}, rstr(k), rstr(v))
}
func aux(k, v string) []byte  { return cat([]byte{0xfa}, rstr(k), rstr(v)) }
func selectDB(db byte) []byte { return []byte{0xfe, db} }
func resizeDB(keys, expires byte) []byte {
	return []byte{0xfb, keys, expires}
}

// plainSet is a set of type 2 holding members as they are given.
func plainSet(key string, members ...string) []byte {
	b := cat([]byte{2}, rstr(key), []byte{byte(len(members))})
	for _, m := range members {
		b = append(b, rstr(m)...)
	}
	return b
}

// TestExpiriesAsRedisReads checks the expiries Redis reads its own way (rdb.c,
// rdbLoadRioWithLoadingCtx): -1 is none, 0 and other negative values are expired (a primary
// drops the key at load), and an expiry holds for the next key whatever opcodes come
// between.
func TestExpiriesAsRedisReads(t *testing.T) {
	cases := []struct {
		name    string
		objects [][]byte
		want    []string
	}{
		{"ms 0", [][]byte{expMS(0), str("k", "v")}, []string{`db0 "k" string exp=1 "v"`}},
		{"s 0", [][]byte{expS(0), str("k", "v")}, []string{`db0 "k" string exp=1 "v"`}},
		{"ms -5", [][]byte{expMS(-5), str("k", "v")}, []string{`db0 "k" string exp=1 "v"`}},
		{"s -1 (-1000 ms)", [][]byte{expS(-1), str("k", "v")}, []string{`db0 "k" string exp=1 "v"`}},
		{"ms -1 is none", [][]byte{expMS(-1), str("k", "v")}, []string{`db0 "k" string exp=0 "v"`}},
		{"ms 1", [][]byte{expMS(1), str("k", "v")}, []string{`db0 "k" string exp=1 "v"`}},
		{"before aux", [][]byte{expMS(4102444800000), aux("x", "y"), str("k", "v"), str("n", "v")},
			[]string{`db0 "k" string exp=4102444800000 "v"`, `db0 "n" string exp=0 "v"`}},
		{"before selectdb and resizedb", [][]byte{expMS(4102444800000), selectDB(1), resizeDB(1, 1), str("k", "v"), str("n", "v")},
			[]string{`db1 "k" string exp=4102444800000 "v"`, `db1 "n" string exp=0 "v"`}},
		{"the last of two", [][]byte{expMS(4102444800000), expS(2000000000), str("k", "v")},
			[]string{`db0 "k" string exp=2000000000000 "v"`}},
		{"forgotten after an empty key", [][]byte{expMS(4102444800000), plainSet("e"), str("k", "v")},
			[]string{`db0 "k" string exp=0 "v"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			rd, err := decoder.NewReader(bytes.NewReader(rdbFile("0010", tc.objects...)), decoder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := rd.WriteTo(context.Background(), &rec); err != nil {
				t.Fatal(err)
			}
			diff(t, canonAll(rec.Records), sortStrings(tc.want))
		})
	}
}

// dbSink records BeginDB calls and refuses a db opened twice in a row.
type dbSink struct {
	recorder
	opened []string
}

func (s *dbSink) BeginDB(db int, info record.Counts) error {
	if n := len(s.dbs); n > 0 && s.dbs[n-1] == db {
		return errors.New("db opened again while open")
	}
	s.opened = append(s.opened, string(rune('0'+db))+":"+string(rune('0'+info.Keys)))
	return s.recorder.BeginDB(db, info)
}

// TestSectionsOfADB checks that a SELECTDB of the open db is no new section, that a db
// coming back after another is opened again with that section's hint, and that the hints of
// a db are the sum of its sections'.
func TestSectionsOfADB(t *testing.T) {
	objects := [][]byte{resizeDB(2, 0), str("a", "1"), selectDB(0), resizeDB(5, 0), str("b", "2"),
		selectDB(1), str("c", "3"), selectDB(0), resizeDB(1, 0), str("d", "4")}
	var s dbSink
	rd, err := decoder.NewReader(bytes.NewReader(rdbFile("0010", objects...)), decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteTo(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.opened, " "), "0:2 1:0 0:1"; got != want {
		t.Errorf("BeginDB db:keys %q, want %q", got, want)
	}
	if got := rd.ResizeHints()[0]; got.Keys != 2+5+1 {
		t.Errorf("db 0's hints %+v, want the sum of its sections' keys, 8", got)
	}
	if len(s.Records) != 4 {
		t.Errorf("%d records, want 4", len(s.Records))
	}
}

// TestDeclaredCounts checks that a compact encoding whose header declares another count
// than its entries is an error of the reader, with offset and key, before the sink gets it.
func TestDeclaredCounts(t *testing.T) {
	badLP := lp("f1", "v1", "f2", "v2")
	binary.LittleEndian.PutUint16(badLP[4:], 6)
	badZL := zl("a", "b", "c")
	binary.LittleEndian.PutUint16(badZL[8:], 2)
	badNode := lp("a", "b")
	binary.LittleEndian.PutUint16(badNode[4:], 3)
	cases := []struct {
		name, version string
		object        []byte
	}{
		{"hash listpack", "0010", cat([]byte{16}, rstr("h"), blob(badLP))},
		{"list ziplist", "0006", cat([]byte{10}, rstr("h"), blob(badZL))},
		{"quicklist node", "0010", cat([]byte{18}, rstr("h"), []byte{1, 2}, blob(badNode))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := decoder.NewReader(bytes.NewReader(rdbFile(tc.version, tc.object)), decoder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := rdbsink.NewWriter(&bytes.Buffer{}, encoder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = rd.WriteTo(context.Background(), w)
			var de *decoder.Error
			if !errors.As(err, &de) || !errors.Is(err, decoder.ErrCorrupt) || string(de.Key) != "h" || de.Offset == 0 ||
				!strings.Contains(err.Error(), "header says") {
				t.Fatalf("got %v, want a *decoder.Error at an offset in key \"h\" about the declared count", err)
			}
		})
	}
}

// TestRepeatedMembers checks that a set, sorted set or hash holding a member twice is an
// error naming the key and the member, in every encoding, and that lists may repeat.
func TestRepeatedMembers(t *testing.T) {
	cases := []struct {
		name, version string
		object        []byte
		member        string // "" when the record is good
	}{
		{"plain set", "0009", plainSet("s", "a", "b", "a"), "a"},
		{"listpack set", "0011", cat([]byte{20}, rstr("s"), blob(lp("a", "#7", "#7"))), "7"},
		{"intset", "0009", cat([]byte{11}, rstr("s"), blob(unhex("02000000 03000000 0100 0200 0200"))), "2"},
		{"plain zset", "0009", cat([]byte{5}, rstr("s"), []byte{2}, rstr("m"), le64(0), rstr("m"), le64(0)), "m"},
		{"listpack zset", "0010", cat([]byte{17}, rstr("s"), blob(lp("m", "#1", "m", "#2"))), "m"},
		{"ziplist hash", "0009", cat([]byte{13}, rstr("s"), blob(zl("f", "1", "f", "2"))), "f"},
		{"plain hash", "0009", cat([]byte{4}, rstr("s"), []byte{2}, rstr("f"), rstr("1"), rstr("f"), rstr("2")), "f"},
		{"field-ttl hash", "0012", cat([]byte{24}, rstr("s"), le64(3000), []byte{2, 0}, rstr("f"), rstr("1"), []byte{0}, rstr("f"), rstr("2")), "f"},
		{"list repeats", "0010", cat([]byte{18}, rstr("s"), []byte{1, 2}, blob(lp("a", "a"))), ""},
		{"distinct", "0009", plainSet("s", "a", "b", "c"), ""},
		// Past 8 members, the members are compared by hash.
		{"many distinct", "0009", plainSet("s", setMembers(40)...), ""},
		{"early member past 8", "0009", plainSet("s", setMembers(20, "m2")...), "m2"},
		{"late member past 8", "0009", plainSet("s", setMembers(20, "m15")...), "m15"},
		{"member at the 9th", "0009", plainSet("s", setMembers(8, "m7")...), "m7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			readRepeatedMember(t, rdbFile(tc.version, tc.object), "s", tc.member)
		})
	}
}

// TestRepeatedKeys checks the importer's rules for a key that comes again in its db, across
// sections of the db too; an empty key, which Redis skips, is no first record.
func TestRepeatedKeys(t *testing.T) {
	objects := [][]byte{plainSet("k"), str("k", "1"), str("x", "1"), selectDB(1), str("k", "other db"),
		selectDB(0), expMS(4102444800000), str("k", "2"), str("k", "3")}
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, rdbFile("0010", objects...), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		on   record.OnDuplicate
		want []string
		dups uint64
	}{
		{"", []string{`db0 "k" string exp=0 "1"`, `db0 "x" string exp=0 "1"`, `db1 "k" string exp=0 "other db"`,
			`db0 "k" string exp=4102444800000 "2"`, `db0 "k" string exp=0 "3"`}, 0},
		{record.DupFirst, []string{`db0 "k" string exp=0 "1"`, `db0 "x" string exp=0 "1"`, `db1 "k" string exp=0 "other db"`}, 2},
		{record.DupLast, []string{`db0 "x" string exp=0 "1"`, `db1 "k" string exp=0 "other db"`, `db0 "k" string exp=0 "3"`}, 2},
	}
	for _, tc := range cases {
		t.Run(string(tc.on), func(t *testing.T) {
			var rec recorder
			rd, err := decoder.File{Path: path, Options: decoder.Options{OnDuplicate: tc.on}}.Read(context.Background(), &rec)
			if err != nil {
				t.Fatal(err)
			}
			diff(t, canonAll(rec.Records), sortStrings(tc.want))
			if st := rd.Stats(); st.Duplicates != tc.dups || st.Keys != uint64(len(tc.want)) {
				t.Errorf("stats: %d duplicates, %d keys; want %d, %d", st.Duplicates, st.Keys, tc.dups, len(tc.want))
			}
		})
	}
	t.Run("error", func(t *testing.T) {
		_, err := decoder.File{Path: path, Options: decoder.Options{OnDuplicate: record.DupError}}.Read(context.Background(), &nopSink{})
		var de *decoder.Error
		if !errors.As(err, &de) || !errors.Is(err, record.ErrDuplicateKey) || string(de.Key) != "k" ||
			!strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "--on-duplicate") {
			t.Fatalf("got %v, want record.ErrDuplicateKey naming the file, key \"k\" and --on-duplicate", err)
		}
	})
	t.Run("last needs a file", func(t *testing.T) {
		rd, err := decoder.NewReader(bytes.NewReader(rdbFile("0010", objects...)), decoder.Options{OnDuplicate: record.DupLast})
		if err != nil {
			t.Fatal(err)
		}
		if err := rd.WriteTo(context.Background(), &nopSink{}); !errors.Is(err, decoder.ErrBadOption) {
			t.Fatalf("got %v, want ErrBadOption", err)
		}
	})
}

// TestRepeatedKeyConfirmed checks the error of a key twice in db 1 whose name db 0 holds
// too: the first record named is db 1's, found by reading the file again; a source that
// cannot be read again names the hash match instead. An empty key before its name comes again
// is no first record either way.
func TestRepeatedKeyConfirmed(t *testing.T) {
	head := rdbFile("0010", str("k", "0"), selectDB(1))
	first := int64(len(head) - 9) // the offset of db 1's first "k": after the header bytes, before EOF and checksum
	file := rdbFile("0010", str("k", "0"), selectDB(1), str("k", "1"), plainSet("e"), str("e", "1"), str("k", "2"))
	for _, tc := range []struct {
		name string
		src  func() io.Reader
		want string
	}{
		{"read again", func() io.Reader { return bytes.NewReader(file) }, "in db 1 (its first record at byte " + strconv.FormatInt(first, 10) + ")"},
		{"read once", func() io.Reader { return struct{ io.Reader }{bytes.NewReader(file)} }, "in db 1 (its 64-bit hash matches"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := decoder.NewReader(tc.src(), decoder.Options{OnDuplicate: record.DupError})
			if err != nil {
				t.Fatal(err)
			}
			err = rd.WriteTo(context.Background(), &nopSink{})
			if !errors.Is(err, record.ErrDuplicateKey) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want record.ErrDuplicateKey saying %q", err, tc.want)
			}
		})
	}
}

// readRepeatedMember reads file under DupError: no error when member is "", else
// record.ErrDuplicateMember naming key and member.
func readRepeatedMember(t *testing.T, file []byte, key, member string) {
	t.Helper()
	rd, err := decoder.NewReader(bytes.NewReader(file), decoder.Options{OnDuplicate: record.DupError})
	if err != nil {
		t.Fatal(err)
	}
	err = rd.WriteTo(context.Background(), &nopSink{})
	if member == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	var de *decoder.Error
	if !errors.As(err, &de) || !errors.Is(err, record.ErrDuplicateMember) || string(de.Key) != key ||
		!strings.Contains(err.Error(), `"`+member+`"`) {
		t.Fatalf("got %v, want record.ErrDuplicateMember naming key %q and %q", err, key, member)
	}
}
