// Package decoder reads Redis RDB snapshot files: what real servers write, RDB versions 1
// to 12, every opcode and every type and encoding, streams and Redis 7.4's hash field TTLs
// included. A Reader streams the records of a file into a record.Sink, one record at a time:
// a collection's members go to the sink as they are read, so memory stays bounded whatever
// the size of the file or of its collections (quicklists, whose element count Redis does
// not write, are counted first: held while they are small, read twice from a file when they
// are not; see Options.MaxHeldBytes).
//
// Expiries are read as Redis reads them: an expiry opcode holds for the next key whatever
// opcodes come between, -1 is none, and 0 or below is a key already expired (see Expired).
// RESIZEDB counts are hints, a db may come in several sections, and Options.OnDuplicate
// applies rdbgen's rules for repeated keys and members.
//
// The checksum is checked as the file is read. Damaged input is an *Error naming the byte
// offset and the key, never a panic, and no allocation is sized by a length the file claims
// before its bytes have arrived. The package uses the standard library and rdbgen's own
// standard-library-only encoder and record packages.
package decoder

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rdbgen/rdbgen/record"
)

// Errors for errors.Is. Structural damage wraps ErrCorrupt; every error of WriteTo about
// the file is an *Error.
var (
	ErrNotRDB       = errors.New("decoder: not an RDB file")
	ErrVersion      = errors.New("decoder: unsupported RDB version")
	ErrCorrupt      = errors.New("decoder: corrupt")
	ErrTruncated    = errors.New("decoder: file ends inside a record")
	ErrChecksum     = errors.New("decoder: checksum mismatch")
	ErrModule       = errors.New("decoder: module value")
	ErrTooLarge     = errors.New("decoder: too large to hold")
	ErrBadOption    = errors.New("decoder: invalid option")
	errBadType      = fmt.Errorf("%w: unknown value type", ErrCorrupt)
	errBadOpcode    = fmt.Errorf("%w: unknown opcode", ErrCorrupt)
	errBadScore     = fmt.Errorf("%w: bad score", ErrCorrupt)
	errBadStream    = fmt.Errorf("%w stream", ErrCorrupt)
	errBadHashTTL   = fmt.Errorf("%w hash field ttl", ErrCorrupt)
	errDBOutOfRange = fmt.Errorf("%w: database number out of range", ErrCorrupt)
)

// MaxVersion is the newest RDB version with the REDIS magic the reader knows (Redis 8.10
// writes it); see FORMATS.md for what each version adds and which of it the reader carries.
const MaxVersion = 15

// An Error is damage found in a file: where, in which key, and what.
type Error struct {
	Offset int64  // byte offset in the file where the damage was found
	Key    []byte // the key being read, nil outside records
	Err    error
}

