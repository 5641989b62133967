package encoder

import (
	"fmt"
	"io"
	"os"
)

// A record whose count comes before its parts (a stream's listpack nodes, a quicklist's
// nodes) cannot be written as it arrives. Its encoded parts go to a spool: memory up to
// maxSpoolMem bytes, then a temporary file, so a record of any size is written in bounded
// memory and copied into the output once its count is known.

// maxSpoolMem is the most bytes a spool keeps in memory before it moves them to a file (a
// variable for the tests).
var maxSpoolMem = 4 << 20

// spoolChunk is the size of the reads that copy a spooled file into the output.
const spoolChunk = 256 << 10

// A spool holds the encoded parts of one record.
type spool struct {
	dir  string   // where temporary files go; "" is os.TempDir
	mem  []byte   // the parts not yet in file
	file *os.File // the parts written so far, once they outgrew memory
}

// write adds p to the spool.
func (s *spool) write(p []byte) error {
	s.mem = append(s.mem, p...)
	if len(s.mem) < maxSpoolMem {
		return nil
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, "rdbgen-spool-*")
		if err != nil {
			return fmt.Errorf("encoder: spool: %w", err)
		}
		s.file = f
	}
	if _, err := s.file.Write(s.mem); err != nil {
		return fmt.Errorf("encoder: spool: %w", err)
	}
	s.mem = s.mem[:0]
	return nil
}

// copyTo appends the spooled bytes to the Writer's buffer, flushing as it goes, and empties
// the spool.
func (w *Writer) copySpool(s *spool) error {
	if s.file != nil {
		if _, err := s.file.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("encoder: spool: %w", err)
		}
		for {
			at := len(w.buf)
			if cap(w.buf)-at < spoolChunk {
				w.buf = append(w.buf, make([]byte, spoolChunk)...)[:at]
			}
			n, err := s.file.Read(w.buf[at : at+spoolChunk])
			w.buf = w.buf[:at+n]
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("encoder: spool: %w", err)
			}
			if err := w.maybeFlush(); err != nil {
				return err
			}
		}
	}
	w.buf = append(w.buf, s.mem...)
	s.release()
	return w.maybeFlush()
}

// release empties the spool and removes its file, if any.
func (s *spool) release() {
	s.mem = s.mem[:0]
	if cap(s.mem) > maxSpoolMem*2 {
		s.mem = nil
	}
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
}
