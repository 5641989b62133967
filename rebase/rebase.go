// Package rebase moves the expiries of a dump in time: a Sink wrapper adds the same shift to
// every key's and hash field's expiry, so that what expired ttl after the dump's creation
// expires ttl after another moment (the time a container starts, say). Redis's expiries are
// absolute, so a dump written yesterday with one-hour TTLs loads empty today; rebased to now,
// it loads with its hour.
//
// Every expiry moves by the same amount, so a key that had expired when the dump was created
// has expired at the new moment too: nothing is brought back. An expiry the shift would take
// to or before the Unix epoch is kept at 1 ms (0 means "no expiry" in the record stream), and
// one past the largest int64 at that largest value.
package rebase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// ErrNoCreationTime is returned by Created for a dump that says nowhere when it was written:
// no ctime AUX field and no manifest of its own beside it.
var ErrNoCreationTime = errors.New("no creation time")

// ErrBadCreationTime is returned by Created for a dump whose ctime AUX field is not a time
// in whole Unix seconds from 1970 to the year 9999 ("abc", "-100", 99999999999999).
var ErrBadCreationTime = errors.New("not a creation time")

// maxCtime is the last second of the year 9999, the latest time a manifest (RFC 3339) holds.
const maxCtime = 253402300799

// Shift is a move of every expiry: from the dump's creation time to another time.
type Shift struct {
	// From is when the dump was created, and To the moment its expiries now count from.
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// ShiftMS is To - From in milliseconds, what is added to every expiry.
	ShiftMS int64 `json:"shift_ms"`
}

// NewShift returns the shift from from to to.
func NewShift(from, to time.Time) Shift {
	return Shift{From: from.UTC(), To: to.UTC(), ShiftMS: to.UnixMilli() - from.UnixMilli()}
}

// Apply returns the expiry expireAtMS (absolute Unix ms, 0 for none) moved by the shift.
func (s Shift) Apply(expireAtMS int64) int64 {
	if expireAtMS == 0 {
		return 0
	}
	switch {
	case s.ShiftMS > 0 && expireAtMS > math.MaxInt64-s.ShiftMS:
		return math.MaxInt64
	case expireAtMS+s.ShiftMS < 1:
		return 1
	}
	return expireAtMS + s.ShiftMS
}

// Created returns when the RDB file at path was written: its ctime AUX field (whole
// seconds), which Redis and rdbgen write, else the created_at of its manifest beside it
// (manifest.PathFor) when that manifest is the file's own (the same size). It reads the file
// up to its first record. A file that says neither is an error wrapping ErrNoCreationTime; a
// ctime that is not whole Unix seconds from 1970 to 9999 is an error wrapping
// ErrBadCreationTime that names it (it is never taken for a missing one).
func Created(ctx context.Context, path string) (time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, err
	}
	defer f.Close()
	t, err := ReadCreated(ctx, f)
	switch {
	case err == nil:
		return t, nil
	case !errors.Is(err, ErrNoCreationTime):
		var de *decoder.Error
		if errors.As(err, &de) {
			return time.Time{}, fmt.Errorf("read %s: %w", path, err)
		}
		return time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	if fi, err := f.Stat(); err == nil {
		if m, err := manifest.Read(manifest.PathFor(path)); err == nil && m.Bytes == fi.Size() && !m.CreatedAt.IsZero() {
			return m.CreatedAt, nil
		}
	}
	return time.Time{}, fmt.Errorf("%s: %w: no ctime AUX field and no manifest of its own beside it", path, ErrNoCreationTime)
}

// ReadCreated returns the time in the ctime AUX field of the RDB file r holds, reading it up
// to its first record: an error wrapping ErrNoCreationTime when it has none, and one wrapping
// ErrBadCreationTime when it is not a time (see ParseCtime). Its errors do not name the file.
func ReadCreated(ctx context.Context, r io.Reader) (time.Time, error) {
	rd, err := decoder.NewReader(r, decoder.Options{BufferSize: 64 << 10})
	if err != nil {
		return time.Time{}, err
	}
	// The AUX fields come before the first database: stop there.
	if err := rd.WriteTo(ctx, stopAtFirstDB{}); err != nil && !errors.Is(err, errStop) {
		return time.Time{}, err
	}
	s, ok := rd.Aux()["ctime"]
	if !ok {
		return time.Time{}, fmt.Errorf("%w: no ctime AUX field", ErrNoCreationTime)
	}
	return ParseCtime(s)
}

// ParseCtime returns the time a ctime AUX field holds: whole Unix seconds, from 1 (1970) to
// the end of the year 9999. Anything else is an error wrapping ErrBadCreationTime that quotes
// the value.
func ParseCtime(s string) (time.Time, error) {
	sec, err := strconv.ParseInt(s, 10, 64)
	if err != nil || sec < 1 || sec > maxCtime {
		return time.Time{}, fmt.Errorf("ctime AUX field %q: %w (whole Unix seconds from 1970 to 9999)", s, ErrBadCreationTime)
	}
	return time.Unix(sec, 0).UTC(), nil
}

var errStop = errors.New("stop")

// stopAtFirstDB is a Sink that ends the read when the first database begins.
type stopAtFirstDB struct{ record.Discard }

func (stopAtFirstDB) BeginDB(int, record.Counts) error { return errStop }

// WriteFunction ends the read too: the AUX fields come before the function libraries.
func (stopAtFirstDB) WriteFunction([]byte) error { return errStop }
