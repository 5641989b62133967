package decoder_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/server"
)

// intset returns an intset of width bytes holding vals as they are, sorted or not.
func intset(width int, vals ...int64) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(width))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vals)))
	for _, v := range vals {
		switch width {
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		case 4:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		default:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
	}
	return b
}

// patched returns b with the byte at i set to v.
func patched(b []byte, i int, v byte) []byte {
	b = bytes.Clone(b)
	b[i] = v
	return b
}

// blob returns a record of type t whose value is the string b.
func packRecord(t byte, b []byte) []byte { return fx.Record(t, "k", fx.Str(string(b))) }

// sanitizeCases are files that Redis's deep sanitization refuses (refused), or loads, each
// with the damage the reader must report (want), "" for a sound file; a few the reader
// refuses though Redis loads them.
var sanitizeCases = []struct {
	name    string
	file    []byte
	want    string
	refused bool // by Redis 7.0 with sanitize-dump-payload yes
}{
	{"hash listpack", fx.File(10, packRecord(16, fx.Listpack(-1, "f1", "v1", "f2", "v2"))), "", false},
	{"hash listpack header says more", fx.File(10, packRecord(16, fx.Listpack(6, "f1", "v1", "f2", "v2"))), "listpack: its header says 6 entries, it holds 4", true},
	{"hash listpack header says fewer", fx.File(10, packRecord(16, fx.Listpack(2, "f1", "v1", "f2", "v2"))), "listpack: its header says 2 entries, it holds 4", true},
	{"hash listpack header says none", fx.File(10, packRecord(16, fx.Listpack(0, "f1", "v1"))), "its header says 0 entries", true},
	{"listpack entry of 16383 bytes", fx.File(10, packRecord(16, fx.Listpack(-1, "f", strings.Repeat("v", 16383-5)))), "", false},
	{"listpack back-length", fx.File(10, packRecord(16, patched(fx.Listpack(-1, "f", "v"), 8, 3))), "back-length of the entry at byte 6", true},
	{"zset ziplist", fx.File(9, packRecord(12, fx.Ziplist(-1, "m", "1", "n", "2"))), "", false},
	{"zset ziplist header says fewer", fx.File(9, packRecord(12, fx.Ziplist(2, "m", "1", "n", "2"))), "ziplist: its header says 2 entries, it holds 4", true},
	{"ziplist prevlen", fx.File(9, packRecord(13, patched(fx.Ziplist(-1, "f", "v"), 13, 4))), "says the one before has 4 bytes, not 3", true},
	{"ziplist tail", fx.File(9, packRecord(13, patched(fx.Ziplist(-1, "f", "v"), 4, 10))), "tail offset 10 is not its last entry's, 13", true},
	{"intset", fx.File(9, packRecord(11, intset(2, -1, 5, 300))), "", false},
	{"intset not ascending", fx.File(9, packRecord(11, intset(2, 5, 3))), "intset: 3 after 5, not ascending", true},
	{"intset twice", fx.File(9, packRecord(11, intset(4, 7, 7))), `intset: record: duplicate member "7"`, true},
	{"intset empty", fx.File(9, packRecord(11, intset(8))), "corrupt intset", true},
	{"NaN binary score", fx.File(9, fx.Record(5, "k", fx.Len(1), fx.Str("m"), binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN())))), "NaN", true},
	{"NaN ascii score", fx.File(7, fx.Record(3, "k", fx.Len(1), fx.Str("m"), []byte{253})), "NaN", true},
	{"stream", fx.File(10, fx.Stream{Entries: 2, Pending: []uint64{1}, Owned: []uint64{1}}.Record("k")), "", false},
	{"consumer owns an id not pending", fx.File(10, fx.Stream{Entries: 2, Pending: []uint64{1}, Owned: []uint64{0}}.Record("k")),
		`consumer "c" owns 1000-0, which is not in the group's pending entries`, true},
	{"pending entry without consumer", fx.File(10, fx.Stream{Entries: 2, Pending: []uint64{0, 1}, Owned: []uint64{1}}.Record("k")),
		`pending entry 1000-0 has no consumer`, true},
	// Stricter than Redis, which loads these: ids that do not ascend break XRANGE and XADD,
	// and a NaN score breaks the order of a sorted set (no command can write either).
	{"stream ids not ascending", fx.File(10, fx.Stream{Entries: 2, Swap: true}.Record("k")), "entry 1000-0 after 1000-1: ids must ascend", false},
	{"NaN listpack score", fx.File(10, packRecord(17, fx.Listpack(-1, "m", "nan"))), "NaN", false},
	{"stream lp-count", fx.File(10, fx.Stream{Entries: 2, LPCount: 5}.Record("k")), "lp-count 5 does not match its 1 fields", true},
}

// TestSanitizeRules reads each sanitizeCases file: the damage is an error naming the key,
// and the offset, wrapping ErrCorrupt; a sound file reads.
func TestSanitizeRules(t *testing.T) {
	for _, tt := range sanitizeCases {
		rd, err := decoder.NewReader(bytes.NewReader(tt.file), decoder.Options{})
		if err == nil {
			err = rd.WriteTo(context.Background(), &recorder{})
		}
		var de *decoder.Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (!errors.Is(err, decoder.ErrCorrupt) || !errors.As(err, &de) || string(de.Key) != "k" || de.Offset == 0 ||
			!strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want ErrCorrupt at key \"k\" with %q", tt.name, err, tt.want)
		}
	}
}

// TestSanitizeRulesRedis loads each sanitizeCases file into Redis with
// sanitize-dump-payload yes: it refuses what the reader refuses (but for the few rules it
// does not check), and loads the others.
func TestSanitizeRulesRedis(t *testing.T) {
	bin := redistest.RedisServer(t)
	for _, tt := range sanitizeCases {
		path := filepath.Join(t.TempDir(), "dump.rdb")
		if err := os.WriteFile(path, tt.file, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess, RedisServer: bin, Args: []string{"--sanitize-dump-payload", "yes"}})
		cancel()
		if err == nil {
			if err := inst.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		switch {
		case tt.refused && !errors.Is(err, server.ErrLoadRefused):
			t.Errorf("%s: Redis: %v, want a refusal", tt.name, err)
		case !tt.refused && err != nil:
			t.Errorf("%s: Redis: %v", tt.name, err)
		}
	}
}
