package image

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/dockercli"
	"github.com/rdbgen/rdbgen/manifest"
)

// A Plan is what an image will hold, decided before anything is built.
type Plan struct {
	// DumpPath is the dump file, and DumpName its base name.
	DumpPath, DumpName string
	// DumpSize is the dump's size in bytes.
	DumpSize int64
	// RDBVersion is the version in the dump's header.
	RDBVersion int
	// Keys and Checksum come from the dump's manifest, when there is one beside it; Keys
	// is -1 and Checksum "" otherwise.
	Keys     int64
	Checksum string
	// Base is the base image, and Server the release it runs; Server.MaxRDBVersion is 0
	// when the release is unknown and Options.Force let the build go on.
	Base   string
	Server Server
	// Command is the server's start command in the image.
	Command []string
	// Dockerfile is the Dockerfile's text.
	Dockerfile []byte
}

// NewPlan checks the dump at dumpPath against the base image and returns the plan of the
// image. It fails with ErrNotRDB for a file that is not an RDB file, ErrTooNew when the base
// image's server cannot load it, and ErrUnknownBase when that server cannot be told and
// opts.Force is not set.
func NewPlan(ctx context.Context, dumpPath string, opts Options) (*Plan, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	version, size, err := readHeader(dumpPath)
	if err != nil {
		return nil, err
	}
	p := &Plan{DumpPath: dumpPath, DumpName: filepath.Base(dumpPath), DumpSize: size, RDBVersion: version, Keys: -1, Base: o.Base}
	if m, err := manifest.Read(manifest.PathFor(dumpPath)); err == nil && m.Bytes == size {
		p.Keys, p.Checksum = int64(m.Keys), m.Checksum
	}
	s, known := ServerOf(ctx, dockercli.Client{Host: o.DockerHost}, o.Base)
	switch {
	case known:
		if err := checkLoads(o.Base, s, dumpPath, version); err != nil {
			return nil, err
		}
	case !o.Force:
		return nil, fmt.Errorf("%w: cannot tell which RDB versions base image %s loads: its tag names no Redis or Valkey release "+
			"and docker has no copy of it that says (REDIS_VERSION); use --force to build anyway", ErrUnknownBase, o.Base)
	default:
		repo, _ := splitRef(o.Base)
		s = Server{Family: familyOf(repo), Version: "unknown", Source: "tag"}
		if s.Family == "" {
			s.Family = "redis"
		}
	}
	p.Server = s
	p.Command = startCommand(p, o)
	p.Dockerfile = dockerfile(p, o)
	return p, nil
}

// readHeader returns the RDB version in the header of the file at path, and its size.
func readHeader(path string) (int, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("open dump: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("open dump: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return 0, 0, fmt.Errorf("%s is not a regular file", path)
	}
	var h [9]byte
	n, _ := io.ReadFull(f, h[:])
	v, err := strconv.Atoi(string(h[5:n]))
	if n < len(h) || string(h[:5]) != "REDIS" || err != nil || strings.TrimLeft(string(h[5:]), "0123456789") != "" {
		return 0, 0, fmt.Errorf("%w: %s starts with %q, not REDIS and a 4-digit version", ErrNotRDB, path, h[:n])
	}
	return v, fi.Size(), nil
}

// WriteContext writes the build context of the image for the dump at dumpPath into dir,
// which is created when missing: the Dockerfile and a copy of the dump. Existing files are
// replaced only with overwrite. Build it with "docker build -t TAG DIR".
func WriteContext(ctx context.Context, dumpPath, dir string, overwrite bool, opts Options) (*Plan, error) {
	p, err := NewPlan(ctx, dumpPath, opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, unwrapPath(err))
	}
	src, err := os.Open(dumpPath)
	if err != nil {
		return nil, fmt.Errorf("open dump: %w", err)
	}
	defer src.Close()
	dump, err := atomicfile.Create(filepath.Join(dir, DumpName), overwrite)
	if err != nil {
		return nil, err
	}
	defer dump.Abort()
	df, err := atomicfile.Create(filepath.Join(dir, "Dockerfile"), overwrite)
	if err != nil {
		return nil, err
	}
	defer df.Abort()
	if _, err := io.Copy(dump, &ctxReader{ctx, src}); err != nil {
		return nil, fmt.Errorf("copy %s to %s: %w", dumpPath, dir, err)
	}
	if _, err := df.Write(p.Dockerfile); err != nil {
		return nil, fmt.Errorf("write %s: %w", df.Name(), err)
	}
	if err := atomicfile.CommitAll([]*atomicfile.File{dump, df}); err != nil {
		return nil, err
	}
	return p, nil
}

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
	go func() { pw.CloseWithError(writeTar(ctx, pw, p)) }()
	err = cmd.Wait()
	pr.Close()
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

// writeTar writes the build context of p as a tar stream: the Dockerfile and the dump.
func writeTar(ctx context.Context, w io.Writer, p *Plan) error {
	tw := tar.NewWriter(w)
	now := time.Now()
	if err := tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(p.Dockerfile)), ModTime: now}); err != nil {
		return err
	}
	if _, err := tw.Write(p.Dockerfile); err != nil {
		return err
	}
	f, err := os.Open(p.DumpPath)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := tw.WriteHeader(&tar.Header{Name: DumpName, Mode: 0o644, Size: p.DumpSize, ModTime: now}); err != nil {
		return err
	}
	n, err := io.Copy(tw, &ctxReader{ctx, f})
	if err == nil && n != p.DumpSize {
		err = fmt.Errorf("%s changed size while it was read", p.DumpPath)
	}
	if err != nil {
		return err
	}
	return tw.Close()
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
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

// unwrapPath drops the *PathError layer whose path the caller's message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
