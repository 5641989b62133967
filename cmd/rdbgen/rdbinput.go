package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/verify"
)

// maxHeldBytes is the decoder's Options.MaxHeldBytes for every input (0: its default). No
// input is held, since each can be read twice; the tests lower it to show that.
var maxHeldBytes = 0

// created returns the dump's creation time: its ctime AUX field, else (a file, not a copy of
// stdin) the created_at of its own manifest beside it (see rebase.Created).
func created(ctx context.Context, in *input.Input) (time.Time, error) {
	if !in.Spooled {
		return rebase.Created(ctx, in.Path)
	}
	f, err := os.Open(in.Path)
	if err != nil {
		return time.Time{}, err
	}
	defer f.Close()
	t, err := rebase.ReadCreated(ctx, f)
	var de *decoder.Error
	switch {
	case errors.As(err, &de):
		return time.Time{}, fmt.Errorf("read %s: %w", in.Name, err)
	case err != nil:
		return time.Time{}, fmt.Errorf("%s: %w", in.Name, err)
	}
	return t, nil
}

// verifyFile verifies the RDB file at path; a gzipped one, which the other commands read, is
// decompressed into a temporary file first (the server loads that) and reported under its
// own name.
func verifyFile(c *cli.Context, path string, opts verify.Options) (*verify.Report, error) {
	if path == "-" {
		return verify.File(c.Context, path, opts)
	}
	in, err := input.Open(c.Context, path, input.Options{Format: input.RDB})
	if err != nil {
		return verify.File(c.Context, path, opts) // it says what is wrong with the file
	}
	defer in.Close()
	rep, err := verify.File(c.Context, in.Path, opts)
	if rep != nil && rep.File != nil {
		rep.File.Path = path
	}
	return rep, err
}
