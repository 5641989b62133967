package decoder

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rdbgen/rdbgen/record"
)

// File is a record.Source over an RDB file on disk: each WriteTo opens the file and reads
// every record of it into the sink.
type File struct {
	Path    string
	Options Options
}

// WriteTo reads the file at f.Path into sink. Errors about the file name it; the sink's
// errors come back as they are.
func (f File) WriteTo(ctx context.Context, sink record.Sink) error {
	_, err := f.Read(ctx, sink)
	return err
}

// Read reads the file at f.Path into sink and returns what the reader saw: the version,
// the AUX fields and the statistics.
func (f File) Read(ctx context.Context, sink record.Sink) (*Reader, error) {
	fh, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	rd, err := NewReader(fh, f.Options)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	if err := rd.WriteTo(ctx, sink); err != nil {
		var de *Error
		if errors.As(err, &de) { // the file's fault: name it; the sink's errors are its own
			return rd, fmt.Errorf("read %s: %w", f.Path, err)
		}
		return rd, err
	}
	return rd, nil
}

var _ record.Source = File{}
