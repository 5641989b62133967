package decoder_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// readNewer reads a file in memory with DropNewer set as given.
func readNewer(t *testing.T, file []byte, drop bool) ([]record.Record, *decoder.Reader, error) {
	t.Helper()
	rd, err := decoder.NewReader(strings.NewReader(string(file)), decoder.Options{DropNewer: drop})
	if err != nil {
		return nil, nil, err
	}
	var rec recorder
	err = rd.WriteTo(t.Context(), &rec)
	return rec.Records, rd, err
}

// TestNewerStreams reads Redis 8.6's and 8.8's streams (types 26 and 27): their entries,
// groups, pending entries and consumers into the stream record as type 21's; IDMP metadata
// or a NACK zone refused naming the key and what it holds, or, under DropNewer, dropped and
// counted (NACKed entries leave the group's pending entries).
func TestNewerStreams(t *testing.T) {
	used := rdbfixture.IDMP{Duration: 100, MaxSize: 100, Producers: map[string][]uint64{"p1": {0}, "p2": {1, 2}}, Added: 3, Dups: 1}
	tuned := rdbfixture.IDMP{Duration: 60, MaxSize: 100}
	for _, tc := range []struct {
		name    string
		version int
		st      rdbfixture.NewerStream
		refused string // the error without DropNewer; "" reads
		dropped map[string]uint64
		pel     string // the group's pending entries as canon writes them
	}{
		{name: "v4 plain", version: 13, st: rdbfixture.NewerStream{Type: 26, Entries: 3, Pending: []uint64{1}, Owned: []uint64{1}, IDMP: rdbfixture.DefaultIDMP},
			pel: "1000-1/1,"},
		{name: "v4 producers", version: 13, st: rdbfixture.NewerStream{Type: 26, Entries: 3, IDMP: used},
			refused: "stream idempotent-producer metadata (2 producers tracking 3 ids, 3 ids added, 1 duplicates rejected, duration 100 s, max size 100; RDB type 26)",
			dropped: map[string]uint64{"stream producer metadata": 1}},
		{name: "v4 tuned", version: 13, st: rdbfixture.NewerStream{Type: 26, Entries: 1, IDMP: tuned},
			refused: "duration 60 s", dropped: map[string]uint64{"stream producer metadata": 1}},
		{name: "v5 empty nack zone", version: 14, st: rdbfixture.NewerStream{Type: 27, Entries: 2, Pending: []uint64{0}, Owned: []uint64{0}, IDMP: rdbfixture.DefaultIDMP},
			pel: "1000-0/1,"},
		{name: "v5 nacked", version: 14, st: rdbfixture.NewerStream{Type: 27, Entries: 4, Pending: []uint64{0, 1, 2, 3}, Owned: []uint64{0, 3}, Nacked: []uint64{1, 2}, IDMP: rdbfixture.DefaultIDMP},
			refused: `stream group "g" has a NACK zone of 2 entries (RDB type 27, Redis 8.8)`,
			dropped: map[string]uint64{"stream NACK zone": 1}, pel: "1000-0/1,1000-3/1,"},
		{name: "v5 both", version: 15, st: rdbfixture.NewerStream{Type: 27, Entries: 4, Pending: []uint64{1}, Nacked: []uint64{1}, IDMP: used},
			refused: "NACK zone", dropped: map[string]uint64{"stream NACK zone": 1, "stream producer metadata": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := rdbfixture.File(tc.version, tc.st.Record("s"), rdbfixture.Record(0, "after", rdbfixture.Str("v")))
			recs, rd, err := readNewer(t, file, false)
			if tc.refused != "" {
				if !errors.Is(err, decoder.ErrNewerType) || !strings.Contains(err.Error(), `key "s": `) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("got %v, want ErrNewerType naming key \"s\" and %q", err, tc.refused)
				}
				if recs, rd, err = readNewer(t, file, true); err != nil {
					t.Fatal(err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(rd.Stats().NewerDropped, tc.dropped) {
				t.Errorf("NewerDropped %v, want %v", rd.Stats().NewerDropped, tc.dropped)
			}
			if len(recs) != 2 || recs[0].Type != record.Stream || len(recs[0].Members) != tc.st.Entries {
				t.Fatalf("got %q", canonAll(recs))
			}
			s := recs[0].Stream
			if len(s.Groups) != 1 || len(s.Groups[0].Consumers) != 1 || s.Groups[0].Consumers[0].ActiveTimeMS != 1700000000001 {
				t.Fatalf("groups %+v", s.Groups)
			}
			if tc.pel != "" && !strings.Contains(canon(&recs[0]), "pel="+tc.pel+" consumer") {
				t.Errorf("got %s, want pel=%s", canon(&recs[0]), tc.pel)
			}
			if got := rd.Stats().Types[decoder.TypeName(tc.st.Type)]; got != 1 {
				t.Errorf("Types %v", rd.Stats().Types)
			}
		})
	}
}

// TestNewerStreamCorrupt: a NACK zone that names an entry not pending, owned, or twice is
// damage; the types are unknown in a file older than their version.
func TestNewerStreamCorrupt(t *testing.T) {
	d := rdbfixture.DefaultIDMP
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"not pending", rdbfixture.File(14, rdbfixture.NewerStream{Type: 27, Entries: 2, Pending: []uint64{0}, Owned: []uint64{0}, Nacked: []uint64{1}, IDMP: d}.Record("s")), "NACKed entry 1000-1 is not in the group's pending entries"},
		{"owned", rdbfixture.File(14, rdbfixture.NewerStream{Type: 27, Entries: 2, Pending: []uint64{0}, Owned: []uint64{0}, Nacked: []uint64{0}, IDMP: d}.Record("s")), "NACKed entry 1000-0 has a consumer"},
		{"twice", rdbfixture.File(14, rdbfixture.NewerStream{Type: 27, Entries: 2, Pending: []uint64{0}, Nacked: []uint64{0, 0}, IDMP: d}.Record("s")), "NACKed entry 1000-0 twice"},
		{"unowned, not nacked", rdbfixture.File(14, rdbfixture.NewerStream{Type: 27, Entries: 2, Pending: []uint64{0, 1}, Nacked: []uint64{0}, IDMP: d}.Record("s")), "pending entry 1000-1 has no consumer"},
		{"type 26 in RDB 12", rdbfixture.File(12, rdbfixture.NewerStream{Type: 26, Entries: 1, IDMP: d}.Record("s")), "unknown value type 26"},
		{"type 27 in RDB 13", rdbfixture.File(13, rdbfixture.NewerStream{Type: 27, Entries: 1, IDMP: d}.Record("s")), "unknown value type 27"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readNewer(t, tc.file, true)
			if !errors.Is(err, decoder.ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrCorrupt containing %q", err, tc.want)
			}
		})
	}
}

