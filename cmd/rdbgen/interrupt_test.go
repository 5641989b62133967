package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/cliflags"
)

// cancelAfter is a stdout that cancels the run once it holds n bytes.
type cancelAfter struct {
	bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	n, err := c.Buffer.Write(p)
	if c.Len() >= c.n {
		c.cancel()
	}
	return n, err
}

// TestInterruptedStdoutSaysIncomplete: interrupted after part of the output went to stdout,
// convert (and generate) say that output is incomplete, not that nothing was written
// (issue 22, item 20); before any byte went out, nothing was.
func TestInterruptedStdoutSaysIncomplete(t *testing.T) {
	dump := generateWith(t, "--count", "300000", "--target", "redis-7.0")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"convert rdb", []string{"convert", dump, "-o", "-"}},
		{"convert resp", []string{"convert", dump, "-o", "-", "--format", "resp"}},
		{"generate", []string{"--count", "300000", "-o", "-"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &cancelAfter{n: 1 << 20, cancel: cancel}
			var stderr bytes.Buffer
			err := cliflags.Run(ctx, newApp(out, &stderr), append([]string{"rdbgen"}, tt.args...))
			if err == nil || !strings.Contains(err.Error(), "went to stdout: that output is incomplete, discard it") || strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("after %d bytes: got %v", out.Len(), err)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := cliflags.Run(ctx, newApp(&stdout, &stderr), []string{"rdbgen", "convert", dump, "-o", "-"})
	if err == nil || err.Error() != "interrupted; nothing was written" || stdout.Len() != 0 {
		t.Fatalf("cancelled first: got %v, %d bytes", err, stdout.Len())
	}
}
