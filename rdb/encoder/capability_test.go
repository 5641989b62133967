package encoder_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/model"
	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// capKey is the key of the capability samples; ListpackEncodings's keys add a suffix.
const capKey = "capability:key"

// capLibrary is the function library of the Functions sample.
var capLibrary = []byte("#!lua name=caplib\nredis.register_function('capf', function() return 1 end)")

// A capabilityCase is what needs one feature, and how to tell from a file whether the
// Writer wrote it with the feature.
type capabilityCase struct {
	needs     rdb.Feature // another feature the records need, 0 for none
	records   []record.Record
	functions [][]byte
	moduleAux []record.ModuleAux
	// held reports whether file, which the Writer wrote without an error, holds the
	// feature; it fails t when the file is neither with nor without it.
	held func(t *testing.T, file []byte) bool
}

func strs(s ...string) [][]byte {
	b := make([][]byte, len(s))
	for i, x := range s {
		b[i] = []byte(x)
	}
	return b
}

// capStream is a stream with what every stream feature adds: metadata (a deleted entry, the
// entries added, a group's entries read) and a consumer's active time.
func capStream() record.Record {
	return record.Record{Key: []byte(capKey), Type: record.Stream,
		Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: strs("a", "1")}, {ID: record.StreamID{Ms: 3}, Fields: strs("b", "3")}},
		Stream: record.StreamTail{
			Meta: record.StreamMeta{MaxDeletedID: record.StreamID{Ms: 2}, EntriesAdded: 3},
			Groups: []record.StreamGroup{{Name: []byte("g"), LastID: record.StreamID{Ms: 3}, EntriesRead: 3,
				Pending: []record.StreamPending{{ID: record.StreamID{Ms: 1}, DeliveryTimeMS: 1700000000000, DeliveryCount: 2}},
				Consumers: []record.StreamConsumer{{Name: []byte("c"), SeenTimeMS: 1700000000000, ActiveTimeMS: 1700000000500,
					Pending: []record.StreamID{{Ms: 1}}}}}},
		}}
}

// capabilityCases holds one case per feature: TestCapabilitiesCovered fails for a feature
// without one.
// capModule is the module id of the module cases: "rdbgen-mt" at encoding version 1.
var capModule, _ = record.ModuleID("rdbgen-mt", 1)