// TestKeyMeta reads opcode 243 (RDB 13+): a key with module metadata is refused naming the
// key and the classes, or read without them under DropNewer, each class counted; the expiry
// before the opcode still applies to the key.
func TestKeyMeta(t *testing.T) {
	const at = 4102444800000
	file := rdbfixture.File(13,
		rdbfixture.Expiring(at, append(rdbfixture.KeyMeta("KMT1", "ab_-"), rdbfixture.Record(0, "k", rdbfixture.Str("v"))...)),
		rdbfixture.KeyMeta("KMT1"), rdbfixture.Record(0, "k2", rdbfixture.Str("w")),
		rdbfixture.Record(0, "plain", rdbfixture.Str("x")))
	_, _, err := readNewer(t, file, false)
	want := `key "k": decoder: a value of a newer format that rdbgen cannot carry: module key metadata META-KMT1 (version 1), META-ab_- (version 1) (opcode 243, Redis 8.6)`
	if !errors.Is(err, decoder.ErrNewerType) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	recs, rd, err := readNewer(t, file, true)
	if err != nil {
		t.Fatal(err)
	}
	got := canonAll(recs)
	diff(t, got, []string{`db0 "k" string exp=4102444800000 "v"`, `db0 "k2" string exp=0 "w"`, `db0 "plain" string exp=0 "x"`})
	if want := map[string]uint64{"key metadata META-KMT1": 2, "key metadata META-ab_-": 1}; !maps.Equal(rd.Stats().NewerDropped, want) {
		t.Errorf("NewerDropped %v, want %v", rd.Stats().NewerDropped, want)
	}
	for _, tc := range []struct {
		name string
		file []byte
		is   error
		want string
	}{
		{"RDB 12", rdbfixture.File(12, rdbfixture.KeyMeta("KMT1"), rdbfixture.Record(0, "k", rdbfixture.Str("v"))), decoder.ErrCorrupt, "unknown opcode 243"},
		{"no classes", rdbfixture.File(13, []byte{243, 0}, rdbfixture.Record(0, "k", rdbfixture.Str("v"))), decoder.ErrCorrupt, "key metadata of 0 classes"},
		{"twice", rdbfixture.File(13, rdbfixture.KeyMeta("KMT1"), rdbfixture.KeyMeta("KMT2"), rdbfixture.Record(0, "k", rdbfixture.Str("v"))), decoder.ErrCorrupt, "key metadata twice"},
		{"bad opcode", rdbfixture.File(13, []byte{243, 1, 0, 0, 0, 0, 9}), decoder.ErrCorrupt, "key metadata META-AAAA (version 0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readNewer(t, tc.file, true)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %v containing %q", err, tc.is, tc.want)
			}
		})
	}
}

// TestKeyMetaClass decodes class specs as keymeta.c encodes them.
func TestKeyMetaClass(t *testing.T) {
	for _, tc := range []struct {
		name         string
		ver, flags   uint32
		wantV, wantF int
	}{{"KMT1", 1, 0, 1, 0}, {"AAAA", 0, 0, 0, 0}, {"----", 31, 7, 31, 7}, {"a_9Z", 17, 5, 17, 5}} {
		name, v, f := decoder.KeyMetaClass(rdbfixture.KeyMetaSpec(tc.name, tc.ver, tc.flags))
		if name != tc.name || v != tc.wantV || int(f) != tc.wantF {
			t.Errorf("%s/%d/%d: got %s/%d/%d", tc.name, tc.ver, tc.flags, name, v, f)
		}
	}
}