// Error formats the damage with its offset and key.
func (e *Error) Error() string {
	if e.Key != nil {
		return fmt.Sprintf("rdb byte %d, key %q: %v", e.Offset, e.Key, e.Err)
	}
	return fmt.Sprintf("rdb byte %d: %v", e.Offset, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Options configure a Reader. The zero value works.
type Options struct {
	// BufferSize is the size of the reads made from the source; default 1 MiB, at least 64 KiB.
	BufferSize int
	// MaxHeldBytes bounds the memory a quicklist may take while it is held to count its
	// elements (Redis writes the count of nodes, not of elements, and a Sink needs the
	// latter first); default 256 MiB. A longer list is an error wrapping ErrTooLarge, unless
	// the source is an io.ReaderAt and io.Seeker at offset 0 (an *os.File just opened, an
	// io.SectionReader): then a list past 8 MiB is read a second time instead of held.
	MaxHeldBytes int
	// IgnoreResizeDB passes zero counts (unknown) to BeginDB instead of the file's RESIZEDB
	// hints; default off: the hints are passed on. They are hints, not facts: Redis counts
	// an empty key it then skips, other writers may be inexact, and a db whose SELECTDB
	// comes again is opened in the sink again (with that section's hint) after another
	// db's section, so a sink that checks counts or refuses a db reopened must be told
	// (encoder.Options.CountsAreHints). A SELECTDB of the db already open is no new section.
	IgnoreResizeDB bool
	// OnDuplicate applies rdbgen's rules for repeats, as its importer does: a key that comes
	// again in its db is an error wrapping record.ErrDuplicateKey (record.DupError), or only its
	// first record is passed on (DupFirst), or only its last (DupLast), the others counted
	// in Stats.Duplicates; and a set, hash or sorted set that repeats a member is an error
	// wrapping record.ErrDuplicateMember. DupFirst and DupLast need File, which reads the file once
	// before to find the keys that repeat (memory grows with those keys only); a Reader
	// alone refuses them. Under DupError, a source that can be read at an offset (a file)
	// whose keys come in increasing byte order in each db, as rdbgen writes them, holds no
	// key twice and costs one comparison a key; from its first key out of order, it has
	// the 64-bit hashes of its keys (those before that one read again) kept in a temporary
	// file in $TMPDIR (8 bytes a key; a few MiB of memory) and checked once it is read,
	// before WriteTo returns: a repeated hash is confirmed by reading the source again, and
	// the error names both records; a source read once has the hashes kept in memory (8 to
	// 16 bytes a key) and a repeated hash is reported as it comes. Members are compared as
	// bytes among a collection's first 8, then by their 64-bit hashes (n²/2⁶⁵ odds of a
	// false alarm among n members): up to 16384 in memory, reported as they come; past
	// that, in a temporary file in $TMPDIR (8 bytes a member; a few MiB of memory) checked
	// at the collection's end, before End, a repeated hash confirmed by reading the
	// collection again from a source that can be read at an offset (the error names the
	// member; distinct members sharing a hash pass), or, from a source read once, the
	// error naming the shared hash. The temporary files are removed when WriteTo returns.
	// Default "": records are passed on as they come, for readers that report repeats
	// themselves.
	OnDuplicate record.OnDuplicate
	// CheckKeysFirst, under OnDuplicate DupError, makes File read the file once for
	// repeated keys before it passes on any record, so that a sink (a live server) gets
	// nothing from a file that holds a key twice; default off: the check ends the reading.
	CheckKeysFirst bool
	// DropNewer drops, counting them in Stats.NewerDropped, the parts of a Redis 8.6+ record
	// that no record holds (a stream's idempotent-producer metadata and NACK zone, a key's
	// module metadata, an array: the whole key; see newer.go); default off: a record holding
	// them is an error wrapping ErrNewerType naming the key and what it holds.
	DropNewer bool
	// Progress, if set, is called every few thousand records and at the end.
	Progress func(record.Progress)
}

// Stats describe what a Reader has read.
type Stats struct {
	Keys    uint64 // records passed to the sink
	Expires uint64 // records with an expiry
	Members uint64 // collection members and stream entries
	Empty   uint64 // empty collections skipped (Redis skips them too)
	// Duplicates counts the records of keys read before (or again after) that were left
	// out under Options.OnDuplicate first or last.
	Duplicates uint64
	Bytes      int64             // bytes read
	Types      map[string]uint64 // records per encoding (TypeName)
	// Checksum is the file's trailer, 0 when it has none; valid once WriteTo returned nil.
	Checksum uint64
	// Modules counts the module values (keys of type record.Module) passed on, by module
	// type name (9 characters, "MBbloom--"), and ModuleAux the module AUX records the same
	// way; nil when none.
	Modules, ModuleAux map[string]uint64
	// SlotImports counts Valkey 9's slot-import opcodes skipped: the state of a slot
	// migration under way, which the server that wrote the file resumes and no other holds.
	SlotImports uint64
	// EnterpriseSkipped counts Redis Enterprise's per-key opcodes skipped (RAM LRU, slot
	// number: one length each, before a record's type), which no other server holds.
	EnterpriseSkipped uint64
	// NewerDropped counts what Options.DropNewer dropped, by what it is ("stream producer
	// metadata", "stream NACK zone", "key metadata META-xxxx", "array"); nil when nothing was.
	NewerDropped map[string]uint64
}

// A Reader reads one RDB file from an io.Reader.
type Reader struct {
	in        *input
	opts      Options
	version   int
	valkey    bool // the magic is VALKEY: type and opcode numbers are Valkey's (see newer.go)
	aux       map[string]string
	hints     map[int]record.Counts
	functions []string
	stats     Stats
	types     [256]uint64
	done      bool
	recStart  int64 // offset of the type byte of the record being read
	recType   byte  // its type byte

	key, a, b, lzf []byte // scratch: the key, two values, compressed bytes
	arena          numArena
	fields         [][]byte
	held           []byte // quicklists being counted
	heldEnds       []int
	heldPlain      []bool
	ra             io.ReaderAt // the source, when it can be read at an offset
	seed           hashSeed
	members        memberSet // with OnDuplicate: the open collection's members
	keyHashes      hashSet   // with DupError from a source read once: the keys passed on
	order          *keyOrder // with DupError from a file: whether the keys came in order
	log            *hashLog  // with order, once a key came out of order: the keys passed on
	checked        bool      // File found the keys that repeat before (see dups)
	dups           dupIndex  // with checked: the keys that repeat
	scratch        []byte    // dups's map key
	hdr            record.Header
	mem            record.Member       // the open key's member, its type's fields set on each Add
	tail           record.StreamTail   // the open stream's
	keyMeta        []string            // the module metadata classes of the next key (keymeta.go)
	templates      map[uint64][][]byte // the hash template registry: id -> field names (hashtemplate.go)
	ctx            context.Context
}

// NewReader reads the header of an RDB file from r and returns a Reader positioned after it.
func NewReader(r io.Reader, opts Options) (*Reader, error) {
	if opts.BufferSize == 0 {
		opts.BufferSize = 1 << 20
	}
	if opts.MaxHeldBytes == 0 {
		opts.MaxHeldBytes = 256 << 20
	}
	if opts.BufferSize < 64<<10 || opts.MaxHeldBytes < 0 {
		return nil, fmt.Errorf("%w: BufferSize %d (at least 64 KiB), MaxHeldBytes %d", ErrBadOption, opts.BufferSize, opts.MaxHeldBytes)
	}
	if opts.OnDuplicate != "" && !opts.OnDuplicate.Valid() {
		return nil, fmt.Errorf("%w: OnDuplicate %q (known: error, first, last)", ErrBadOption, opts.OnDuplicate)
	}
	rd := &Reader{in: newInput(r, opts.BufferSize), opts: opts, aux: map[string]string{}, hints: map[int]record.Counts{}}
	// A source at its start that can also be read at an offset (a file just opened, an
	// io.SectionReader) lets long quicklists be read twice instead of held.
	if ra, ok := r.(io.ReaderAt); ok {
		if sk, ok := r.(io.Seeker); ok {
			if pos, err := sk.Seek(0, io.SeekCurrent); err == nil && pos == 0 {
				rd.ra = ra
			}
		}
	}
	head, err := rd.in.next(9)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			if err := MagicError(rd.in.buf[rd.in.r:rd.in.w]); err != nil {
				return nil, &Error{Err: err}
			}
			return nil, &Error{Offset: rd.in.offset(), Err: fmt.Errorf("%w: shorter than the 9-byte header", ErrNotRDB)}
		}
		return nil, err
	}
	if err := MagicError(head); err != nil {
		return nil, &Error{Err: err}
	}
	if rd.version, rd.valkey, err = ParseHeader(head); err != nil {
		return nil, &Error{Offset: 5, Err: err}
	}
	return rd, nil
}

