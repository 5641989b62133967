package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// An Input is an opened input: its reader, with gzip undone, and what closes it.
type Input struct {
	io.Reader
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
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			in.Close()
			return nil, fmt.Errorf("gzip: %w", err)
		}
		in.closers = append(in.closers, zr)
		in.Reader = bufio.NewReaderSize(zr, 64<<10)
	}
	return in, nil
}

// Formats of input.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// DetectFormat tells JSON from CSV: by the name (.json, .jsonl, .ndjson, .csv, with or
// without .gz), else by the first byte that is not white space: JSON starts with { or [.
func DetectFormat(path string, in *Input) string {
	name := strings.TrimSuffix(strings.ToLower(path), ".gz")
	switch filepath.Ext(name) {
	case ".json", ".jsonl", ".ndjson":
		return FormatJSON
	case ".csv", ".tsv":
		return FormatCSV
	}
	if br, ok := in.Reader.(*bufio.Reader); ok {
	scan:
		for n := 1; n <= 4096; n++ {
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
