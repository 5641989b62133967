package importer

import (
	"bufio"
	"fmt"
	"github.com/rdbgen/rdbgen/internal/gz"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// An Input is an opened input: its reader, with gzip undone, and what closes it.
type Input struct {
	io.Reader
	// Gzip tells that the input was gzip-compressed.
	Gzip    bool
	closers []io.Closer
}

// Close closes the input.
func (in *Input) Close() error {
	var err error
	for i := len(in.closers) - 1; i >= 0; i-- {
		if cerr := in.closers[i].Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Open opens the file at path, or stdin for "-", and undoes gzip compression when the
// input starts with gzip's magic bytes, whatever its name.
func Open(path string, stdin io.Reader) (*Input, error) {
	in := &Input{}
	var r io.Reader = stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		in.closers = append(in.closers, f)
		r = f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	in.Reader = br
	if gz.Starts(br) {
		zr, err := gz.NewReader(br)
		if err != nil {
			in.Close()
			return nil, err
		}
		in.Gzip = true
		in.closers = append(in.closers, zr)
		in.Reader = bufio.NewReaderSize(zr, 64<<10)
	}
	return in, nil
}

// utf8BOM is the byte-order mark some editors put at the start of a UTF-8 file.
const utf8BOM = "\ufeff"

// Formats of input.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// DetectFormat tells JSON from CSV: by the name (.json, .jsonl, .ndjson, .csv, with or
// without .gz), else by the first byte that is not white space or a byte-order mark: JSON
// starts with { or [.
func DetectFormat(path string, in *Input) string {
	name := strings.TrimSuffix(strings.ToLower(path), ".gz")
	switch filepath.Ext(name) {
	case ".json", ".jsonl", ".ndjson":
		return FormatJSON
	case ".csv", ".tsv":
		return FormatCSV
	}
	if br, ok := in.Reader.(*bufio.Reader); ok {
		start := 1
		if bom, _ := br.Peek(len(utf8BOM)); string(bom) == utf8BOM {
			start += len(utf8BOM)
		}
	scan:
		for n := start; n <= 4096; n++ {
			b, _ := br.Peek(n)
			if len(b) < n {
				break
			}
			switch b[n-1] {
			case ' ', '\t', '\r', '\n':
			case '{', '[':
				return FormatJSON
			default:
				break scan
			}
		}
	}
	return FormatCSV
}

// Spool copies r into a new temporary file in dir (os.TempDir() when empty), for inputs
// that must be read twice, and returns its path.
func Spool(r io.Reader, dir string) (string, error) {
	f, err := os.CreateTemp(dir, "rdbgen-import-*")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("copy input to %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
