package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLoadClusterPrimaryDownQuiet loads into a cluster one of whose primaries is down, by
// every method: the binary's stderr holds rdbgen's one-line error and no line of go-redis's
// logger ("redis: … pool.go:…").
func TestLoadClusterPrimaryDownQuiet(t *testing.T) {
	bin := buildRdbgen(t)
	c, _ := servertest.StartCluster(t)
	seed := c.Nodes[0].Addr
	down := c.Nodes[1]
	if err := down.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Nodes[1] = nil // stopped already
	for _, method := range []string{"sequential", "parallel", "pipeline", "mass"} {
		t.Run(method, func(t *testing.T) {
			cmd := exec.Command(bin, "load", "--cluster", "--addr", seed, "--count", "100", "--method", method)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if err == nil {
				t.Fatal("load into a cluster with a primary down succeeded")
			}
			got := stderr.String()
			t.Log(got)
			if lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "rdbgen: ") || !strings.Contains(got, down.Addr) {
				t.Fatalf("stderr %q, want one line: rdbgen's error naming %s", got, down.Addr)
			}
		})
	}
}
