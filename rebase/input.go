package rebase

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// InputCreated returns the creation time of the dump in: its ctime AUX field, else (a file,
// not a copy of stdin nor an object) the created_at of its own manifest beside it (see Created); for a
// live server, now.
func InputCreated(ctx context.Context, in *input.Input) (time.Time, error) {
	if in.Kind == input.Live {
		return time.Now(), nil // the server's data as it is now
	}
	if !in.Spooled && in.Path != "" {
		return Created(ctx, in.Path)
	}
	f, err := in.OpenDump() // a copy of stdin, or an object: its ctime only

	if err != nil {
		return time.Time{}, err
	}
	defer f.Close()
	t, err := ReadCreated(ctx, f)
	var de *decoder.Error
	switch {
	case errors.As(err, &de):
		return time.Time{}, fmt.Errorf("read %s: %w", in.Name, err)
	case err != nil:
		return time.Time{}, fmt.Errorf("%s: %w", in.Name, err)
	}
	return t, nil
}
