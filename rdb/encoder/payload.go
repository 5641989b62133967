package encoder

import (
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
)

// payloadBufferSize is the size of a PayloadWriter's writes into its payload.
const payloadBufferSize = 64 << 10

// Errors of payloads, for errors.Is.
var (
	// ErrPayloadTooLarge is returned by PayloadWriter.Payload for a record whose payload
	// passed the writer's limit.
	ErrPayloadTooLarge = errors.New("encoder: payload too large")
)

// A PayloadWriter writes keys one at a time as DUMP payloads, for RESTORE: each key is
// encoded as a Writer encodes it for the same Options (target, RDB version, thresholds,
// compression), so that a payload carries everything a file would. Write a key with the
// Writer's per-key calls (WriteString; BeginHash, AddField, End; ...), then take its
// payload with Payload. The key and expiry given to the calls name the key in errors only:
// RESTORE takes them as arguments. BeginDB does nothing, since a payload belongs to no
// database; function libraries and module AUX data are refused (rdb.ErrPayload): RESTORE
// carries one key. (Package rdb holds the payload's trailer and rdb.CheckPayload.)
type PayloadWriter struct {
	*Writer
	out payloadBuffer
}

// payloadBuffer is a PayloadWriter's destination: the encoded record, up to max bytes
// (0: no bound); past it, the bytes are counted and dropped.
type payloadBuffer struct {
	b    []byte
	n    int64
	max  int64
	over bool
}

// Write keeps p, unless the record has passed the bound.
func (p *payloadBuffer) Write(b []byte) (int, error) {
	p.n += int64(len(b))
	if p.max > 0 && p.n+rdb.PayloadTrailer > p.max {
		p.over, p.b = true, p.b[:0]
		return len(b), nil
	}
	p.b = append(p.b, b...)
	return len(b), nil
}

// reset empties the buffer for the next record; a large one gives its memory back.
func (p *payloadBuffer) reset() {
	p.b, p.n, p.over = p.b[:0], 0, false
	if cap(p.b) > 4<<20 {
		p.b = nil
	}
}

// NewPayloadWriter returns a PayloadWriter for opts' target and RDB version (see Options;
// HeaderLast, CreatedAt, CheckDuplicates and DisableChecksum do not apply: a payload is
// always checksummed). maxBytes bounds a payload, trailer included, as a server's
// proto-max-bulk-len bounds the RESTORE argument; 0 means no bound. The memory it holds
// is one payload, at most maxBytes.
func NewPayloadWriter(opts Options, maxBytes int64) (*PayloadWriter, error) {
	if maxBytes < 0 {
		return nil, fmt.Errorf("%w: payload bound %d", rdb.ErrInvalidOption, maxBytes)
	}
	opts.HeaderLast, opts.CheckDuplicates, opts.DisableChecksum = false, false, true
	if opts.BufferSize == 0 {
		opts.BufferSize = payloadBufferSize
	}
	p := &PayloadWriter{out: payloadBuffer{max: maxBytes}}
	w, err := NewWriter(&p.out, opts)
	if err != nil {
		return nil, err
	}
	w.buf, w.head, w.payload, w.dbOpen = w.buf[:0], header{firstDB: -1}, true, true
	p.Writer = w
	return p, nil
}

// Payload returns the payload of the record just written, with its version and checksum,
// and readies the writer for the next record. The bytes are valid until the next call of
// the writer. A record larger than the bound is ErrPayloadTooLarge.
func (p *PayloadWriter) Payload() ([]byte, error) {
	w := p.Writer
	if err := w.usable(); err != nil {
		return nil, err
	}
	if w.stats.Keys != 1 {
		keys := w.stats.Keys
		p.Abandon()
		return nil, fmt.Errorf("%w: %d records written, want one", rdb.ErrPayload, keys)
	}
	if err := w.writeBuf(); err != nil {
		return nil, err
	}
	w.stats = Stats{}
	if p.out.over {
		n := p.out.n + rdb.PayloadTrailer
		p.out.reset()
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrPayloadTooLarge, n, p.out.max)
	}
	b := rdb.AppendPayloadTrailer(p.out.b, w.caps.RDBVersion)
	p.out.reset()
	return b, nil
}

// Abandon drops the open record, if any, and its bytes, and clears a sticky error: the
// writer takes a new record.
func (p *PayloadWriter) Abandon() {
	w := p.Writer
	w.spool.release()
	w.coll.kind, w.err, w.buf, w.stats = noCollection, nil, w.buf[:0], Stats{}
	p.out.reset()
}

// Close releases the temporary files of a record left open; the writer takes no more.
func (p *PayloadWriter) Close() error {
	p.Writer.spool.release()
	p.Writer.closed = true
	return nil
}

// BeginDB does nothing: a payload belongs to no database.
func (p *PayloadWriter) BeginDB(int, DBInfo) error { return p.usable() }

// WriteFunction refuses the library: FUNCTION LOAD carries it, not RESTORE.
func (p *PayloadWriter) WriteFunction([]byte) error {
	return fmt.Errorf("%w: a payload holds one key, not a function library", rdb.ErrPayload)
}

// WriteModuleAux refuses the data: no command carries it.
func (p *PayloadWriter) WriteModuleAux(uint64, uint64, []byte) error {
	return fmt.Errorf("%w: a payload holds one key, not module AUX data", rdb.ErrPayload)
}
