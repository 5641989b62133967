package decoder

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/internal/crc64"
	"github.com/rdbgen/rdbgen/record"
)

// A PayloadReader reads DUMP payloads (see encoder.PayloadWriter: a value's type byte and
// object as an RDB file holds them, the RDB version and a CRC-64), one per call, into a
// record.Sink, as a Reader reads a file's records: a live server's values fetched with
// DUMP, say. It reuses its buffers from one payload to the next.
type PayloadReader struct {
	rd  Reader
	src bytes.Reader
}

// NewPayloadReader returns a PayloadReader with opts (BufferSize and MaxHeldBytes apply;
// OnDuplicate does not: a payload is one key).
func NewPayloadReader(opts Options) (*PayloadReader, error) {
	if opts.OnDuplicate != "" {
		return nil, fmt.Errorf("%w: OnDuplicate %q: a payload holds one key", ErrBadOption, opts.OnDuplicate)
	}
	if opts.BufferSize == 0 {
		opts.BufferSize = 64 << 10
	}
	// A NewReader on an empty file checks the options and sets the defaults.
	rd, err := NewReader(bytes.NewReader([]byte("REDIS0001")), opts)
	if err != nil {
		return nil, err
	}
	p := &PayloadReader{rd: *rd}
	p.rd.in, p.rd.ra, p.rd.done = newInput(&p.src, rd.opts.BufferSize), nil, true
	return p, nil
}

// WriteTo checks payload (its version at most MaxVersion, its checksum) and writes the value
// it holds into sink as the key key with the expiry expireAtMS (absolute Unix ms, 0 for
// none): a Begin, and for a collection or stream its Adds and End. Damage is an *Error
// naming the key and the offset in the payload; the sink's errors come back as they are.
func (p *PayloadReader) WriteTo(ctx context.Context, key []byte, expireAtMS int64, payload []byte, sink record.Sink) error {
	version, err := rdb.CheckPayload(payload, MaxVersion)
	if err != nil {
		if errors.Is(err, rdb.ErrPayload) && version > MaxVersion {
			err = fmt.Errorf("%w: %w", ErrVersion, err)
		} else {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return &Error{Key: bytes.Clone(key), Err: err}
	}
	obj := payload[:len(payload)-10]
	rd := &p.rd
	rd.version, rd.ctx = version, ctx
	p.src.Reset(obj)
	in := rd.in
	in.r, in.w, in.crcFrom, in.base, in.srcErr, in.crc = 0, 0, 0, 0, nil, crc64.Digest{}
	t, err := in.byte()
	if err != nil {
		return rd.fail(err, key)
	}
	rd.key = append(rd.key[:0], key...)
	rd.recStart, rd.recType = 0, t
	if err := rd.readValue(t, expireAtMS, sink); err != nil {
		return rd.fail(err, rd.key)
	}
	if in.offset() != int64(len(obj)) {
		return rd.fail(fmt.Errorf("%w: %d bytes after the value", ErrCorrupt, int64(len(obj))-in.offset()), rd.key)
	}
	rd.types[t]++
	rd.release()
	return nil
}

// Stats returns what the PayloadReader has read so far (Bytes: of the last payload).
func (p *PayloadReader) Stats() Stats { return p.rd.Stats() }
