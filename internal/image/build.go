package image

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/internal/dockercli"
)

// A Result describes a built image.
type Result struct {
	*Plan
	// Tag is the tag given to the image, and ID the image's id.
	Tag, ID string
	// Duration is the time docker build took.
	Duration time.Duration
}

// Build builds the image of the dump at dumpPath and tags it tag. The build context is
// streamed to docker build; the dump is read once and not copied on disk. Docker's own
// build cache applies: building the same dump on the same base again is quick.
func Build(ctx context.Context, dumpPath, tag string, opts Options) (*Result, error) {
	if tag == "" || !refPattern.MatchString(tag) {
		return nil, fmt.Errorf("%w: tag %q is not an image reference", ErrInvalidOption, tag)
	}
	p, err := NewPlan(ctx, dumpPath, opts)
	if err != nil {
		return nil, err
	}
	docker := dockercli.Client{Host: opts.DockerHost}
	if err := docker.Ping(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	id, err := build(ctx, docker, p, tag, opts.Progress)
	if err != nil {
		return nil, err
	}
	return &Result{Plan: p, Tag: tag, ID: id, Duration: time.Since(start)}, nil
}

// build runs docker build on the streamed context of p and returns the image id.
func build(ctx context.Context, docker dockercli.Client, p *Plan, tag string, progress func(string)) (string, error) {
	idFile, err := os.CreateTemp("", "rdbgen-image-id-")
	if err != nil {
		return "", fmt.Errorf("build image: %w", err)
	}
	idFile.Close()
	defer os.Remove(idFile.Name())
	args := []string{"build", "--tag", tag, "--iidfile", idFile.Name(), "-"}
	cmd := docker.Command(ctx, args...)
	if os.Getenv("DOCKER_BUILDKIT") == "" && docker.Command(ctx, "buildx", "version").Run() != nil {
		// Without the buildx plugin, newer CLIs refuse to build unless told to use the
		// classic builder, which serves this Dockerfile as well.
		cmd.Env = append(os.Environ(), "DOCKER_BUILDKIT=0")
	}
	pr, pw := io.Pipe()
	cmd.Stdin = pr
	var out lineWriter
	out.progress = progress
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("build image: %w", err)
	}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		pw.CloseWithError(writeTar(ctx, pw, p))
	}()
	err = cmd.Wait()
	pr.Close() // a docker that stopped reading early ends writeTar's next write
	<-sent
	out.flush()
	if err != nil {
		return "", dockercli.Error(ctx, args, out.tail(), err)
	}
	id, err := os.ReadFile(idFile.Name())
	if err != nil || len(id) == 0 {
		return "", fmt.Errorf("build image: docker build wrote no image id")
	}
	return strings.TrimSpace(string(id)), nil
}

// lineWriter passes the lines docker build prints to progress and keeps the last few, which
// hold the reason when the build fails.
type lineWriter struct {
	progress func(string)
	partial  []byte
	last     []string
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.line(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
}

func (l *lineWriter) line(s string) {
	s = strings.TrimRight(s, "\r")
	if l.progress != nil {
		l.progress(s)
	}
	if strings.TrimSpace(s) != "" && !strings.HasPrefix(s, "Sending build context") {
		l.last = append(l.last, s)
		if len(l.last) > 3 {
			l.last = l.last[1:]
		}
	}
}

func (l *lineWriter) flush() {
	if len(l.partial) > 0 {
		l.line(string(l.partial))
		l.partial = nil
	}
}

// tail returns the last lines written, for an error message.
func (l *lineWriter) tail() string { return strings.Join(l.last, "\n") }
