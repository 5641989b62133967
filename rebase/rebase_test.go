package rebase_test

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

var (
	created = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	later   = created.Add(48 * time.Hour)
)

func TestApply(t *testing.T) {
	forward := rebase.NewShift(created, later)
	back := rebase.NewShift(later, created)
	c := created.UnixMilli()
	tests := []struct {
		name  string
		shift rebase.Shift
		exp   int64
		want  int64
	}{
		{"no expiry stays none", forward, 0, 0},
		{"an hour after creation is an hour after the new time", forward, c + 3600_000, later.UnixMilli() + 3600_000},
		{"at creation: expired then, expired now", forward, c, later.UnixMilli()},
		{"expired before creation stays before the new time", forward, c - 60_000, later.UnixMilli() - 60_000},
		{"1 ms", forward, 1, 1 + forward.ShiftMS},
		{"back in time", back, later.UnixMilli() + 1, c + 1},
		{"back past the epoch is kept at 1 ms, never none", back, 5, 1},
		{"back to exactly the epoch is kept at 1 ms", rebase.Shift{ShiftMS: -5}, 5, 1},
		{"forward past int64 stops at its end", forward, math.MaxInt64 - 1, math.MaxInt64},
		{"zero shift", rebase.NewShift(created, created), c + 7, c + 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.shift.Apply(tt.exp); got != tt.want {
				t.Fatalf("Apply(%d) by %d = %d, want %d", tt.exp, tt.shift.ShiftMS, got, tt.want)
			}
		})
	}
	if forward.ShiftMS != 48*3600_000 || !forward.From.Equal(created) || !forward.To.Equal(later) {
		t.Fatalf("NewShift = %+v", forward)
	}
}

// writeFile writes records as an RDB file for target created at created, and returns its path.
func writeFile(t *testing.T, target string, recs []record.Record) string {
	t.Helper()
	return servertest.WriteRecords(t, recs, encoder.Options{Target: target, CreatedAt: created})
}

// TestSinkMovesEveryExpiry reads a file of every type through the Sink: key expiries and
// hash field expiries move, values and keys without an expiry do not.
func TestSinkMovesEveryExpiry(t *testing.T) {
	c := created.UnixMilli()
	recs := []record.Record{
		{Key: []byte("s"), Type: record.String, Value: []byte("v"), ExpireAtMS: c + 1000},
		{Key: []byte("forever"), Type: record.String, Value: []byte("v")},
		{Key: []byte("gone"), Type: record.String, Value: []byte("v"), ExpireAtMS: c - 1000},
		{Key: []byte("l"), Type: record.List, Members: []record.Member{{Name: []byte("a")}}, ExpireAtMS: c + 2000},
		{Key: []byte("z"), Type: record.ZSet, Members: []record.Member{{Name: []byte("a"), Score: 1}}, ExpireAtMS: c + 3000},
		{Key: []byte("h"), Type: record.Hash, ExpireAtMS: c + 9000, Members: []record.Member{
			{Name: []byte("f1"), Value: []byte("1"), ExpireAtMS: c + 4000},
			{Name: []byte("f2"), Value: []byte("2")},
		}},
		{Key: []byte("x"), Type: record.Stream, ExpireAtMS: c + 5000, Members: []record.Member{{ID: record.StreamID{Ms: 1, Seq: 1}, Fields: [][]byte{[]byte("a"), []byte("b")}}}},
	}
	path := writeFile(t, "redis-7.4", recs)
	shift := rebase.NewShift(created, later)
	var got record.Recorder
	sink, err := rebase.New(&got, shift)
	if err != nil {
		t.Fatal(err)
	}
	if err := (decoder.File{Path: path}).WriteTo(context.Background(), sink); err != nil {
		t.Fatal(err)
	}
	if len(got.Records) != len(recs) {
		t.Fatalf("%d records, want %d", len(got.Records), len(recs))
	}
	byKey := map[string]record.Record{}
	for _, r := range got.Records {
		byKey[string(r.Key)] = r
	}
	for _, want := range recs {
		r := byKey[string(want.Key)]
		if r.ExpireAtMS != shift.Apply(want.ExpireAtMS) {
			t.Errorf("%s expires at %d, want %d", want.Key, r.ExpireAtMS, shift.Apply(want.ExpireAtMS))
		}
	}
	h := byKey["h"]
	fields := map[string]int64{}
	for _, m := range h.Members {
		fields[string(m.Name)] = m.ExpireAtMS
	}
	if fields["f1"] != c+4000+shift.ShiftMS || fields["f2"] != 0 {
		t.Errorf("field expiries %v", fields)
	}
	if st := sink.Stats(); st.Keys != 6 || st.Fields != 1 {
		t.Errorf("stats %+v, want 6 keys and 1 field", st)
	}
	if _, err := rebase.New(nil, shift); err == nil {
		t.Error("New(nil) works")
	}
}

