package diff

import (
	"encoding/binary"
	"fmt"
	"os"
)

// runs keeps the entries of one dump's keys in differing buckets (see sums) in runParts
// partitions picked by the top bits of their key hash, each partition's buffer of runChunk entries going to a temporary file in
// $TMPDIR when full: memory is runParts*runChunk entries (2.8 MiB), the file 37 bytes a
// key. A partition is read back whole (load), so a comparison holds one partition of each
// dump at a time: about 1/256 of the keys. (The decoder's hashLog, rdb/decoder/dups_log.go,
// keeps bare 64-bit hashes to find repeats in one source; a comparison needs each key's
// payload and a merge of two sources, so it has its own.)
type runs struct {
	buf    []byte
	n      [runParts]int
	chunks [runParts][]int64
	f      *os.File
	size   int64
	out    []byte
	keys   uint64
}

const (
	runPartBits = 8
	runParts    = 1 << runPartBits
)

// runChunk is the number of entries a partition's buffer holds (a variable for tests).
var runChunk = 300

// runWrite is the size of the writes to the file.
const runWrite = 1 << 20

func newRuns() *runs { return &runs{buf: make([]byte, runParts*runChunk*entrySize)} }

// add appends e to its partition.
func (r *runs) add(e *entry) error {
	r.keys++
	p := int(e.Key >> (64 - runPartBits))
	i := r.n[p]
	putEntry(r.buf[(p*runChunk+i)*entrySize:], e)
	if i++; i < runChunk {
		r.n[p] = i
		return nil
	}
	r.n[p] = 0
	r.chunks[p] = append(r.chunks[p], r.size)
	r.out = append(r.out, r.buf[p*runChunk*entrySize:(p+1)*runChunk*entrySize]...)
	r.size += int64(runChunk * entrySize)
	if len(r.out) >= runWrite {
		return r.flush()
	}
	return nil
}

// flush writes out the buffers waiting.
func (r *runs) flush() error {
	if len(r.out) == 0 {
		return nil
	}
	if r.f == nil {
		f, err := os.CreateTemp("", "rdbgen-diff-*.tmp")
		if err != nil {
			return fmt.Errorf("%w: keep the fingerprints in a temporary file: %w (set TMPDIR to a directory with room)", ErrTemp, err)
		}
		r.f = f
	}
	if _, err := r.f.Write(r.out); err != nil {
		return fmt.Errorf("%w: keep the fingerprints in %s: %w (set TMPDIR to a directory with room)", ErrTemp, r.f.Name(), err)
	}
	r.out = r.out[:0]
	return nil
}

// load returns the entries of partition p, appended to dst[:0], read into raw.
func (r *runs) load(p int, dst []entry, raw []byte) ([]entry, []byte, error) {
	dst = dst[:0]
	if cap(raw) < runChunk*entrySize {
		raw = make([]byte, runChunk*entrySize)
	}
	for _, off := range r.chunks[p] {
		raw = raw[:runChunk*entrySize]
		if _, err := r.f.ReadAt(raw, off); err != nil {
			return nil, raw, fmt.Errorf("%w: read back the fingerprints from %s: %w", ErrTemp, r.f.Name(), err)
		}
		dst = appendEntries(dst, raw)
	}
	dst = appendEntries(dst, r.buf[p*runChunk*entrySize:(p*runChunk+r.n[p])*entrySize])
	return dst, raw, nil
}

// close removes the file.
func (r *runs) close() {
	if r != nil && r.f != nil {
		r.f.Close()
		os.Remove(r.f.Name())
		r.f = nil
	}
}

func putEntry(b []byte, e *entry) {
	binary.LittleEndian.PutUint64(b, e.Key)
	binary.LittleEndian.PutUint64(b[8:], e.Value)
	binary.LittleEndian.PutUint64(b[16:], uint64(e.Expiry))
	binary.LittleEndian.PutUint64(b[24:], e.FieldTTLs)
	binary.LittleEndian.PutUint32(b[32:], e.DB)
	b[36] = e.Type
}

func appendEntries(dst []entry, raw []byte) []entry {
	for i := 0; i+entrySize <= len(raw); i += entrySize {
		b := raw[i : i+entrySize]
		dst = append(dst, entry{
			Key:       binary.LittleEndian.Uint64(b),
			Value:     binary.LittleEndian.Uint64(b[8:]),
			Expiry:    int64(binary.LittleEndian.Uint64(b[16:])),
			FieldTTLs: binary.LittleEndian.Uint64(b[24:]),
			DB:        binary.LittleEndian.Uint32(b[32:]),
			Type:      b[36],
		})
	}
	return dst
}
