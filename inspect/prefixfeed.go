package inspect

import "runtime"

// A prefixFeed hands the keys' figures to the prefix counts on another goroutine, in
// batches, so that counting prefixes runs beside reading the file (on the second core)
// rather than after each record. The counts see the keys in the file's order, as if added
// one by one; wait returns once every key handed on is counted. With one CPU it adds
// directly.
type prefixFeed struct {
	pre   *prefixes
	batch *prefixBatch
	full  chan *prefixBatch // batches to count
	free  chan *prefixBatch // batches counted, to fill again
	done  chan struct{}
}

// prefixBatch is the keys of up to batchKeys records: their names one after another in
// keys, each ending at its end.
type prefixBatch struct {
	keys      []byte
	end       []int
	size, mem []int64
}

const (
	batchKeys    = 4096
	batchesAhead = 4
)

// newPrefixFeed returns a feed into pre, nil when pre is nil.
func newPrefixFeed(pre *prefixes) *prefixFeed {
	if pre == nil {
		return nil
	}
	f := &prefixFeed{pre: pre}
	if runtime.GOMAXPROCS(0) < 2 {
		return f
	}
	f.full = make(chan *prefixBatch, batchesAhead)
	f.free = make(chan *prefixBatch, batchesAhead+1)
	f.done = make(chan struct{})
	for range batchesAhead + 1 {
		f.free <- newPrefixBatch()
	}
	f.batch = <-f.free
	go f.count()
	return f
}

func newPrefixBatch() *prefixBatch {
	return &prefixBatch{
		keys: make([]byte, 0, batchKeys*16),
		end:  make([]int, 0, batchKeys),
		size: make([]int64, 0, batchKeys),
		mem:  make([]int64, 0, batchKeys),
	}
}

// count counts the batches handed on until full is closed.
func (f *prefixFeed) count() {
	defer close(f.done)
	for b := range f.full {
		start := 0
		for i, end := range b.end {
			f.pre.add(b.keys[start:end], b.size[i], b.mem[i])
			start = end
		}
		b.keys, b.end, b.size, b.mem = b.keys[:0], b.end[:0], b.size[:0], b.mem[:0]
		f.free <- b
	}
}

// add hands on the figures of one key; key may be reused once add returns.
func (f *prefixFeed) add(key []byte, size, mem int64) {
	if f.full == nil {
		f.pre.add(key, size, mem)
		return
	}
	b := f.batch
	b.keys = append(b.keys, key...)
	b.end = append(b.end, len(b.keys))
	b.size = append(b.size, size)
	b.mem = append(b.mem, mem)
	if len(b.end) == batchKeys {
		f.full <- b
		f.batch = <-f.free
	}
}

// wait hands on the last keys and returns once every key is counted; the feed takes no
// key after it.
func (f *prefixFeed) wait() {
	if f == nil || f.full == nil {
		return
	}
	if len(f.batch.end) > 0 {
		f.full <- f.batch
	}
	close(f.full)
	<-f.done
	f.full = nil
}
