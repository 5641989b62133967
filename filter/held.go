package filter

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rdbgen/rdbgen/record"
)

// maxHeldMem is the most bytes of fields a heldHash keeps in memory before it moves them to
// a temporary file (a variable for the tests).
var maxHeldMem = 4 << 20

// A heldHash holds the fields that live on in a hash whose expired fields are dropped: the
// count the sink needs first is known only once every field has been seen. The fields stay
// in memory up to maxHeldMem bytes, then go to a temporary file in $TMPDIR, removed by
// release, so a hash of any size is held in bounded memory.
type heldHash struct {
	key      []byte
	exp      int64
	n        uint64 // fields held
	minField int64  // the smallest expiry of the fields held, 0 for none
	mem      []byte // field length, field, value length, value, expiry; one after another
	file     *os.File
	w        *bufio.Writer
	m        record.Member // the field replayed
}

// start begins holding the fields of the hash key, which expires at exp.
func (h *heldHash) start(key []byte, exp int64) {
	h.key = append(h.key[:0], key...)
	h.exp, h.n, h.minField = exp, 0, 0
	h.mem = h.mem[:0]
}

// add holds a field.
func (h *heldHash) add(field, value []byte, exp int64) error {
	h.n++
	if exp != 0 && (h.minField == 0 || exp < h.minField) {
		h.minField = exp
	}
	h.mem = binary.AppendUvarint(h.mem, uint64(len(field)))
	h.mem = append(h.mem, field...)
	h.mem = binary.AppendUvarint(h.mem, uint64(len(value)))
	h.mem = append(h.mem, value...)
	h.mem = binary.LittleEndian.AppendUint64(h.mem, uint64(exp))
	if len(h.mem) < maxHeldMem {
		return nil
	}
	if h.file == nil {
		f, err := os.CreateTemp("", "rdbgen-fields-*")
		if err != nil {
			return fmt.Errorf("filter: hold the fields of %q: %w (set TMPDIR to a directory with room)", h.key, err)
		}
		h.file, h.w = f, bufio.NewWriterSize(f, 256<<10)
	}
	if _, err := h.w.Write(h.mem); err != nil {
		return fmt.Errorf("filter: hold the fields of %q in %s: %w", h.key, h.file.Name(), err)
	}
	h.mem = h.mem[:0]
	return nil
}

// replay adds every field held to next, in the order they came, and releases them.
func (h *heldHash) replay(next record.Sink) error {
	defer h.release()
	if h.file != nil {
		if err := h.w.Flush(); err != nil {
			return fmt.Errorf("filter: hold the fields of %q in %s: %w", h.key, h.file.Name(), err)
		}
		if _, err := h.file.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("filter: read back %s: %w", h.file.Name(), err)
		}
		if err := h.replayFrom(bufio.NewReaderSize(h.file, 256<<10), next); err != nil {
			return err
		}
	}
	return h.replayFrom(bufio.NewReader(bytes.NewReader(h.mem)), next)
}

// replayFrom reads held fields from r until its end and adds them to next.
func (h *heldHash) replayFrom(r *bufio.Reader, next record.Sink) error {
	m := &h.m
	for {
		var err error
		if m.Name, err = readHeld(r, m.Name); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if m.Value, err = readHeld(r, m.Value); err != nil {
			return err
		}
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return errHeld
		}
		m.ExpireAtMS = int64(binary.LittleEndian.Uint64(b[:]))
		if err := next.Add(m); err != nil {
			return err
		}
	}
}

var errHeld = errors.New("filter: held fields damaged")

// readHeld reads one length-prefixed string into dst[:0]; io.EOF at a clean end.
func readHeld(r *bufio.Reader, dst []byte) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err == io.EOF {
		return dst, io.EOF
	}
	if err != nil {
		return dst, errHeld
	}
	dst = append(dst[:0], make([]byte, n)...)
	if _, err := io.ReadFull(r, dst); err != nil {
		return dst, errHeld
	}
	return dst, nil
}

// release drops the fields held and removes the temporary file, if any.
func (h *heldHash) release() {
	h.mem = h.mem[:0]
	if cap(h.mem) > 2*maxHeldMem {
		h.mem = nil
	}
	if h.file != nil {
		h.file.Close()
		os.Remove(h.file.Name())
		h.file, h.w = nil, nil
	}
}
