// Package dockercli drives the docker engine through the docker CLI, not through a Go client
// library. The CLI keeps this module free of the engine client's large dependency tree;
// everyone who runs containers has it; and it resolves DOCKER_HOST, contexts, TLS settings
// and credential helpers exactly as the user's own docker commands do.
package dockercli

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

// ErrUnavailable reports that the docker CLI is not installed or that the engine it talks
// to does not answer.
var ErrUnavailable = errors.New("docker unavailable")

// A Client runs docker commands against one engine.
type Client struct {
	// Host is the engine address for "docker -H", or "" for the CLI's default (DOCKER_HOST,
	// else its current context).
	Host string
}

// Command returns the command "docker [-H host] args...".
func (c Client) Command(ctx context.Context, args ...string) *exec.Cmd {
	if c.Host != "" {
		args = append([]string{"-H", c.Host}, args...)
	}
	return exec.CommandContext(ctx, "docker", args...)
}

// Run runs a docker command with stdin as its standard input (nil for none) and returns its
// standard output, trimmed. Its error quotes the CLI's complaint on one line.
func (c Client) Run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	out, err := c.Output(ctx, stdin, args...)
	return strings.TrimSpace(string(out)), err
}

// Output is Run, returning the standard output as it is.
func (c Client) Output(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := c.Command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, Error(ctx, args, stderr.String(), err)
	}
	return stdout.Bytes(), nil
}

// Error returns the error of a failed docker command: ctx's error when it ended the command,
// else the CLI's complaint (its standard error) on one line, else err.
func Error(ctx context.Context, args []string, stderr string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("docker %s: %w", args[0], ctx.Err())
	}
	if msg := Message(stderr); msg != "" {
		return fmt.Errorf("docker %s: %s", args[0], msg)
	}
	return fmt.Errorf("docker %s: %w", args[0], err)
}

// Message joins the lines of a docker CLI error output into one, leaving out its advice to
// read --help.
func Message(stderr string) string {
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

// Ping checks that the docker CLI is installed and that its engine answers. Both failures
// wrap ErrUnavailable.
func (c Client) Ping(ctx context.Context) error {
	if _, err := exec.LookPath("docker"); err != nil {
		return fmt.Errorf("%w: docker CLI not found in PATH", ErrUnavailable)
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	_, err := c.Run(ctx, nil, "version", "--format", "{{.Server.Version}}")
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}
