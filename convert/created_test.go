package convert_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// dumpCreatedAt writes a dump of one key created at t, without a manifest, and opens it.
func dumpCreatedAt(t *testing.T, at time.Time) *input.Input {
	t.Helper()
	return dumpOf(t, at, record.Records{{Key: []byte("k"), Type: record.String, Value: []byte("v")}})
}

// dumpOf writes a dump of recs created at t, without a manifest, and opens it.
func dumpOf(t *testing.T, at time.Time, recs record.Records) *input.Input {
	t.Helper()
	path := filepath.Join(t.TempDir(), "d.rdb")
	o, err := output.File(path, output.Options{Encoder: encoder.Options{CreatedAt: at}, NoManifest: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Write(context.Background(), recs, nil); err != nil {
		t.Fatal(err)
	}
	in, err := input.Open(context.Background(), path, input.Options{Format: input.RDB})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// TestSetCreated: the output is created when the input was, unless KeepCreated; RebaseTo
// moves the expiries from then to RebaseTo, which the output is created at.
func TestSetCreated(t *testing.T) {
	ctx := context.Background()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	given := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	in := dumpCreatedAt(t, created)
	for _, tt := range []struct {
		name      string
		opts      convert.Options
		want      time.Time
		wantShift *rebase.Shift
	}{
		{"input's", convert.Options{}, created, nil},
		{"kept", convert.Options{KeepCreated: true}, given, nil},
		{"rebased", convert.Options{RebaseTo: to, KeepCreated: true}, to, &rebase.Shift{From: created, To: to, ShiftMS: to.Sub(created).Milliseconds()}},
	} {
		enc := encoder.Options{CreatedAt: given}
		opts := tt.opts
		if err := opts.SetCreated(ctx, in, &enc); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !enc.CreatedAt.Equal(tt.want) {
			t.Errorf("%s: created at %v, want %v", tt.name, enc.CreatedAt, tt.want)
		}
		switch {
		case tt.wantShift == nil && opts.Rebase != nil:
			t.Errorf("%s: rebase %+v, want none", tt.name, *opts.Rebase)
		case tt.wantShift != nil && (opts.Rebase == nil || *opts.Rebase != *tt.wantShift):
			t.Errorf("%s: rebase %+v, want %+v", tt.name, opts.Rebase, *tt.wantShift)
		}
	}
}

// TestSetCreatedNone: an input that tells no creation time leaves the output's, and is an
// error wrapping rebase.ErrNoCreationTime when rebasing.
func TestSetCreatedNone(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "empty.rdb")
	// The smallest RDB file: the header and the end, no ctime AUX field.
	if err := os.WriteFile(path, append([]byte("REDIS0009\xff"), make([]byte, 8)...), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := input.Open(ctx, path, input.Options{Format: input.RDB})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	given := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	enc := encoder.Options{CreatedAt: given}
	var opts convert.Options
	if err := opts.SetCreated(ctx, in, &enc); err != nil || !enc.CreatedAt.Equal(given) {
		t.Errorf("no creation time: %v, created at %v", err, enc.CreatedAt)
	}
	opts.RebaseTo = given
	if err := opts.SetCreated(ctx, in, &enc); !errors.Is(err, rebase.ErrNoCreationTime) {
		t.Errorf("rebasing, no creation time: %v", err)
	}
}