// MagicError tells whether the first bytes of a file (any number of them, the 9 of the
// header at most) can begin an RDB file that this reader reads: nil when they begin with
// "REDIS" or "VALKEY" (or, fewer, with the start of one), else an error wrapping ErrNotRDB
// that shows them.
func MagicError(head []byte) error {
	for _, magic := range []string{"REDIS", valkeyMagic} {
		n := min(len(head), len(magic))
		if string(head[:n]) == magic[:n] {
			return nil
		}
	}
	return fmt.Errorf("%w: it begins with %q, not REDIS or VALKEY", ErrNotRDB, head[:min(len(head), 5)])
}

// ParseHeader returns the RDB version of a 9-byte header that MagicError accepted, and
// whether its magic is VALKEY (whose type and opcode numbers are Valkey's), or an error for
// a version that is not a number (ErrNotRDB) or not known (ErrVersion).
func ParseHeader(head []byte) (version int, valkey bool, err error) {
	if len(head) < 9 {
		return 0, false, fmt.Errorf("%w: shorter than the 9-byte header", ErrNotRDB)
	}
	digits := head[5:9]
	if valkey = string(head[:6]) == valkeyMagic; valkey {
		digits = head[6:9]
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false, fmt.Errorf("%w: version %q is not a number", ErrNotRDB, digits)
		}
		version = version*10 + int(c-'0')
	}
	return version, valkey, checkVersion(version, valkey)
}

