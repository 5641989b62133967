package main

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestBarRateFromTheStart updates a bar 50 ms after it was made: the rate it shows counts
// from the bar's start, not from its first update.
func TestBarRateFromTheStart(t *testing.T) {
	var out bytes.Buffer
	bar := startBar(&out, 10_000_000, "keys")
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
