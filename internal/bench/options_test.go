package bench_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/bench"
	"github.com/rdbgen/rdbgen/server"
)

func TestRunRefusesBadOptions(t *testing.T) {
	d := &dataset.Config{Count: 10}
	tests := []struct {
		name string
		opts bench.Options
		want string
	}{
		{"unknown method", bench.Options{Methods: []string{"pigeon"}}, `method "pigeon" (known: sequential, parallel, pipeline, mass, redis-cli-pipe, snapshot)`},
		{"zero workers", bench.Options{Workers: []int{5, 0}}, "workers 0 out of range"},
		{"negative batch", bench.Options{Batch: -3}, "batch -3 out of range"},
		{"negative repeat", bench.Options{Repeat: -1}, "repeat -1 is not positive"},
		{"existing container", bench.Options{Server: server.Options{Container: "prod"}}, "needs a fresh server, not the container prod"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bench.Run(t.Context(), d, tt.opts)
			if !errors.Is(err, bench.ErrInvalidOption) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an ErrInvalidOption containing %q", err, tt.want)
			}
		})
	}
	if _, err := bench.Run(t.Context(), &dataset.Config{Count: 1, Value: "x"}, bench.Options{}); !errors.Is(err, dataset.ErrInvalid) {
		t.Fatalf("bad dataset: got %v", err)
	}
}

// TestRunFailsWithoutServer: when no server can start, there is nothing to
// measure, and Run says why.
func TestRunFailsWithoutServer(t *testing.T) {
	opts := bench.Options{Methods: []string{"mass"}, Server: server.Options{Backend: server.BackendProcess, RedisServer: "/nonexistent/redis-server"}}
	_, err := bench.Run(t.Context(), &dataset.Config{Count: 10}, opts)
	if !errors.Is(err, server.ErrRedisServerNotFound) {
		t.Fatalf("got %v", err)
	}
}
