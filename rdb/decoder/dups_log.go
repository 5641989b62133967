package decoder

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync"
)

// A hashLog finds the 64-bit hashes (keyHash, memberHash) that come more than once among
// any number of them, in bounded memory and at little cost to the goroutine that adds: add
// appends a hash to a batch, and a goroutine of the log takes full batches and appends each
// hash to one of logParts partitions picked by its top bits, a partition's buffer going to
// a temporary file in $TMPDIR when full (none is made for fewer than logParts*logChunk
// hashes). Then repeated takes one partition at a time into a table that stays in the
// cache, on two goroutines. Batches and buffers take 4.5 MiB, the tables 1 MiB at most; the
// file 8 bytes a hash. Use newHashLog, and close it.
type hashLog struct {
	cur   []uint64      // the batch being filled
	work  chan []uint64 // full batches, to the partitioning goroutine
	free  chan []uint64 // empty batches, back
	done  chan struct{} // closed when the partitioning goroutine ends
	ended bool          // work is closed

	// Owned by the partitioning goroutine until done.
	buf    []byte            // logParts buffers of logChunk hashes, 8 bytes each
	n      [logParts]int     // hashes in each buffer
	chunks [logParts][]int64 // offsets in the file of each partition's full buffers
	f      *os.File          // the temporary file, once a buffer is full
	size   int64             // bytes in f and in out
	out    []byte            // full buffers waiting to be written to f
	err    error             // the first error writing f
	what   string            // what the hashes are of ("keys", "members"), for the file's name and errors
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
	logChunk = 2048
	maxTable = 1 << 16
)

// logBatch is the number of hashes in a batch, logBatches the number of batches, and
// logWrite the size of the writes to the file. Variables so that tests can make them small.
var (
	logBatch   = 16 << 10
	logWrite   = 256 << 10
	logBatches = 4
)

// newHashLog returns a log of the hashes of what ("keys", "members"). It takes the buffers
// of old, a closed log, when not nil (old is not used again).
func newHashLog(what string, old *hashLog) *hashLog {
	l := &hashLog{
		what: what,
		work: make(chan []uint64, logBatches),
		free: make(chan []uint64, logBatches),
		done: make(chan struct{}),
	}
	if old != nil && len(old.buf) == logParts*logChunk*8 && len(old.free) == logBatches {
		l.buf, l.out = old.buf, old.out[:0]
		l.cur = (<-old.free)[:0]
		for range logBatches - 1 {
			l.free <- (<-old.free)[:0]
		}
	} else {
		l.buf, l.cur = make([]byte, logParts*logChunk*8), make([]uint64, 0, logBatch)
		for range logBatches - 1 {
			l.free <- make([]uint64, 0, logBatch)
		}
	}
	go l.partition()
	return l
}

// add adds h.
func (l *hashLog) add(h uint64) {
	l.cur = append(l.cur, h)
	if len(l.cur) == logBatch {
		l.work <- l.cur
		l.cur = <-l.free
	}
}

// end hands the last batch over and waits for the partitioning goroutine.
func (l *hashLog) end() {
	if l.ended {
		return
	}
	l.ended = true
	l.work <- l.cur
	close(l.work)
	<-l.done
}

// partition puts the hashes of each batch in their partitions.
func (l *hashLog) partition() {
	defer close(l.done)
	for b := range l.work {
		l.put(b)
		l.free <- b[:0]
	}
	l.flush()
}

// put appends each hash of b to its partition, in one loop over locals: a call a hash
// cost as much as the store.
func (l *hashLog) put(b []uint64) {
	buf, n, chunk := l.buf, &l.n, logChunk
	for _, h := range b {
		p := int(h >> (64 - logPartBits))
		i := n[p]
		binary.LittleEndian.PutUint64(buf[(p*chunk+i)*8:], h)
		if i++; i < chunk {
			n[p] = i
			continue
		}
		n[p] = 0
		l.spill(p)
	}
}

