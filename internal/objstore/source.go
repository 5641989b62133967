package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gocloud.dev/blob"
)

// A Source reads an object without a copy on disk: Read streams it with one GET from the
// position Seek set (a new GET only when the position moves), and ReadAt reads a range of
// it with a ranged GET of its own, so that a reader may read part of it again (a long
// collection twice instead of holding it). Memory is the SDK's read buffer. It is not safe
// for concurrent use, except ReadAt.
type Source struct {
	o    Object
	ctx  context.Context
	b    *blob.Bucket
	size int64
	pos  int64
	r    *blob.Reader // the GET Read reads, from pos; nil until Read
}

// OpenSource opens the object for reading by Read, Seek and ReadAt (see Source); its
// attributes are read at once: a missing object is an error naming it.
func (o Object) OpenSource(ctx context.Context) (*Source, error) {
	b, err := o.open(ctx)
	if err != nil {
		return nil, err
	}
	attrs, err := b.Attributes(ctx, o.Key)
	if err != nil {
		b.Close()
		return nil, o.fail("read", err)
	}
	return &Source{o: o, ctx: ctx, b: b, size: attrs.Size}, nil
}

// Size returns the size of the object in bytes.
func (s *Source) Size() int64 { return s.size }

// Read reads the object from the position, opening a GET from there when none is open.
func (s *Source) Read(p []byte) (int, error) {
	if s.pos >= s.size {
		return 0, io.EOF
	}
	if s.r == nil {
		r, err := s.b.NewRangeReader(s.ctx, s.o.Key, s.pos, -1, nil)
		if err != nil {
			return 0, s.o.fail("read", err)
		}
		s.r = r
	}
	n, err := s.r.Read(p)
	s.pos += int64(n)
	if err == io.EOF && s.pos < s.size {
		err = io.ErrUnexpectedEOF
	}
	if err != nil && err != io.EOF {
		err = s.o.fail("read", err)
	}
	return n, err
}

// ReadAt reads len(p) bytes from off with a ranged GET of its own.
func (s *Source) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s: negative offset %d", s.o.URL, off)
	}
	if off >= s.size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), s.size-off)
	r, err := s.b.NewRangeReader(s.ctx, s.o.Key, off, want, nil)
	if err != nil {
		return 0, s.o.fail("read", err)
	}
	defer r.Close()
	n, err := io.ReadFull(r, p[:want])
	switch {
	case err != nil:
		return n, s.o.fail("read", err)
	case want < int64(len(p)):
		return n, io.EOF
	}
	return n, nil
}

// Seek sets the position Read reads from (io.SeekStart or io.SeekCurrent); the open GET is
// closed when the position moves.
func (s *Source) Seek(offset int64, whence int) (int64, error) {
	var pos int64
	switch whence {
	case io.SeekStart:
		pos = offset
	case io.SeekCurrent:
		pos = s.pos + offset
	case io.SeekEnd:
		pos = s.size + offset
	default:
		return s.pos, errors.New("objstore: Seek: bad whence")
	}
	if pos < 0 {
		return s.pos, fmt.Errorf("read %s: seek to negative offset %d", s.o.URL, pos)
	}
	if pos != s.pos && s.r != nil {
		s.r.Close()
		s.r = nil
	}
	s.pos = pos
	return pos, nil
}

// Close ends the open GET and closes the bucket.
func (s *Source) Close() error {
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	return s.b.Close()
}