var capabilityCases = map[rdb.Feature]capabilityCase{
	rdb.BinaryScores: {
		records: []record.Record{zsetOf(capKey, 200)}, // beyond the listpack's 128
		held:    typeOf(capKey, 5, 3),
	},
	rdb.Streams: {
		records: []record.Record{capStream()},
		held: func(t *testing.T, file []byte) bool {
			return slices.Contains([]byte{15, 19, 21}, recordType(t, file, capKey))
		},
	},
	rdb.StreamMetadata: {
		needs:   rdb.Streams,
		records: []record.Record{capStream()},
		held: func(t *testing.T, file []byte) bool {
			s := parse(t, file)[capKey].(*model.StreamObject)
			meta := s.MaxDeletedId != nil && *s.MaxDeletedId == model.StreamId{Ms: 2} && s.AddedEntriesCount == 3
			if read := s.Groups[0].EntriesRead == 3; read != meta {
				t.Errorf("max deleted id %v, entries added %d, entries read %d: some of the metadata written, not all",
					s.MaxDeletedId, s.AddedEntriesCount, s.Groups[0].EntriesRead)
			}
			return meta
		},
	},
	rdb.ModuleValues: {
		records: []record.Record{{Key: []byte(capKey), Type: record.Module, ModuleID: capModule, Value: []byte{2, 5, 0}}},
		held:    func(t *testing.T, file []byte) bool { return recordType(t, file, capKey) == 7 },
	},
	rdb.ModuleAux: {
		moduleAux: []record.ModuleAux{{ModuleID: capModule, When: record.ModuleAuxBefore, Value: []byte{5, 1, 'x', 0}}},
		held: func(t *testing.T, file []byte) bool {
			return bytes.Contains(file, encoder.AppendModuleObject([]byte{0xf7}, capModule, []byte{2, 1, 5, 1, 'x', 0}))
		},
	},
	rdb.Functions: {
		functions: [][]byte{capLibrary},
		held: func(t *testing.T, file []byte) bool {
			n := len(capLibrary) // under 1<<14: the two-byte length
			return bytes.Contains(file, append([]byte{0xf5, 0x40 | byte(n>>8), byte(n)}, capLibrary...))
		},
	},
	rdb.ListpackEncodings: {
		records: []record.Record{
			{Key: []byte(capKey + ":h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}},
			zsetOf(capKey+":z", 2),
			{Key: []byte(capKey + ":l"), Type: record.List, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}},
		},
		held: func(t *testing.T, file []byte) bool {
			h := typeOf(capKey+":h", 16, 13)(t, file)
			if z, l := typeOf(capKey+":z", 17, 12)(t, file), typeOf(capKey+":l", 18, 14)(t, file); z != h || l != h {
				t.Errorf("listpacks: hash %v, sorted set %v, list %v", h, z, l)
			}
			return h
		},
	},
	rdb.PlainListNodes: {
		// Over the default node size of 8 KiB.
		records: []record.Record{{Key: []byte(capKey), Type: record.List, Members: []record.Member{{Name: []byte("a")}, {Name: bytes.Repeat([]byte("b"), 8193)}}}},
		held: func(t *testing.T, file []byte) bool {
			// The parser lists the entry sizes of packed nodes alone (its NodeEncodings says
			// plain for every node).
			detail, ok := parse(t, file)[capKey].(*model.ListObject).Extra.(*model.Quicklist2Detail)
			return ok && len(detail.ListPackEntrySize) < len(detail.NodeEncodings)
		},
	},
	rdb.ConsumerActiveTime: {
		needs:   rdb.Streams,
		records: []record.Record{capStream()},
		held: func(t *testing.T, file []byte) bool {
			return parse(t, file)[capKey].(*model.StreamObject).Groups[0].Consumers[0].ActiveTime == 1700000000500
		},
	},
	rdb.SetListpack: {
		records: []record.Record{{Key: []byte(capKey), Type: record.Set, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}}},
		held:    typeOf(capKey, 20, 2),
	},
	rdb.HashFieldTTL: {
		records: []record.Record{{Key: []byte(capKey), Type: record.Hash,
			Members: []record.Member{{Name: []byte("f"), Value: []byte("v"), ExpireAtMS: 4102444800000}, {Name: []byte("g"), Value: []byte("w")}}}},
		held: typeOf(capKey, 25, 16),
	},
}

func zsetOf(key string, n int) record.Record {
	r := record.Record{Key: []byte(key), Type: record.ZSet}
	for i := range n {
		r.Members = append(r.Members, record.Member{Name: fmt.Appendf(nil, "m%d", i), Score: float64(i) / 4})
	}
	return r
}

// formats returns the options of every target at every RDB version it loads that the
// Writer writes.
func formats() []encoder.Options {
	var opts []encoder.Options
	for _, t := range rdb.Targets() {
		for v := rdb.MinVersion; v <= t.RDBVersion; v++ {
			opts = append(opts, encoder.Options{Target: t.Name, RDBVersion: v})
		}
	}
	return opts
}

