package dockercli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
)

func TestMessage(t *testing.T) {
	in := "docker: Error response from daemon: No such image: x.\n\nRun 'docker run --help' for more information\nSee 'docker --help'.\n"
	if got := Message(in); got != "Error response from daemon: No such image: x." {
		t.Fatalf("Message = %q", got)
	}
}

func TestClient(t *testing.T) {
	redistest.Docker(t)
	ctx := context.Background()
	var c Client
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := c.Run(ctx, nil, "image", "inspect", "rdbgen-test/no-such-image:0")
	if err == nil || !strings.HasPrefix(err.Error(), "docker image: ") || !strings.Contains(err.Error(), "rdbgen-test/no-such-image:0") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Run = %v", err)
	}
	bad := Client{Host: "unix:///nonexistent/docker.sock"}
	if err := bad.Ping(ctx); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Ping of a missing engine = %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Run(cancelled, nil, "version"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a cancelled context = %v", err)
	}
}
