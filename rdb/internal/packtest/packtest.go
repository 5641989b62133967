// Package packtest holds what the tests of the format's compact encodings (rdb/internal/
// listpack, ziplist, intset, zipmap) share: reading a blob back and checking damage. Tests
// only import it.
package packtest

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"testing"
)

// An Iterator reads listpacks or ziplists.
type Iterator interface {
	Open(b []byte) error
	Count() int
	Next() (s []byte, v int64, isInt, ok bool)
	Err() error
}

// ReadBack checks that it reads es back from b, whose header says count entries (-1:
// unknown).
func ReadBack(t *testing.T, it Iterator, b []byte, es [][]byte, count int) {
	t.Helper()
	if err := it.Open(b); err != nil {
		t.Fatal(err)
	}
	if it.Count() != count {
		t.Errorf("count %d, want %d", it.Count(), count)
	}
	if got := Entries(it.Next); it.Err() != nil || !slices.EqualFunc(got, es, bytes.Equal) {
		t.Errorf("read back %d of %d entries, %v: %.20q", len(got), len(es), it.Err(), got)
	}
}

// Entries returns the entries next yields until it reports the end, an integer as its
// decimal text.
func Entries(next func() (s []byte, v int64, isInt, ok bool)) [][]byte {
	var es [][]byte
	for {
		s, v, isInt, ok := next()
		if !ok {
			return es
		}
		if isInt {
			s = strconv.AppendInt(nil, v, 10)
		}
		es = append(es, s)
	}
}

// Damaged checks what a reader says of a damaged blob: openErr, Open's error, is not nil
// when refused; else next, which reads one entry, stops on the error err returns. That error
// wraps corrupt and reads msg.
func Damaged(t *testing.T, name string, openErr error, refused bool, next func() bool, err func() error, corrupt error, msg string) {
	t.Helper()
	got := openErr
	if (got != nil) != refused {
		t.Errorf("%s: Open: %v", name, got)
		return
	}
	if got == nil {
		for next() {
		}
		if got = err(); got == nil {
			t.Errorf("%s: read to the end", name)
			return
		}
	}
	if !errors.Is(got, corrupt) || got.Error() != msg {
		t.Errorf("%s: %q, want %q wrapping %v", name, got, msg, corrupt)
	}
}
