package rebase

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A FileResult describes a File.
type FileResult struct {
	// Output is what was written in the file's place.
	Output *output.Result
	// Shift is the move of the expiries: from the file's creation time to the new time.
	Shift Shift
	// Moved counts the keys and hash fields whose expiry moved.
	Moved Stats
}

// File rewrites the RDB file at path in place with every expiry moved from the file's
// creation time (Created) to the time to, in the same RDB version; the new file is created
// at to. Like every output, the new file is put in place only once complete, and it keeps
// the old one's owner when run as root (an image's entrypoint). No manifest is written. Its
// cost is a convert: it reads and writes the whole file. A missing file is an error wrapping
// fs.ErrNotExist.
func File(ctx context.Context, path string, to time.Time) (FileResult, error) {
	if _, err := os.Stat(path); err != nil {
		return FileResult{}, err
	}
	from, err := Created(ctx, path)
	if err != nil {
		return FileResult{}, err
	}
	version, err := rdbVersion(path)
	if err != nil {
		return FileResult{}, err
	}
	shift := NewShift(from, to)
	var sink *Sink
	src := record.Through(decoder.File{Path: path}, func(next record.Sink) (record.Sink, error) {
		var err error
		sink, err = New(next, shift)
		return sink, err
	})
	out, err := output.File(path, output.Options{
		Encoder:    encoder.Options{RDBVersion: version, CreatedAt: to, CountsAreHints: true}, // a dump's counts are hints
		Force:      true,
		NoManifest: true,
		KeepOwner:  true,
	})
	if err != nil {
		return FileResult{}, err
	}
	res, err := out.Write(ctx, src, nil)
	if err != nil {
		return FileResult{}, err
	}
	return FileResult{Output: res, Shift: shift, Moved: sink.Stats()}, nil
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