func TestCreated(t *testing.T) {
	ctx := context.Background()
	path := writeFile(t, "redis-7.0", []record.Record{{Key: []byte("k"), Type: record.String, Value: []byte("v")}})
	if got, err := rebase.Created(ctx, path); err != nil || !got.Equal(created) {
		t.Fatalf("Created = %v, %v; want %v (ctime)", got, err, created)
	}

	// No AUX fields at all: the manifest beside it tells, if it is the file's own.
	bare := filepath.Join(t.TempDir(), "bare.rdb")
	content := "REDIS0009\xff\x00\x00\x00\x00\x00\x00\x00\x00"
	os.WriteFile(bare, []byte(content), 0o644)
	if _, err := rebase.Created(ctx, bare); !errors.Is(err, rebase.ErrNoCreationTime) {
		t.Fatalf("no ctime, no manifest: %v", err)
	}
	m := &manifest.Manifest{Format: manifest.FormatVersion, CreatedAt: later, Bytes: int64(len(content))}
	if err := manifest.Write(manifest.PathFor(bare), m); err != nil {
		t.Fatal(err)
	}
	if got, err := rebase.Created(ctx, bare); err != nil || !got.Equal(later) {
		t.Fatalf("Created = %v, %v; want %v (manifest)", got, err, later)
	}
	m.Bytes++ // another file's manifest
	os.Remove(manifest.PathFor(bare))
	manifest.Write(manifest.PathFor(bare), m)
	if _, err := rebase.Created(ctx, bare); !errors.Is(err, rebase.ErrNoCreationTime) {
		t.Fatalf("a manifest of another size: %v", err)
	}

	notRDB := filepath.Join(t.TempDir(), "x.rdb")
	os.WriteFile(notRDB, []byte("hello world"), 0o644)
	if _, err := rebase.Created(ctx, notRDB); !errors.Is(err, decoder.ErrNotRDB) {
		t.Fatalf("not an RDB file: %v", err)
	}
}

// auxFile writes an RDB file whose only AUX field is ctime = value, holding one string.
func auxFile(t *testing.T, value string) string {
	t.Helper()
	b := []byte("REDIS0009\xfa\x05ctime")
	b = append(b, byte(len(value)))
	b = append(b, value...)
	b = append(b, "\xfe\x00\x00\x01k\x01v\xff"...)
	b = binary.LittleEndian.AppendUint64(b, rdb.Checksum(b))
	path := filepath.Join(t.TempDir(), "aux.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCreatedBadCtime: a ctime that is not whole Unix seconds from 1970 to 9999 is an error
// naming the value, never taken for a missing one (issue 22, item 21).
func TestCreatedBadCtime(t *testing.T) {
	for _, tt := range []struct {
		ctime string
		want  time.Time // zero: ErrBadCreationTime
	}{
		{"1767323045", time.Unix(1767323045, 0).UTC()},
		{"1", time.Unix(1, 0).UTC()},
		{"253402300799", time.Unix(253402300799, 0).UTC()},
		{"253402300800", time.Time{}},
		{"99999999999999", time.Time{}},
		{"abc", time.Time{}},
		{"-100", time.Time{}},
		{"0", time.Time{}},
		{"", time.Time{}},
		{" 12", time.Time{}},
	} {
		path := auxFile(t, tt.ctime)
		got, err := rebase.Created(context.Background(), path)
		if tt.want.IsZero() {
			if !errors.Is(err, rebase.ErrBadCreationTime) || !strings.Contains(err.Error(), strconv.Quote(tt.ctime)) || !strings.Contains(err.Error(), path) {
				t.Errorf("ctime %q: got %v, %v; want an error naming the file and the value", tt.ctime, got, err)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ctime %q: got %v, %v; want %v", tt.ctime, got, err, tt.want)
		}
	}
}
