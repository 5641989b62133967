package cluster

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/rdbgen/rdbgen/record"
)

// A File is a destination a Writer with WriterOptions.FillCounts writes a shard file into:
// the records go after room left for the header, and the header comes last, once the
// shard's counts are known. *os.File is one.
type File interface {
	io.Writer
	io.WriterAt
	io.ReaderAt
	io.Seeker
	Truncate(size int64) error
}

// CanFill reports whether a Writer with WriterOptions.FillCounts can write into each of
// dsts: each is a File whose position can be read, and a regular file when it can tell (a
// pipe or a device cannot be written out of order).
func CanFill(dsts []io.Writer) bool {
	for _, dst := range dsts {
		f, ok := dst.(File)
		if !ok {
			return false
		}
		if s, ok := dst.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := s.Stat(); err != nil || !fi.Mode().IsRegular() {
				return false
			}
		}
		if _, err := f.Seek(0, io.SeekCurrent); err != nil {
			return false
		}
	}
	return len(dsts) > 0
}

// A shardFile is a shard's destination with WriterOptions.FillCounts: at its first write it
// leaves room for the header, as long as room says, and writeHeader fills it in.
type shardFile struct {
	f       File
	start   int64      // where the shard's file starts in f
	room    func() int // the room to leave, asked at the first write
	left    int64      // the room left, from the first write on
	written int64      // bytes written after it
	started bool
}

// newShardFile returns the shardFile of f, which starts where f stands.
func newShardFile(f File, room func() int) (*shardFile, error) {
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	return &shardFile{f: f, start: start, room: room}, nil
}

// Write writes b after the room for the header.
func (s *shardFile) Write(b []byte) (int, error) {
	if !s.started {
		s.started = true
		s.left = int64(s.room())
		if _, err := s.f.Seek(s.start+s.left, io.SeekStart); err != nil {
			return 0, err
		}
	}
	n, err := s.f.Write(b)
	s.written += int64(n)
	return n, err
}

// writeHeader writes h in the room left for it, first moving what follows when the room is
// not h's length, and cutting the file short when it shrank.
func (s *shardFile) writeHeader(h []byte) error {
	size := int64(len(h))
	if size != s.left {
		if err := move(s.f, s.start+s.left, s.start+size, s.written); err != nil {
			return fmt.Errorf("move the records for a header of %d bytes: %w", size, err)
		}
		if size < s.left {
			if err := s.f.Truncate(s.start + size + s.written); err != nil {
				return fmt.Errorf("truncate: %w", err)
			}
		}
	}
	if _, err := s.f.WriteAt(h, s.start); err != nil {
		return fmt.Errorf("write header: %w", err)
	}
	return nil
}

// move copies the n bytes at from to to within f, in the order that never overwrites bytes
// not yet copied.
func move(f File, from, to, n int64) error {
	buf := make([]byte, min(n, 1<<20))
	for done := int64(0); done < n; {
		k := min(int64(len(buf)), n-done)
		off := done // forwards, when moving towards the start
		if to > from {
			off = n - done - k
		}
		if m, err := f.ReadAt(buf[:k], from+off); err != nil && !(errors.Is(err, io.EOF) && int64(m) == k) {
			return err
		}
		if _, err := f.WriteAt(buf[:k], to+off); err != nil {
			return err
		}
		done += k
	}
	return nil
}

// headerRoom returns the room to leave for shard i's header at its first write: the
// header's length when Close has built it (the shard fit in its encoder's buffer), else
// the length predicted from the counts BeginDB declared for the whole database and the
// shard's share of the slots, or from the shard's counts so far when none were declared.
// A prediction is off only when a count falls in another of the encodings' size classes
// (from 64, 16384 and 2³² on); writeHeader then moves the records.
func (w *Writer) headerRoom(i int) int {
	sw := w.shards[i]
	if h := sw.Header(); h != nil {
		return len(h)
	}
	if w.declared.Keys == 0 {
		s := sw.Stats()
		return sw.HeaderLen(0, record.Counts{Keys: s.Keys, Expires: s.Expires})
	}
	share := float64(w.layout.Shard(i).Slots()) / Slots
	return sw.HeaderLen(0, record.Counts{
		Keys:    uint64(float64(w.declared.Keys) * share),
		Expires: uint64(float64(w.declared.Expires) * share),
	})
}
