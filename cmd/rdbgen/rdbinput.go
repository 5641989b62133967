package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/verify"
)

// An rdbInput is an RDB input that can be read at an offset, as the reader needs to read a
// long quicklist twice instead of holding it: the file itself, or stdin or a gzipped file
// decompressed into a temporary file in $TMPDIR, removed by Close (as the writer spools what
// it cannot hold). Every input is read in bounded memory.
type rdbInput struct {
	name string // what messages call it: the path given, or "stdin", or a server's address
	path string // the file read, or a live server's URL
	temp bool   // path is a temporary file
	// live, for a live server, holds its options: each read connects.
	live *live.Options
}

// maxHeldBytes is the decoder's Options.MaxHeldBytes for every input (0: its default). No
// input is held, since each can be read twice; the tests lower it to show that.
var maxHeldBytes = 0

// openInput opens input as openRDBInput does, or a live server's (redis://…), with the
// options of c's flags.
func openInput(c *cli.Context, input string, stdin io.Reader) (*rdbInput, error) {
	opts, err := liveOptions(c, input)
	if err != nil {
		return nil, err
	}
	if live.IsURL(input) {
		return openLive(input, opts)
	}
	return openRDBInput(c.Context, input, stdin)
}

// openRDBInput opens input ("-" for stdin, read from stdin), spooling it when it is stdin or
// gzip-compressed.
func openRDBInput(ctx context.Context, input string, stdin io.Reader) (*rdbInput, error) {
	if input != "-" && !isGzip(input) {
		return &rdbInput{name: input, path: input}, nil
	}
	name := inputName(input)
	in, err := importer.Open(input, stdin)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	defer in.Close()
	f, err := os.CreateTemp("", "rdbgen-input-*.rdb")
	if err != nil {
		return nil, fmt.Errorf("keep %s in a temporary file: %w (set TMPDIR to a directory with room)", name, err)
	}
	src := &readErr{r: in, ctx: ctx}
	_, err = io.Copy(f, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case src.err != nil:
			return nil, fmt.Errorf("read %s: %w", name, src.err)
		}
		return nil, fmt.Errorf("keep %s in %s: %w (set TMPDIR to a directory with room)", name, f.Name(), err)
	}
	return &rdbInput{name: name, path: f.Name(), temp: true}, nil
}

// Close removes the temporary file, if any.
func (in *rdbInput) Close() {
	if in.temp {
		os.Remove(in.path)
	}
}

// read reads every record of the input into sink and returns the reader, for its
// statistics (nil when the input is not an RDB file). Errors about the input name it; the
// sink's errors come back as they are.
func (in *rdbInput) read(ctx context.Context, sink record.Sink, opts decoder.Options) (*decoder.Reader, error) {
	opts.MaxHeldBytes = maxHeldBytes
	if in.live != nil {
		// A server holds each key once; its records come in the reader's bounded memory.
		lo := *in.live
		lo.Decoder = decoder.Options{SkipModules: opts.SkipModules, MaxHeldBytes: opts.MaxHeldBytes}
		src, err := live.Open(in.path, lo)
		if err != nil {
			return nil, err
		}
		return nil, src.WriteTo(ctx, sink)
	}
	return decoder.File{Path: in.path, Name: in.name, Options: opts}.Read(ctx, sink)
}

// created returns the input's creation time: its ctime AUX field, else (a file) the
// created_at of its own manifest beside it (see rebase.Created); for a live server, now.
func (in *rdbInput) created(ctx context.Context) (time.Time, error) {
	if in.live != nil {
		return time.Now(), nil // the server's data as it is now
	}
	if !in.temp {
		return rebase.Created(ctx, in.path)
	}
	f, err := os.Open(in.path)
	if err != nil {
		return time.Time{}, err
	}
	defer f.Close()
	t, err := rebase.ReadCreated(ctx, f)
	var de *decoder.Error
	switch {
	case errors.As(err, &de):
		return time.Time{}, fmt.Errorf("read %s: %w", in.name, err)
	case err != nil:
		return time.Time{}, fmt.Errorf("%s: %w", in.name, err)
	}
	return t, nil
}

// readErr is a reader that keeps its source's error, and stops when ctx is done.
type readErr struct {
	r   io.Reader
	ctx context.Context
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// verifyFile verifies the RDB file at path; a gzipped one, which the other commands read, is
// decompressed into a temporary file first (the server loads that) and reported under its
// own name.
func verifyFile(ctx context.Context, path string, opts verify.Options) (*verify.Report, error) {
	if !isGzip(path) {
		return verify.File(ctx, path, opts)
	}
	in, err := openRDBInput(ctx, path, nil)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	rep, err := verify.File(ctx, in.path, opts)
	if rep != nil && rep.File != nil {
		rep.File.Path = path
	}
	return rep, err
}