// spill moves the full buffer of partition p to the file.
func (l *hashLog) spill(p int) {
	l.chunks[p] = append(l.chunks[p], l.size)
	l.out = append(l.out, l.buf[p*logChunk*8:(p+1)*logChunk*8]...)
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
		if l.f, l.err = os.CreateTemp("", "rdbgen-"+l.what+"-*.tmp"); l.err != nil {
			l.err = fmt.Errorf("keep the hashes of the %s in a temporary file: %w (set TMPDIR to a directory with room)", l.what, l.err)
			return
		}
	}
	if _, err := l.f.Write(l.out); err != nil {
		l.err = fmt.Errorf("keep the hashes of the %s in %s: %w (set TMPDIR to a directory with room)", l.what, l.f.Name(), err)
	}
	l.out = l.out[:0]
}

// close ends the partitioning goroutine and removes the file.
func (l *hashLog) close() {
	if l == nil {
		return
	}
	l.end()
	if l.f != nil {
		l.f.Close()
		os.Remove(l.f.Name())
		l.f = nil
	}
}

// repeated returns the hashes that were added more than once (each or-ed with 1, as
// hashSet keeps them: two hashes that differ in their lowest bit only count as one, which
// the caller's exact comparison sorts out). It stops with ctx's error.
func (l *hashLog) repeated(ctx context.Context) (map[uint64]struct{}, error) {
	found, err := l.repeatedList(ctx)
	if err != nil {
		return nil, err
	}
	var rep map[uint64]struct{}
	for _, h := range found {
		if rep == nil {
			rep = map[uint64]struct{}{}
		}
		rep[h|1] = struct{}{}
	}
	return rep, nil
}

// repeatedList returns the hashes that were added more than once, as repeated does, in a
// list: a hash added n times comes n-1 times.
func (l *hashLog) repeatedList(ctx context.Context) ([]uint64, error) {
	l.end()
	if l.err != nil {
		return nil, l.err
	}
	var found [2][]uint64
	var errs [2]error
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() { found[g], errs[g] = l.check(ctx, g, 2) })
	}
	wg.Wait()
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return nil, err
	}
	return slices.Concat(found[0], found[1]), nil
}

// check returns the hashes that repeat in partitions from, from+step, and so on.
func (l *hashLog) check(ctx context.Context, from, step int) ([]uint64, error) {
	var rep []uint64
	var tab fpTable
	raw := make([]byte, logChunk*8)
	for p := from; p < logParts; p += step {
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
			add := func(raw []byte) {
				for i := 0; i+8 <= len(raw); i += 8 {
					h := binary.LittleEndian.Uint64(raw[i:])
					if (rounds == 1 || int((h>>24)%uint64(rounds)) == r) && tab.add(h) {
						rep = append(rep, h)
					}
				}
			}
			for _, off := range l.chunks[p] {
				if _, err := l.f.ReadAt(raw, off); err != nil {
					return nil, fmt.Errorf("read back the hashes of the %s from %s: %w", l.what, l.f.Name(), err)
				}
				add(raw)
			}
			add(l.buf[p*logChunk*8 : (p*logChunk+l.n[p])*8])
		}
	}
	return rep, nil
}

// An fpTable holds 64-bit hashes of one partition as 32-bit fingerprints (their low bits,
// or-ed with 1) in an open-addressing table at most half full, a hash's slot coming from
// its bits above: two hashes match when they are equal, or, with odds of about n/2⁶³, when
// they are not; the exact comparison after sorts the latter out.
type fpTable struct {
	tab  []uint32 // 0 is an empty slot
	mask uint64
	n    int
}

// sized empties the table and makes room for n hashes.
func (t *fpTable) sized(n int) {
	size := 1024
	for size < 2*n {
		size *= 2
	}
	if len(t.tab) == size {
		clear(t.tab)
	} else {
		t.tab = make([]uint32, size)
	}
	t.mask, t.n = uint64(size-1), 0
}

// add adds h and reports whether a match was there already. A table is sized to stay at
// most half full (a larger partition comes in rounds, see check); one that would fill
// anyway reports a match rather than take the last empty slot, which ends every probe.
func (t *fpTable) add(h uint64) bool {
	fp := uint32(h) | 1
	for i := (h >> 32) & t.mask; ; i = (i + 1) & t.mask {
		switch t.tab[i] {
		case fp:
			return true
		case 0:
			if t.n+2 > len(t.tab) {
				return true
			}
			t.tab[i] = fp
			t.n++
			return false
		}
	}
}
