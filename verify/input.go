package verify

import (
	"context"
	"errors"
	"github.com/rdbgen/rdbgen/internal/gz"

	"github.com/rdbgen/rdbgen/input"
)

// Dump verifies the RDB file at path as File does; a gzipped one, which the other commands
// read, or an object in object storage, is kept in a temporary file first (the server loads
// a file) and reported under its own name; a damaged gzipped file is an error saying so.
func Dump(ctx context.Context, path string, opts Options) (*Report, error) {
	if path == "-" {
		return File(ctx, path, opts)
	}
	in, err := input.Open(ctx, path, input.Options{Format: input.RDB, Local: true})
	if errors.Is(err, gz.ErrDamaged) {
		return nil, err // a damaged gzip file: File would call it no RDB file
	}
	if err != nil {
		return File(ctx, path, opts) // it says what is wrong with the file
	}
	defer in.Close()
	opts.name = path
	rep, err := File(ctx, in.Path, opts)
	if rep != nil && rep.File != nil {
		rep.File.Path = path
	}
	return rep, err
}
