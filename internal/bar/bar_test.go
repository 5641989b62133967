package bar

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// TestBarRateFromTheStart updates a bar 50 ms after it was made: the rate it shows counts
// from the bar's start, not from its first update.
func TestBarRateFromTheStart(t *testing.T) {
	var out bytes.Buffer
	bar := Start(&out, 10_000_000, "keys")
	time.Sleep(50 * time.Millisecond)
	if err := bar.Set64(116_373); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`116373/10000000, (\d+) keys/s`).FindSubmatch(out.Bytes())
	if m == nil {
		t.Fatalf("no rate in %q", out.String())
	}
	// At most 116373 keys in 50 ms: 2.3M keys/s.
	if rate, _ := strconv.Atoi(string(m[1])); rate > 2_400_000 {
		t.Fatalf("rate %d keys/s for 116373 keys in 50 ms or more", rate)
	}
}

// TestNoBarOffTerminal: off a terminal, or quiet, there is no bar: no callback, nothing drawn,
// and ending it is harmless.
func TestNoBarOffTerminal(t *testing.T) {
	var out bytes.Buffer
	for _, quiet := range []bool{false, true} {
		progress, done := Keys(&out, 100, quiet)
		if progress != nil {
			t.Fatalf("quiet=%v: a progress callback for a buffer", quiet)
		}
		done()
		s := NewStages(&out, quiet, func(p record.Progress) (int64, int64, string) { return p.Bytes, p.TotalBytes, "bytes" })
		s.Update(record.Progress{Stage: "file", Bytes: 1, TotalBytes: 10})
		s.Update(record.Progress{Stage: "load", Bytes: 0, TotalBytes: 0})
		s.Finish()
	}
	if out.Len() != 0 {
		t.Fatalf("drew %q off a terminal", out.String())
	}
}