// Version returns the file's RDB version.
func (rd *Reader) Version() int { return rd.version }

// Aux returns the AUX fields read so far (all of them once the first record is read).
func (rd *Reader) Aux() map[string]string { return rd.aux }

// ResizeHints returns the RESIZEDB hints read so far, by database: for a db in several
// sections, the sum of theirs.
func (rd *Reader) ResizeHints() map[int]record.Counts { return rd.hints }

// Functions returns the code of the function libraries read so far (Redis 7.0+). WriteTo
// also passes each to the sink, in file order: a sink that cannot carry them stops the
// reading with its error (record.ErrFunctionsUnsupported).
func (rd *Reader) Functions() []string { return rd.functions }

// Offset returns the bytes of the file read so far. Called from a Sink's Begin of a string or
// its End of another key, it is the offset just past that record.
func (rd *Reader) Offset() int64 { return rd.in.offset() }

// RecordOffset returns the offset of the type byte of the record being read, or of the last
// one read: with Offset at the record's end, its serialized size (without its expiry).
func (rd *Reader) RecordOffset() int64 { return rd.recStart }

// RecordType returns the value type byte of the record being read, or of the last one
// read: its encoding in the file, which TypeName names.
func (rd *Reader) RecordType() byte { return rd.recType }

// RecordTypeName names the value type of the record being read, or of the last one read, as
// TypeName does, but in this file's numbering: under the VALKEY magic, type 22 is Valkey's
// hash with field TTLs ("valkey-hash2").
func (rd *Reader) RecordTypeName() string { return rd.typeName(rd.recType) }

func (rd *Reader) typeName(t byte) string {
	if rd.valkey && t == valkeyHash2 {
		return valkeyHash2Name
	}
	return TypeName(t)
}

// Stats returns what the Reader has read so far.
func (rd *Reader) Stats() Stats {
	s := rd.stats
	s.Bytes = rd.in.offset()
	s.Types = map[string]uint64{}
	for t, n := range rd.types {
		if n > 0 {
			s.Types[rd.typeName(byte(t))] = n
		}
	}
	return s
}

// Opcodes.
const (
	opHashTemplates = 242 // Redis 8.10: the hash template registry; Valkey: a forkless-save update
	opSlotImport    = 243 // Valkey 9: a slot import; Redis 8.6: per-key metadata
	opSlotInfo      = 244
	opFunction2     = 245
	opFunctionPreGA = 246
	opModuleAux     = 247
	opIdle          = 248
	opFreq          = 249
	opAux           = 250
	opResizeDB      = 251
	opExpireTimeMS  = 252
	opExpireTime    = 253
	opSelectDB      = 254
	opEOF           = 255

	// Redis Enterprise writes these before a record's type, one length each; Redis refuses
	// them, redis/librdb skips them (parser.c, __RDB_OPCODE_RAM_LRU and _SLOT_NUM).
	opEnterpriseRAMLRU = 107
	opEnterpriseSlot   = 121
)

