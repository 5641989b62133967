package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// docker drives the docker engine through the docker CLI, not through a Go
// client library. The CLI keeps this module free of the engine client's large
// dependency tree; everyone who runs containers has it; and it resolves
// DOCKER_HOST, contexts, TLS settings and credential helpers exactly as the
// user's own docker commands do.
type docker struct {
	host string // engine address for -H, or "" for the CLI's default
}

func newDocker(host string) docker { return docker{host: host} }

// command returns the command "docker [-H host] args...".
func (d docker) command(ctx context.Context, args ...string) *exec.Cmd {
	if d.host != "" {
		args = append([]string{"-H", d.host}, args...)
	}
	return exec.CommandContext(ctx, "docker", args...)
}

// run runs a docker command with stdin as its standard input (nil for none)
// and returns its standard output, trimmed. Its error quotes the CLI's
// complaint on one line.
func (d docker) run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	out, err := d.output(ctx, stdin, args...)
	return strings.TrimSpace(string(out)), err
}

// output is run, returning the standard output as it is.
func (d docker) output(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := d.command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("docker %s: %w", args[0], ctx.Err())
		}
		if msg := cliMessage(stderr.String()); msg != "" {
			return nil, fmt.Errorf("docker %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("docker %s: %w", args[0], err)
	}
	return stdout.Bytes(), nil
}

// cliMessage joins the lines of a docker CLI error output into one, leaving
// out its advice to read --help.
func cliMessage(stderr string) string {
	var lines []string
	for line := range strings.Lines(stderr) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "Run '") || strings.HasPrefix(line, "See '") {
			continue
		}
		lines = append(lines, strings.TrimPrefix(line, "docker: "))
	}
	return strings.Join(lines, ": ")
}

// pingTimeout bounds the check that the engine answers.
const pingTimeout = 15 * time.Second

// ping checks that the docker CLI is installed and that its engine answers.
// Both failures wrap ErrDockerUnavailable.
func (d docker) ping(ctx context.Context) error {
	if _, err := exec.LookPath("docker"); err != nil {
		return fmt.Errorf("%w: docker CLI not found in PATH", ErrDockerUnavailable)
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	_, err := d.run(ctx, nil, "version", "--format", "{{.Server.Version}}")
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %w", ErrDockerUnavailable, err)
	}
	return err
}

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
