package output

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/rdbgen/rdbgen/internal/objstore"

	"github.com/rdbgen/rdbgen/internal/human"
)

// Open starts the output opts say at path: with opts.Layout, the split's shard files in the
// directory path (Shards), or the one of opts.Shard (Shard); else one file, standard output
// for "-", or with opts.RESP a stream of commands (File).
func Open(path string, opts Options) (*Output, error) {
	switch {
	case opts.Layout != nil && opts.Shard != nil:
		return Shard(path, opts.Layout, *opts.Shard, opts)
	case opts.Layout != nil:
		return Shards(path, opts.Layout, opts)
	}
	return File(path, opts)
}

// CheckManifest checks, before any record is read, the manifest that opts.Manifest names for
// the file Open writes at path: it is not the file itself and, unless opts.Force is set, it
// does not exist (an error wrapping ErrExists). Without such a manifest (none named, a split,
// RESP, NoManifest) it returns nil.
func CheckManifest(path string, opts Options) error {
	m := opts.Manifest
	switch {
	case m == "" || opts.NoManifest || opts.RESP != nil || opts.Layout != nil:
		return nil
	case filepath.Clean(m) == filepath.Clean(path):
		return fmt.Errorf("%s is the output file", m)
	case objstore.IsURL(m) && !objstore.IsURL(path) && path != "-":
		return fmt.Errorf("%s is an object, and %s a local file: give the manifest a local path", objstore.Redact(m), path)
	}
	return checkManifestAt(context.Background(), m, opts.Force)
}

// Interrupted returns err, when it wraps context.Canceled and o (nil: not opened) is written
// as a stream, as words that say what its destination holds: what went to standard output,
// a FIFO or a device before the interruption stays there, incomplete. A file is put in place
// only once complete: for one, and before any byte went to standard output, it returns err.
func Interrupted(o *Output, err error) error {
	switch {
	case errors.Is(err, context.Canceled) && o != nil && objstore.IsURL(o.path):
		return fmt.Errorf("interrupted: the upload to %s was aborted, no object was written", objstore.Redact(o.path))
	case !errors.Is(err, context.Canceled) || o == nil || !o.stream:
		return err
	case o.path != "-":
		return fmt.Errorf("interrupted: what %s received is incomplete, discard it", o.path)
	case o.Written() > 0:
		return fmt.Errorf("interrupted after %s went to stdout: that output is incomplete, discard it", human.Bytes(o.Written()))
	}
	return err
}