var typeNames = map[byte]string{
	0: "string", 1: "list", 2: "set", 3: "zset", 4: "hash", 5: "zset2", 6: "module", 7: "module2",
	9: "hash-zipmap", 10: "list-ziplist", 11: "set-intset", 12: "zset-ziplist", 13: "hash-ziplist",
	14: "list-quicklist", 15: "stream", 16: "hash-listpack", 17: "zset-listpack", 18: "list-quicklist2",
	19: "stream2", 20: "set-listpack", 21: "stream3", 22: "hash-metadata-pre-ga",
	23: "hash-listpack-ex-pre-ga", 24: "hash-metadata", 25: "hash-listpack-ex",
	26: "stream4", 27: "stream5", 28: "array", 29: "hash-tmpl-lp", 30: "hash-tmpl-lp-ref", 31: "hash-tmpl-array",
	32: "hash-tmpl-array-ref",
}

// typeNameOf is typeNames as a table, with "type-N" for the bytes it lacks: TypeName is
// asked once a record by readers that count types.
var typeNameOf = func() (tab [256]string) {
	for t := range tab {
		tab[t] = fmt.Sprintf("type-%d", t)
	}
	for t, n := range typeNames {
		tab[t] = n
	}
	return tab
}()

// TypeName names an RDB value type byte (its encoding), as Redis's rdb.h does in lower case.
func TypeName(t byte) string { return typeNameOf[t] }

// WriteTo reads the rest of the file into sink, database by database, and checks the
// checksum at its end. It stops with ctx's error when ctx is cancelled. A Reader reads once.
func (rd *Reader) WriteTo(ctx context.Context, sink record.Sink) error {
	if rd.done {
		return errors.New("decoder: the file was already read")
	}
	rd.done = true
	rd.ctx = ctx
	rd.seed = newSeed()
	defer rd.members.closeLog()
	switch on := rd.opts.OnDuplicate; {
	case rd.checked:
	case on == record.DupFirst || on == record.DupLast:
		return fmt.Errorf("%w: OnDuplicate %s reads the file twice: read it with File", ErrBadOption, on)
	case on == record.DupError && rd.ra != nil:
		rd.order = newKeyOrder()
		defer func() { rd.log.close() }()
	case on == record.DupError:
		rd.keyHashes.reset()
	}
	in := rd.in
	db, dbOpen := 0, false
	opened := -1              // the db the sink has open
	var section record.Counts // the RESIZEDB of the SELECTDB section being read
	// The expiry read for the next record: Redis applies it to the next key whatever
	// opcodes (AUX, SELECTDB) come between, and forgets it once that key is read.
	var expire int64
	hasExpire := false
	var records uint64
	fast := rd.stringsFast()
	for {
		if fast && dbOpen && !hasExpire && rd.keyMeta == nil {
			if err := rd.readStrings(db, sink, &records); err != nil {
				return err
			}
		}
		off := in.offset()
		t, err := in.byte()
		if err != nil {
			return rd.fail(err, nil)
		}
		switch t {
		case opEOF:
			if err := rd.finish(off); err != nil || rd.log == nil {
				return err
			}
			return rd.checkLog()
		case opAux:
			if rd.a, err = in.str(rd.a, &rd.lzf); err == nil {
				rd.b, err = in.str(rd.b, &rd.lzf)
				rd.aux[string(rd.a)] = string(rd.b)
			}
		case opSelectDB:
			var n uint64
			if n, err = in.plainLength(); err == nil && n > record.MaxDB {
				err = errDBOutOfRange
			}
			db, dbOpen, section = int(n), int(n) == opened, record.Counts{}
		case opResizeDB:
			var k, e uint64
			if k, err = in.plainLength(); err == nil {
				e, err = in.plainLength()
				section = record.Counts{Keys: k, Expires: e}
				h := rd.hints[db]
				rd.hints[db] = record.Counts{Keys: h.Keys + k, Expires: h.Expires + e}
			}
		case opExpireTimeMS:
			var v uint64
			v, err = in.uint64LE()
			expire, hasExpire = int64(v), true
			if err == nil {
				continue
			}
		case opExpireTime:
			var b []byte
			if b, err = in.next(4); err == nil {
				expire, hasExpire = int64(int32(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24))*1000, true
				continue
			}
		case opIdle:
			_, err = in.plainLength()
			if err == nil {
				continue
			}
		case opFreq:
			_, err = in.byte()
			if err == nil {
				continue
			}
		case opModuleAux:
			err = rd.moduleAux(sink)
		case opFunction2:
			if rd.a, err = in.str(rd.a, &rd.lzf); err == nil {
				rd.functions = append(rd.functions, string(rd.a))
				if err := sink.WriteFunction(rd.a); err != nil {
					return err // the sink's, as it is
				}
			}
		case opFunctionPreGA:
			if rd.a, err = rd.preGAFunction(); err == nil {
				rd.functions = append(rd.functions, string(rd.a))
				if err := sink.WriteFunction(rd.a); err != nil {
					return err // the sink's, as it is
				}
			}
		case opEnterpriseRAMLRU, opEnterpriseSlot:
			_, err = in.plainLength()
			rd.stats.EnterpriseSkipped++
			if err == nil {
				continue
			}
		case opSlotImport, opHashTemplates:
			err = rd.readNewerOpcode(t)
		case opSlotInfo:
			for range 3 {
				if _, err = in.plainLength(); err != nil {
					break
				}
			}
		default:
			if !dbOpen {
				info := section // a section of a db that came before gets its own hint
				if rd.opts.IgnoreResizeDB {
					info = record.Counts{}
				}
				if err := sink.BeginDB(db, info); err != nil {
					return err
				}
				dbOpen, opened = true, db
			}
			rd.recStart, rd.recType = off, t
			exp := loadExpiry(expire, hasExpire)
			expire, hasExpire = 0, false
			if err := rd.readRecord(t, exp, db, sink); err != nil {
				return err
			}
			rd.types[t]++
			records++
			if records%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if rd.opts.Progress != nil && records%(1<<14) == 0 {
					rd.progress()
				}
			}
		}
		if err != nil {
			return rd.fail(err, nil)
		}
	}
}

