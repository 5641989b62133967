package export

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/gz"
	"github.com/rdbgen/rdbgen/internal/objstore"
)

// FormatFor returns the format that name names; for an empty name, the one the extension
// of the output path tells (.jsonl, .ndjson, .csv, before a .gz), else FormatJSON. An
// unknown name is an error wrapping ErrFormat.
func FormatFor(name, path string) (Format, error) {
	if name != "" {
		if f := Format(name); slices.Contains(Formats, f) {
			return f, nil
		}
		return "", fmt.Errorf("%w %q (known: json, jsonl, csv)", ErrFormat, name)
	}
	switch strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz"))) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".csv":
		return FormatCSV, nil
	}
	return FormatJSON, nil
}

// A File is where an export goes: stdout, or a file or object (objstore.IsURL) that appears
// at its path only once complete (Commit); gzip-compressed when the path ends in .gz.
type File struct {
	io.Writer
	commit func() error // nil for stdout
	abort  func()       // nil for stdout
	gz     *gz.Writer   // nil when not compressed
}

// Create returns the File of path: stdout for "-"; an object's upload, which Commit
// completes, for an object URL; else a temporary file beside path that Commit puts in its
// place. An existing file or object at path is an error unless overwrite is set.
func Create(path string, overwrite bool, stdout io.Writer) (*File, error) {
	f := &File{Writer: stdout}
	switch {
	case objstore.IsURL(path):
		obj, err := objstore.Parse(path, false)
		if err != nil {
			return nil, err
		}
		w, err := obj.Create(context.Background(), overwrite)
		if err != nil {
			return nil, err
		}
		f.Writer, f.commit, f.abort = w, w.Commit, w.Abort
	case path != "-":
		af, err := atomicfile.Create(path, overwrite)
		if err != nil {
			return nil, err
		}
		f.Writer, f.commit, f.abort = af, af.Commit, func() { af.Abort() }
	}
	if gz.Named(path) {
		f.gz = gz.New(f.Writer)
		f.Writer = f.gz
	}
	return f, nil
}

// Commit ends the compressed stream and puts the file in place.
func (f *File) Commit() error {
	if f.gz != nil {
		if err := f.gz.End(); err != nil {
			f.Abort()
			return fmt.Errorf("export: write: %w", err)
		}
	}
	if f.commit != nil {
		return f.commit()
	}
	return nil
}

// Abort removes the temporary file, unless Commit put it in place; it can be deferred.
func (f *File) Abort() {
	if f.abort != nil {
		f.abort()
	}
}
