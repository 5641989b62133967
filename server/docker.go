package server

import (
	"context"
	"fmt"
	"io"
	"os/exec"

	"github.com/rdbgen/rdbgen/internal/dockercli"
)

// docker runs the docker CLI for this package (see internal/dockercli for why the CLI).
type docker struct{ dockercli.Client }

func newDocker(host string) docker { return docker{dockercli.Client{Host: host}} }

func (d docker) command(ctx context.Context, args ...string) *exec.Cmd {
	return d.Command(ctx, args...)
}

func (d docker) run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	return d.Run(ctx, stdin, args...)
}

func (d docker) output(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	return d.Output(ctx, stdin, args...)
}

// ping checks that docker answers; its failures wrap ErrDockerUnavailable.
func (d docker) ping(ctx context.Context) error { return d.Ping(ctx) }

// cliMessage joins the lines of a docker CLI error output into one.
func cliMessage(stderr string) string { return dockercli.Message(stderr) }

// logs returns the output of a container: its log, as the server logs to
// standard output in a container.
func (d docker) logs(ctx context.Context, container string, since string) (string, error) {
	args := []string{"logs"}
	if since != "" {
		args = append(args, "--since", since)
	}
	cmd := d.command(ctx, append(args, container)...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("docker logs %s: %s", container, cliMessage(out.String()))
	}
	return out.String(), nil
}

// waitExit runs "docker wait" on a container in the background. It returns
// a channel closed when the container has stopped (or docker wait failed),
// a function that returns the exit status once the channel is closed, and a
// function that stops the waiting.
func (d docker) waitExit(container string) (done <-chan struct{}, status func() string, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan struct{})
	var st string
	go func() {
		defer close(ch)
		out, err := d.run(ctx, nil, "wait", container)
		switch {
		case err != nil:
			st = err.Error()
		default:
			st = "exit status " + out
		}
	}()
	return ch, func() string { <-ch; return st }, cancel
}