// Expired is the expiry the reader gives a key whose expiry in the file is 0 or negative: 1
// ms after the epoch, the earliest a file can hold. Redis reads such a key as expired (an
// expiry other than -1 and before now) and a primary drops it at load; with Expired it stays
// an expired key on every path (a filter's DropExpired drops it, a primary drops it at load,
// PEXPIREAT removes it), where 0 would mean "no expiry" and a negative one is refused.
const Expired = 1

// loadExpiry returns the expiry in Unix ms that a record read with the expiry v (has: an
// expiry opcode came before it) gets, as Redis reads it: -1 is no expiry, 0 and other
// negative values are long past (Expired).
func loadExpiry(v int64, has bool) int64 {
	switch {
	case !has || v == -1:
		return 0
	case v <= 0:
		return Expired
	}
	return v
}

func (rd *Reader) progress() {
	rd.opts.Progress(record.Progress{Keys: rd.stats.Keys, Members: rd.stats.Members, Bytes: rd.in.offset()})
}

// finish checks the trailer after the EOF opcode at off.
func (rd *Reader) finish(off int64) error {
	in := rd.in
	in.flushCRC()
	if rd.version < 5 {
		return rd.end()
	}
	b, err := in.next(8)
	if err != nil {
		return rd.fail(err, nil)
	}
	var sum uint64
	for i := 7; i >= 0; i-- {
		sum = sum<<8 | uint64(b[i])
	}
	if crc := in.crc.Sum64(); sum != 0 && sum != crc {
		return &Error{Offset: off + 1, Err: fmt.Errorf("%w: the trailer says %016x, the file's bytes %016x", ErrChecksum, sum, crc)}
	}
	rd.stats.Checksum = sum
	return rd.end()
}

func (rd *Reader) end() error {
	if rd.opts.Progress != nil {
		rd.progress()
	}
	return nil
}

// sinkErr marks an error returned by the sink, which WriteTo passes on as it is.
type sinkErr struct{ err error }

func (e sinkErr) Error() string { return e.err.Error() }

// fail wraps err, met while reading key (nil outside a record), with the offset.
func (rd *Reader) fail(err error, key []byte) error {
	var se sinkErr
	if errors.As(err, &se) {
		return se.err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = ErrTruncated
	}
	if key != nil {
		key = append([]byte{}, key...)
	}
	return &Error{Offset: rd.in.offset(), Key: key, Err: err}
}
