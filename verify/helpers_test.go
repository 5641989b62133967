package verify_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/verify"
)

// generate writes the dataset d with rdbgen into a new dump.rdb in a test temporary
// directory, and its manifest next to it, as rdbgen generate does.
func generate(t testing.TB, d dataset.Config, opts encoder.Options) (string, *manifest.Manifest) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := output.Write(context.Background(), f, &d, output.Options{Encoder: opts})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	m := &manifest.Manifest{
		Format:     manifest.FormatVersion,
		Generator:  "rdbgen test",
		CreatedAt:  time.Now().UTC(),
		Target:     res.Target,
		RDBVersion: res.RDBVersion,
		Compressed: !opts.DisableCompression,
		Checksum:   manifest.FormatChecksum(res.Stats.Checksum),
		Bytes:      res.Stats.Bytes,
		Keys:       res.Stats.Keys,
		Expires:    res.Stats.Expires,
		DBs:        map[int]record.Counts{},
		Dataset:    &d,
	}
	if d.Count > 0 {
		m.DBs[d.DB] = record.Counts{Keys: res.Stats.Keys, Expires: res.Stats.Expires}
	}
	if err := manifest.Write(manifest.PathFor(path), m); err != nil {
		t.Fatal(err)
	}
	return path, m
}

// classic is the default dataset: keys key100000001... with values equal to the keys.
func classic(n uint64) dataset.Config {
	return dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 100000001}
}

// withTTL is a dataset of n keys expiring in an hour, ± a minute, from now.
func withTTL(n uint64) dataset.Config {
	d := classic(n)
	d.TTL, d.TTLJitter, d.BaseTimeMS, d.Seed = time.Hour, time.Minute, time.Now().UnixMilli(), 5
	return d
}

// patchValue replaces, in the file at path, the raw string value of the record whose key and
// value are given by newValue, of the same length, and recomputes the checksum trailer with
// rdb.Checksum (unless the file has none), so that the file stays valid while holding
// another value. Key and value must be raw strings of under 64 bytes (6-bit lengths).
func patchValue(t *testing.T, path, key, value, newValue string) {
	t.Helper()
	if len(newValue) != len(value) || len(key) >= 64 || len(value) >= 64 {
		t.Fatal("patchValue: the new value must have the old one's length, and both under 64 bytes")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	record := []byte{byte(len(key))}
	record = append(record, key...)
	record = append(record, byte(len(value)))
	record = append(record, value...)
	at := bytes.Index(b, record)
	if at < 0 || bytes.Index(b[at+1:], record) >= 0 {
		t.Fatalf("patchValue: record %q = %q not found once in %s", key, value, path)
	}
	copy(b[at+len(record)-len(value):], newValue)
	body := b[:len(b)-8]
	if trailer := b[len(b)-8:]; !bytes.Equal(trailer, make([]byte, 8)) {
		binary.LittleEndian.PutUint64(trailer, rdb.Checksum(body))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantPass fails the test unless rep passed.
func wantPass(t *testing.T, rep *verify.Report, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !rep.Pass || rep.MismatchCount != 0 || rep.Reason != "" {
		t.Fatalf("FAIL: %s\n%v", rep.Reason, rep.Mismatches)
	}
}

// wantFail fails the test unless rep failed with a first mismatch of the stage that
// contains reason.
func wantFail(t *testing.T, rep *verify.Report, err error, stage verify.Stage, reason string) {
	t.Helper()
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if rep.Pass || len(rep.Mismatches) == 0 {
		t.Fatalf("PASS, want a failure: %s", reason)
	}
	first := rep.Mismatches[0]
	if first.Stage != stage || !strings.Contains(first.String(), reason) || !strings.HasPrefix(rep.Reason, first.String()) {
		t.Fatalf("first mismatch %q (reason %q), want one of stage %s containing %q", first, rep.Reason, stage, reason)
	}
}

// testContext returns a context that ends with the test, or after a minute.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
