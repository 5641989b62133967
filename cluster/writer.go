package cluster

import (
	"errors"
	"fmt"
	"io"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// ErrDB is returned for records of a database other than 0: a cluster node refuses them.
var ErrDB = errors.New("a cluster node holds db 0 only")

// Buffer sizes of the shards' encoders: all shards together get about totalBuffer, each
// between minBuffer and the encoder's default.
const (
	totalBuffer = 16 << 20
	minBuffer   = 64 << 10
	maxBuffer   = 1 << 20
)

// WriterOptions configure a Writer. The zero value works.
type WriterOptions struct {
	// Encoder configures every shard's encoder.Writer. When its BufferSize is 0, each shard
	// gets a share of 16 MiB, between 64 KiB and 1 MiB, so that memory stays bounded with
	// many shards.
	Encoder encoder.Options
	// Counts gives, for each shard, the keys and keys with an expiry it will hold, when they
	// are known up front (see Counter). They become each file's RESIZEDB hint and are
	// checked on Close. Default nil: unknown, no hint, unless FillCounts is set.
	Counts []record.Counts
	// FillCounts gives each file the RESIZEDB hint of the keys it got without counting them
	// up front: every destination must be a File standing where its shard file is to start
	// (see CanFill); the Writer leaves room there for the header, writes the records after
	// it and fills it in on Close. The files are the same as with exact Counts. It costs
	// nothing unless the room, predicted from the counts BeginDB declares for the whole
	// database, misses the header's length (see Writer.BeginDB); then the shard's records
	// are moved on Close. Ignored when Counts is set. Default false.
	FillCounts bool
}

// A Writer splits one stream of records into a file per shard: each record goes to the
// rdbsink.Writer of the shard that owns its key's slot, so all files are written in one pass
// in memory bounded by the number of shards. Every file holds database 0.
//
// Writer implements record.Sink, the interface every record source writes to (generated
// datasets, spec files, imports), as rdbsink.Writer does: a key's Begin picks the shard of
// its key, and a collection's members and End go there. Keys
// must be unique, as in a single file. Shard gives direct access to a key's rdbsink.Writer.
type Writer struct {
	layout   *Layout
	shards   []*rdbsink.Writer
	files    []*shardFile  // with FillCounts, the shards' destinations
	declared record.Counts // the counts BeginDB declared for the whole database
	slots    slotter
	// owner8 is the layout's table of each slot's shard in bytes, with 256 shards or fewer:
	// a lookup of a random slot in the layout's 32 KiB table missed the first-level cache
	// often enough to cost 10% of a split (BenchmarkClusterSplit: 1.28-1.32x one file with
	// it, 1.35-1.45x without).
	owner8 *[Slots]uint8
	cur    *rdbsink.Writer // the shard of the open collection
	began  bool            // BeginDB was called
	closed bool
}

// NewWriter returns a Writer that writes shard i of layout to dsts[i]. Like rdbsink.Writer,
// it does not close the destinations.
func NewWriter(dsts []io.Writer, layout *Layout, opts WriterOptions) (*Writer, error) {
	if layout == nil {
		return nil, fmt.Errorf("%w: nil layout", rdb.ErrInvalidOption)
	}
	n := layout.Len()
	if len(dsts) != n {
		return nil, fmt.Errorf("%w: %d destinations for %d shards", rdb.ErrInvalidOption, len(dsts), n)
	}
	if opts.Counts != nil && len(opts.Counts) != n {
		return nil, fmt.Errorf("%w: %d counts for %d shards", rdb.ErrInvalidOption, len(opts.Counts), n)
	}
	eo := opts.Encoder
	if eo.BufferSize == 0 {
		eo.BufferSize = min(max(totalBuffer/n, minBuffer), maxBuffer)
	}
	w := &Writer{layout: layout, shards: make([]*rdbsink.Writer, n), slots: newSlotter()}
	if n <= 256 {
		w.owner8 = new([Slots]uint8)
		for slot := range w.owner8 {
			w.owner8[slot] = uint8(layout.Owner(slot))
		}
	}
	if opts.FillCounts && opts.Counts == nil {
		if !CanFill(dsts) {
			return nil, fmt.Errorf("%w: counts filled in need seekable files as destinations", rdb.ErrInvalidOption)
		}
		eo.HeaderLast = true
		w.files = make([]*shardFile, n)
	}
	for i, dst := range dsts {
		if w.files != nil {
			f, err := newShardFile(dst.(File), func() int { return w.headerRoom(i) })
			if err != nil {
				return nil, fmt.Errorf("shard %d: %w", i, err)
			}
			w.files[i], dst = f, f
		}
		sw, err := rdbsink.NewWriter(dst, eo)
		if err != nil {
			return nil, err
		}
		var info record.Counts
		if opts.Counts != nil {
			info = opts.Counts[i]
		}
		if err := sw.BeginDB(0, info); err != nil {
			return nil, fmt.Errorf("shard %d: %w", i, err)
		}
		w.shards[i] = sw
	}
	return w, nil
}

// Target returns the target the shards are written for.
func (w *Writer) Target() rdb.Target { return w.shards[0].Target() }

// RDBVersion returns the version written in the shards' headers.
func (w *Writer) RDBVersion() int { return w.shards[0].RDBVersion() }

// Layout returns the layout the Writer splits by.
func (w *Writer) Layout() *Layout { return w.layout }

// Shard returns the rdbsink.Writer of the shard that owns key's slot.
func (w *Writer) Shard(key []byte) *rdbsink.Writer {
	return w.shards[w.shardOf(w.slots.slot(key))]
}

// shardOf returns the shard that owns slot, or the slot of a CRC16: its low 14 bits.
func (w *Writer) shardOf(slot int) int {
	slot &= Slots - 1
	if w.owner8 != nil {
		return int(w.owner8[slot])
	}
	return w.layout.Owner(slot)
}

// Stats returns each shard's counts so far; after Close they describe the whole files.
func (w *Writer) Stats() []encoder.Stats {
	s := make([]encoder.Stats, len(w.shards))
	for i, sw := range w.shards {
		s[i] = sw.Stats()
	}
	return s
}

// Total returns the keys, expiries, members and bytes of all shards together.
func (w *Writer) Total() encoder.Stats {
	var t encoder.Stats
	for _, sw := range w.shards {
		s := sw.Stats()
		t.Keys += s.Keys
		t.Expires += s.Expires
		t.Members += s.Members
		t.Bytes += s.Bytes
	}
	return t
}

// Close closes every shard's encoder, which writes its trailer. It returns the first shard's
// error, naming the shard; it does not close the destinations.
func (w *Writer) Close() error {
	w.closed = true
	var first error
	for i, sw := range w.shards {
		err := sw.Close()
		if err == nil && w.files != nil {
			err = w.files[i].writeHeader(sw.Header())
		}
		if err != nil && first == nil {
			first = fmt.Errorf("shard %d: %w", i, err)
		}
	}
	return first
}
