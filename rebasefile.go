package rdbgen

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

// RebaseResult describes a RebaseFile.
type RebaseResult struct {
	Result
	// Shift is the move of the expiries: from the file's creation time to the new time.
	Shift rebase.Shift
	// Moved counts the keys and hash fields whose expiry moved.
	Moved rebase.Stats
}

// RebaseFile rewrites the RDB file at path in place with every expiry moved from the file's
// creation time (rebase.Created) to the time to, in the same RDB version; the new file is
// created at to. Like WriteFile, it puts the new file in place only once complete, and
// keeps the old one's owner when run as root. No manifest is written. Its cost is a convert:
// it reads and writes the whole file.
func RebaseFile(ctx context.Context, path string, to time.Time) (RebaseResult, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return RebaseResult{}, err
	}
	from, err := rebase.Created(ctx, path)
	if err != nil {
		return RebaseResult{}, err
	}
	version, err := rdbVersion(path)
	if err != nil {
		return RebaseResult{}, err
	}
	shift := rebase.NewShift(from, to)
	var sink *rebase.Sink
	src := record.Through(decoder.File{Path: path}, func(next record.Sink) (record.Sink, error) {
		var err error
		sink, err = rebase.New(next, shift)
		return sink, err
	})
	res, err := WriteFile(ctx, path, src, FileOptions{
		Options:    Options{Encoder: encoder.Options{RDBVersion: version, CreatedAt: to, CountsAreHints: true}}, // a dump's counts are hints
		Force:      true,
		NoManifest: true,
	})
	if err != nil {
		return RebaseResult{}, err
	}
	if err := keepOwner(path, fi); err != nil {
		return RebaseResult{}, fmt.Errorf("rebase %s: %w", path, err)
	}
	return RebaseResult{Result: res.Result, Shift: shift, Moved: sink.Stats()}, nil
}

// rdbVersion returns the version in the header of the RDB file at path.
func rdbVersion(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rd, err := decoder.NewReader(f, decoder.Options{BufferSize: 64 << 10})
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	return rd.Version(), nil
}
