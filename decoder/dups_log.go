package decoder

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
)

// A hashLog finds the 64-bit hashes that come more than once among any number of them, in
// bounded memory and without random access while they come: each hash is appended to one
// of logParts partitions picked by its top bits, a partition's buffer going to a temporary
// file in $TMPDIR when full (none is made for fewer than logParts*logChunk hashes). Then
// repeated takes one partition at a time into a table that stays in the cache. The buffers
// take 2 MiB and the table 1 MiB at most; the file 8 bytes a hash. The zero value is not
// usable: use newHashLog, and close it.
type hashLog struct {
	buf    []uint64          // logParts buffers of logChunk hashes
	n      [logParts]int     // hashes in each buffer
	chunks [logParts][]int64 // offsets in the file of each partition's full buffers
	f      *os.File          // the temporary file, once a buffer is full
	size   int64             // bytes in f and in out
	out    []byte            // full buffers waiting to be written to f
	err    error             // the first error writing f
}

// logParts is the number of partitions, picked by a hash's top logPartBits bits.
const (
	logPartBits = 8
	logParts    = 1 << logPartBits
)

// logChunk is the number of hashes a partition's buffer holds; maxTable, the number of
// hashes repeated checks at once (a larger partition takes rounds, each a share of its
// hashes). Variables so that tests can make them small.
var (
	logChunk = 1024
	maxTable = 1 << 16
)

// logWrite is the size of the writes to the file.
const logWrite = 256 << 10

func newHashLog() *hashLog {
	return &hashLog{buf: make([]uint64, logParts*logChunk)}
}

// add appends h.
func (l *hashLog) add(h uint64) {
	p := h >> (64 - logPartBits)
	i := l.n[p]
	l.buf[int(p)*logChunk+i] = h
	if i++; i < logChunk {
		l.n[p] = i
		return
	}
	l.n[p] = 0
	l.spill(int(p))
}

// spill moves the full buffer of partition p to the file.
func (l *hashLog) spill(p int) {
	l.chunks[p] = append(l.chunks[p], l.size)
	for _, h := range l.buf[p*logChunk : (p+1)*logChunk] {
		l.out = binary.LittleEndian.AppendUint64(l.out, h)
	}
	l.size += int64(logChunk * 8)
	if len(l.out) >= logWrite {
		l.flush()
	}
}

// flush writes out the buffers waiting.
func (l *hashLog) flush() {
	if len(l.out) == 0 || l.err != nil {
		l.out = l.out[:0]
		return
	}
	if l.f == nil {
		if l.f, l.err = os.CreateTemp("", "rdbgen-keys-*.tmp"); l.err != nil {
			l.err = fmt.Errorf("keep the hashes of the keys in a temporary file: %w (set TMPDIR to a directory with room)", l.err)
			return
		}
	}
	if _, err := l.f.Write(l.out); err != nil {
		l.err = fmt.Errorf("keep the hashes of the keys in %s: %w (set TMPDIR to a directory with room)", l.f.Name(), err)
	}
	l.out = l.out[:0]
}

// close removes the file.
func (l *hashLog) close() {
	if l != nil && l.f != nil {
		l.f.Close()
		os.Remove(l.f.Name())
		l.f = nil
	}
}

// repeated returns the hashes that were added more than once (each or-ed with 1, as
// hashSet keeps them: two hashes that differ in their lowest bit only count as one, which
// the caller's exact comparison sorts out). It stops with ctx's error.
func (l *hashLog) repeated(ctx context.Context) (map[uint64]struct{}, error) {
	l.flush()
	if l.err != nil {
		return nil, l.err
	}
	var rep map[uint64]struct{}
	var tab hashSet
	raw := make([]byte, logChunk*8)
	for p := range logParts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n := len(l.chunks[p])*logChunk + l.n[p]
		if n < 2 {
			continue
		}
		rounds := (n + maxTable - 1) / maxTable
		for r := range rounds {
			tab.sized(min(n, maxTable+maxTable/4))
			add := func(h uint64) {
				if rounds > 1 && int((h>>24)%uint64(rounds)) != r {
					return
				}
				if tab.add(h) {
					if rep == nil {
						rep = map[uint64]struct{}{}
					}
					rep[h|1] = struct{}{}
				}
			}
			for _, off := range l.chunks[p] {
				if _, err := l.f.ReadAt(raw, off); err != nil {
					return nil, fmt.Errorf("read back the hashes of the keys from %s: %w", l.f.Name(), err)
				}
				for i := 0; i < len(raw); i += 8 {
					add(binary.LittleEndian.Uint64(raw[i:]))
				}
			}
			for _, h := range l.buf[p*logChunk : p*logChunk+l.n[p]] {
				add(h)
			}
		}
	}
	return rep, nil
}
