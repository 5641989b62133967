// Package gz reads and writes gzip-compressed dumps and exports. An output on its way to
// where it is placed, a file or an object whose name ends in .gz (Named), is written through
// a Writer, and End closes the gzip stream before the caller puts the file in place:
// packages output (dumps) and export (JSON, CSV) both write .gz through it, so that both
// name and compress the same way. An input that starts with gzip's magic bytes (Starts) is
// read through a Reader, whose errors say what a damaged input is (ErrDamaged).
package gz

import (
	"compress/gzip"
	"io"
	"strings"

	"github.com/rdbgen/rdbgen/internal/objstore"
)

// Named reports whether path, a file's path or an object's URL (its options after "?"
// ignored), names a gzip-compressed file: it ends in .gz.
func Named(path string) bool {
	return strings.HasSuffix(objstore.Redact(path), ".gz")
}

// A Writer compresses what is written to it into the writer below it.
type Writer struct {
	zw *gzip.Writer
}

// New returns a Writer compressing into w.
func New(w io.Writer) *Writer { return &Writer{zw: gzip.NewWriter(w)} }

// Write compresses p.
func (w *Writer) Write(p []byte) (int, error) { return w.zw.Write(p) }

// End writes what is buffered and the gzip trailer; the writer below stays open, for its
// owner to commit or abort.
func (w *Writer) End() error { return w.zw.Close() }
