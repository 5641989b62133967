package decoder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rdbgen/rdbgen/record"
)

// File is a record.Source over an RDB file on disk, or elsewhere (Open): each WriteTo opens
// the file and reads every record of it into the sink.
type File struct {
	Path    string
	Options Options
	// Name, if set, names the file in errors instead of Path (a temporary copy of stdin).
	Name string
	// Open, if set, opens the file instead of os.Open(Path), from its start, every time it
	// is read (an object in object storage); what it returns is read as NewReader reads r.
	Open func() (io.ReadCloser, error)
}

// WriteTo reads the file at f.Path into sink. Errors about the file name it; the sink's
// errors come back as they are.
func (f File) WriteTo(ctx context.Context, sink record.Sink) error {
	_, err := f.Read(ctx, sink)
	return err
}

// Read reads the file at f.Path into sink and returns what the reader saw: the version,
// the AUX fields and the statistics. With Options.OnDuplicate first or last, or error and
// CheckKeysFirst, it reads the file once before for the keys that come twice (and a third
// time, to compare them, if any hashes repeat): under error, a repeated key is then an
// error before any record goes to sink, and the Reader is nil.
func (f File) Read(ctx context.Context, sink record.Sink) (*Reader, error) {
	on := f.Options.OnDuplicate
	checked := on == record.DupFirst || on == record.DupLast || (on == record.DupError && f.Options.CheckKeysFirst)
	var dups dupIndex
	if checked {
		var err error
		if dups, err = repeatedKeys(ctx, f); err != nil {
			return nil, err
		}
		if on == record.DupError && len(dups) > 0 {
			return nil, fmt.Errorf("read %s: %w", f.name(), dups.err())
		}
	}
	var rd *Reader
	err := f.read(ctx, f.Options, func(r *Reader) { rd, r.checked, r.dups = r, checked, dups }, sink)
	return rd, err
}

// read reads the file with opts into sink, calling opened with the Reader before it reads.
func (f File) read(ctx context.Context, opts Options, opened func(*Reader), sink record.Sink) error {
	var fh io.ReadCloser
	var err error
	if f.Open != nil {
		fh, err = f.Open()
	} else {
		fh, err = os.Open(f.Path)
	}
	if err != nil {
		return err
	}
	defer fh.Close()
	rd, err := NewReader(fh, opts)
	if err != nil {
		return fmt.Errorf("read %s: %w", f.name(), err)
	}
	opened(rd)
	if err := rd.WriteTo(ctx, sink); err != nil {
		var de *Error
		if errors.As(err, &de) { // the file's fault: name it; the sink's errors are its own
			return fmt.Errorf("read %s: %w", f.name(), err)
		}
		return err
	}
	return nil
}

func (f File) name() string {
	if f.Name != "" {
		return f.Name
	}
	return f.Path
}

var _ record.Source = File{}