// writeCase writes c's records and libraries in one file under opts.
func writeCase(opts encoder.Options, c capabilityCase) ([]byte, error) {
	var buf bytes.Buffer
	opts.CreatedAt, opts.DisableCompression = time.Unix(1700000000, 0), true
	w, err := rdbsink.NewWriter(&buf, opts)
	if err != nil {
		return nil, err
	}
	for _, code := range c.functions {
		if err := w.WriteFunction(code); err != nil {
			return nil, err
		}
	}
	for i := range c.moduleAux {
		if err := w.WriteModuleAux(&c.moduleAux[i]); err != nil {
			return nil, err
		}
	}
	if err := w.BeginDB(0, record.Counts{}); err != nil {
		return nil, err
	}
	for i := range c.records {
		if err := c.records[i].WriteTo(w); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TestCapabilities writes, for every target at every RDB version it loads, what needs each
// feature, and checks the Writer against the table: a record that needs a feature the
// table says the file cannot hold is refused (a CannotHoldError naming the feature and what
// needs it), and the file holds every other feature iff the table says it can.
func TestCapabilities(t *testing.T) {
	for _, opts := range formats() {
		caps, err := opts.Check()
		if err != nil {
			t.Fatalf("%s at RDB %d: %v", opts.Target, opts.RDBVersion, err)
		}
		for _, f := range rdb.Features() {
			t.Run(fmt.Sprintf("%s/v%d/%s", opts.Target, opts.RDBVersion, f), func(t *testing.T) {
				c := capabilityCases[f]
				file, err := writeCase(opts, c)
				can := caps.Can(f)
				if c.records != nil {
					// What the Writer refuses, Check refuses with the same error.
					h := c.records[0].Header()
					if checked := rdbsink.Check(caps, &h); fmt.Sprint(checked) != fmt.Sprint(errors.Unwrap(err)) {
						t.Errorf("Check: %v; the Writer: %v", checked, err)
					}
				}
				var cannot *rdb.CannotHoldError
				switch {
				case c.needs != 0 && !caps.Can(c.needs):
					if !errors.As(err, &cannot) || cannot.Feature != c.needs {
						t.Fatalf("the table says the file cannot hold %s: got %v, want a CannotHoldError for it", c.needs, err)
					}
				case f.Refused() && !can:
					if !errors.Is(err, rdb.ErrCannotHold) || !errors.As(err, &cannot) || cannot.Feature != f {
						t.Fatalf("the table says the file cannot hold it: got %v, want a CannotHoldError for %s", err, f)
					}

					what := `"` + capKey + `"`
					if c.functions != nil {
						what = `"caplib"`
					}
					if c.moduleAux != nil {
						what = `"rdbgen-mt"`
					}
					if !strings.Contains(err.Error(), what) || !strings.Contains(err.Error(), fmt.Sprint("RDB ", f.Since())) {
						t.Errorf("%v: want the message to name %s and RDB %d", err, what, f.Since())
					}
				case err != nil:
					t.Fatalf("the table says the file can hold it, or write it otherwise: %v", err)

				case c.held(t, file) != can:
					t.Errorf("the file holds it: %v; the table says %v", !can, can)
				}
			})
		}
	}
}

// TestDropFieldTTL checks that with DropFieldTTL a hash with field TTLs is written with them
// where the table says the file holds them, and else as a plain hash without them.
func TestDropFieldTTL(t *testing.T) {
	c := capabilityCases[rdb.HashFieldTTL]
	for _, opts := range formats() {
		opts.DropFieldTTL = true
		caps, err := opts.Check()
		if err != nil {
			t.Fatal(err)
		}
		h := c.records[0].Header()
		if err := rdbsink.Check(caps, &h); err != nil {
			t.Errorf("%s at RDB %d: Check: %v", opts.Target, opts.RDBVersion, err)
		}
		file, err := writeCase(opts, c)
		if err != nil {
			t.Fatalf("%s at RDB %d: %v", opts.Target, opts.RDBVersion, err)
		}
		want := []byte{13, 16}[btoi(caps.Can(rdb.ListpackEncodings))] // ziplist, listpack
		if caps.Can(rdb.HashFieldTTL) {
			want = 25
		}
		if typ := recordType(t, file, capKey); typ != want {
			t.Errorf("%s at RDB %d: type %d, want %d", opts.Target, opts.RDBVersion, typ, want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCapabilitiesCovered checks that every feature has a case in TestCapabilities, and a
// first target unless no target holds it.
func TestCapabilitiesCovered(t *testing.T) {
	for _, f := range rdb.Features() {
		if _, ok := capabilityCases[f]; !ok {
			t.Errorf("%s has no capability case", f)
		}
		if tg, ok := rdb.FirstTarget(f); !ok || !tg.Can(f) {
			t.Errorf("%s: first target %v (%v)", f, tg.Name, ok)
		}
	}
}

// TestFirstTarget checks the oldest target of a few sets of features.
func TestFirstTarget(t *testing.T) {
	for _, tt := range []struct {
		fs   []rdb.Feature
		want string
	}{
		{nil, "redis-5.0"},
		{[]rdb.Feature{rdb.Streams}, "redis-5.0"},
		{[]rdb.Feature{rdb.Functions}, "redis-7.0"},
		{[]rdb.Feature{rdb.Functions, rdb.SetListpack}, "redis-7.2"},
		{[]rdb.Feature{rdb.SetListpack, rdb.PlainListNodes}, "redis-7.4"},
		{rdb.Features(), "redis-7.4"},
	} {
		if got, ok := rdb.FirstTarget(tt.fs...); !ok || got.Name != tt.want {
			t.Errorf("FirstTarget(%v) = %s (%v), want %s", tt.fs, got.Name, ok, tt.want)
		}
	}
}

// TestCapabilitiesTable checks the table at its boundaries: the version each feature came
// with, and the targets of plain list nodes.
func TestCapabilitiesTable(t *testing.T) {
	for _, tt := range []struct {
		target  string
		version int // 0: the target's
		f       rdb.Feature
		want    bool
	}{
		{"redis-5.0", 7, rdb.BinaryScores, false},
		{"redis-5.0", 8, rdb.BinaryScores, true},
		{"redis-5.0", 8, rdb.Streams, false},
		{"redis-5.0", 0, rdb.Streams, true},
		{"redis-6.2", 0, rdb.StreamMetadata, false},
		{"redis-7.0", 0, rdb.StreamMetadata, true},
		{"redis-6.2", 0, rdb.Functions, false},
		{"redis-7.0", 0, rdb.Functions, true},
		{"redis-7.0", 0, rdb.ListpackEncodings, true},
		{"redis-7.0", 0, rdb.ConsumerActiveTime, false},
		{"valkey-7.2", 0, rdb.ConsumerActiveTime, true},
		{"redis-7.0", 0, rdb.SetListpack, false},
		{"redis-7.2", 0, rdb.SetListpack, true},
		{"redis-7.2", 0, rdb.PlainListNodes, false},
		{"redis-7.4", 0, rdb.PlainListNodes, true},
		{"redis-7.4", 10, rdb.PlainListNodes, true},
		{"redis-7.4", 9, rdb.PlainListNodes, false},
		{"valkey-7.2", 0, rdb.PlainListNodes, false},
		{"valkey-8.0", 0, rdb.PlainListNodes, true},
		{"redis-7.2", 0, rdb.HashFieldTTL, false},
		{"redis-7.4", 0, rdb.HashFieldTTL, true},
		{"redis-8.4", 11, rdb.HashFieldTTL, false},
		{"valkey-9.0", 0, rdb.HashFieldTTL, false},
	} {
		caps, err := encoder.Options{Target: tt.target, RDBVersion: tt.version}.Check()
		if err != nil {
			t.Fatal(err)
		}
		if got := caps.Can(tt.f); got != tt.want {
			t.Errorf("%s at RDB %d: Can(%s) = %v, want %v", tt.target, caps.RDBVersion, tt.f, got, tt.want)
		}
	}
}

// TestCannotHoldMessage checks the messages: the oldest target that holds the feature when
// the target is too old, the target's own version when the version chosen is.
func TestCannotHoldMessage(t *testing.T) {
	for _, tt := range []struct {
		opts encoder.Options
		f    rdb.Feature
		want string
	}{
		{encoder.Options{Target: "redis-7.2"}, rdb.HashFieldTTL,
			"a hash with field TTLs needs RDB 12 (redis-7.4 or later), and redis-7.2 writes RDB 11"},
		{encoder.Options{Target: "valkey-9.0"}, rdb.HashFieldTTL,
			"a hash with field TTLs needs RDB 12 (redis-7.4 or later), and valkey-9.0 writes RDB 11"},
		{encoder.Options{Target: "redis-6.2"}, rdb.Functions,
			"a function library needs RDB 10 (redis-7.0 or later), and redis-6.2 writes RDB 9"},
		{encoder.Options{Target: "redis-7.4", RDBVersion: 11}, rdb.HashFieldTTL,
			"a hash with field TTLs needs RDB 12, and the file is written as RDB 11, below redis-7.4's own 12"},
		{encoder.Options{RDBVersion: 8}, rdb.Streams,
			"a stream needs RDB 9, and the file is written as RDB 8, below redis-5.0's own 9"},
		{encoder.Options{RDBVersion: 8}, rdb.Functions,
			"a function library needs RDB 10 (redis-7.0 or later), and the file is written as RDB 8 for redis-5.0"},
	} {
		caps, err := tt.opts.Check()
		if err != nil {
			t.Fatal(err)
		}
		err = fmt.Errorf("key: %w", caps.Refuse(tt.f))
		if got := err.Error(); got != "key: "+tt.want || !errors.Is(err, rdb.ErrCannotHold) {
			t.Errorf("%+v %s: %q, want %q", tt.opts, tt.f, got, tt.want)
		}
	}
}

// TestOptionsCheck checks that Check refuses what NewWriter refuses, with the same error,
// and returns the target and version NewWriter writes.
func TestOptionsCheck(t *testing.T) {
	bad := &rdb.Thresholds{HashMaxListpackEntries: -1}
	for _, opts := range []encoder.Options{
		{}, {RDBVersion: 10}, {Target: "valkey-8.0"}, {Target: "redis-7.4", RDBVersion: 9},
		{Target: "redis-9.9"}, {RDBVersion: 13}, {RDBVersion: 6}, {Target: "redis-7.0", RDBVersion: 11},
		{BufferSize: 100}, {BufferSize: -1}, {BufferSize: 4096}, {Thresholds: bad},
	} {
		caps, err := opts.Check()
		w, werr := rdbsink.NewWriter(&bytes.Buffer{}, opts)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("%+v: Check: %v; NewWriter: %v", opts, err, werr)
			continue
		}
		if err != nil {
			if !errors.Is(err, rdb.ErrInvalidOption) && !errors.Is(err, rdb.ErrUnknownTarget) {
				t.Errorf("%+v: %v, want ErrInvalidOption or ErrUnknownTarget", opts, err)
			}
			continue
		}
		if caps != w.Capabilities() || caps.Target != w.Target() || caps.RDBVersion != w.RDBVersion() {
			t.Errorf("%+v: Check gives %+v, the Writer writes %s RDB %d", opts, caps, w.Target().Name, w.RDBVersion())
		}
	}
}

// recordType returns the type byte of key's record in file.
func recordType(t *testing.T, file []byte, key string) byte {
	t.Helper()
	at := bytes.Index(file, append([]byte{byte(len(key))}, key...))
	if at < 1 {
		t.Fatalf("no key %q in the file", key)
	}
	return file[at-1]
}

// typeOf returns a held function for key's type byte: with the feature, or without.
func typeOf(key string, with, without byte) func(*testing.T, []byte) bool {
	return func(t *testing.T, file []byte) bool {
		switch typ := recordType(t, file, key); typ {
		case with:
			return true
		case without:
			return false
		default:
			t.Errorf("%s: type %d, want %d with the feature, %d without", key, typ, with, without)
			return false
		}
	}
}

// parse reads the objects of file with the hdt3213 parser, by key.
func parse(t *testing.T, file []byte) map[string]model.RedisObject {
	t.Helper()
	objs := map[string]model.RedisObject{}
	err := parser.NewDecoder(bytes.NewReader(file)).Parse(func(o parser.RedisObject) bool {
		objs[o.GetKey()] = o
		return true
	})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return objs
}
