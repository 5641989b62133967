// Package encoder writes Redis RDB snapshot files.
//
// A Writer streams records into any io.Writer in constant memory: it buffers internally,
// keeps the first error it meets, and writes the EOF marker and checksum on Close. The package
// uses the standard library only.
//
// # Collections
//
// The Writer has a call per kind of key: WriteString and WriteModule write a key whole.
// Hashes, sets, sorted sets and lists are written in three steps: their Begin call
// (BeginHash, BeginList, BeginSet, BeginZSet) names the key, its expiry and the number of
// members; one Add call per member follows (AddField, AddElement, AddMember,
// AddScoredMember); End closes the key. The count comes first because every encoding writes
// it before the members. Package rdbsink writes the records of package record through these
// calls; this package uses the standard library only and knows nothing of records.
//
// Each collection takes the encoding the target's server would itself choose under the
// rdb.Thresholds, so that it loads without converting. A collection too large for a compact
// encoding is written in its plain type as it arrives, in constant memory. One that may fit a
// compact encoding (listpack, ziplist, intset, quicklist) is held until End, in
// memory the thresholds bound, then written compact; if a member turns out too long (or, for
// sets, not an integer where only an intset would do), the members held so far are written
// in the plain type and the rest streams after them. Lists are always quicklists and streams
// always listpack nodes: their node count comes before the nodes, so finished nodes are
// spooled, in memory up to a few MiB and beyond that in a temporary file (Options.TempDir),
// and copied out at End.
//
// # What a file can hold
//
// What each RDB version and target can hold (record types, encodings, the fields of stream
// metadata) is one table in package rdb, a row per rdb.Feature: the Writer asks it for every choice it makes by
// version, and callers ask it before writing. Options.Check checks options without a Writer
// and returns their rdb.Capabilities; Capabilities.Can tells whether the file holds a feature.
// A key the file cannot hold fails with an rdb.CannotHoldError.
//
// # Streams and hash field TTLs
//
// A stream (RDB 9+) is written with BeginStream, AddStreamEntry per entry, then its
// metadata and consumer groups (SetStreamMeta, AddStreamGroup) and End: type 15 for RDB 9, 19 for RDB 10, 21 for
// RDB 11 and 12, nodes packed as the server packs them under StreamNodeMaxBytes and
// StreamNodeMaxEntries, groups, consumers and pending entries sorted as the server writes
// them. A hash whose fields expire (RDB 12) is opened by BeginHashTTL and filled by
// AddField with each field's expiry: type 25 (listpack-ex) within the hash thresholds, type
// 24 beyond.
//
// # Unique members
//
// Redis refuses a file whose set, hash or sorted set repeats a member. As with keys, the
// Writer trusts the caller by default, since checking costs memory in proportion to the
// collection; intsets are the exception, as sorting them finds repeats for free. With
// Options.CheckDuplicates the Writer also remembers the members of the open collection and
// fails with ErrDuplicateMember. List elements may repeat.
//
// # Duplicate keys
//
// Redis aborts loading a file that holds the same key twice in one database. The Writer keeps
// that promise in two ways: every database is opened once (BeginDB refuses a database that was
// already written, so a database's keys always form one section), and within a section it
// trusts the caller, since checking would cost memory in proportion to the keys. Callers whose
// keys are not unique by construction (imports, user data) set Options.CheckDuplicates, which
// remembers every key of the open database and fails with ErrDuplicateKey.
package encoder

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/internal/crc64"
	"github.com/rdbgen/rdbgen/rdb/internal/lzf"
)

// Record type bytes and opcodes.
const (
	typeString     = 0
	opExpireTimeMS = 0xfc
	opResizeDB     = 0xfb
	opSelectDB     = 0xfe
	opAux          = 0xfa
	opEOF          = 0xff
)

// DefaultBufferSize is the size of the writes a Writer makes when Options.BufferSize is 0.
const DefaultBufferSize = 1 << 20

// Errors callers can test for with errors.Is.
var (
	ErrClosed        = errors.New("encoder: write after close")
	ErrNoDB          = errors.New("encoder: no database selected")
	ErrDBReopened    = errors.New("encoder: database written twice")
	ErrCountMismatch = errors.New("encoder: key count differs from the declared one")
	ErrInvalidExpiry = errors.New("encoder: negative expiry")
	errDBOutOfRange  = errors.New("encoder: database number out of range")
	// ErrDuplicateKey: a key written twice in one database (Options.CheckDuplicates).
	ErrDuplicateKey = errors.New("encoder: duplicate key")
	// ErrDuplicateMember: a member repeated in a set, hash or sorted set.
	ErrDuplicateMember = errors.New("encoder: duplicate member")
	// ErrEmpty: a collection of no members (Redis drops empty keys).
	ErrEmpty = errors.New("encoder: empty collection (Redis drops empty keys)")
	// ErrNaNScore: a sorted-set score that is NaN.
	ErrNaNScore = errors.New("encoder: score is NaN")
	// ErrModuleValue: a module value or module AUX data without module id or not ending
	// with the EOF opcode.
	ErrModuleValue = errors.New("encoder: module value without module id or EOF opcode")
)

// Options configure a Writer. The zero value writes a checksummed, compressed file for
// rdb.DefaultTarget.
type Options struct {
	// Target names the server release to write for (see rdb.Targets); default rdb.DefaultTarget, or
	// with RDBVersion set the oldest Redis that loads that version.
	Target string
	// RDBVersion overrides the target's RDB version (rdb.MinVersion to rdb.MaxVersion, and no newer
	// than the target loads); default 0, the target's.
	RDBVersion int
	// DisableCompression turns off LZF compression of strings over 20 bytes; default off, so
	// strings are compressed where Redis would compress them.
	DisableCompression bool
	// DisableChecksum writes eight zero bytes as the trailer, which loaders accept without a
	// check; default off.
	DisableChecksum bool
	// CreatedAt is written as the ctime AUX field; default the time of NewWriter.
	CreatedAt time.Time
	// CheckDuplicates makes the writer remember the keys of the open database and the
	// members of the open collection, and refuse a repeated one with ErrDuplicateKey or
	// ErrDuplicateMember; default off (memory grows with the keys when on).
	CheckDuplicates bool
	// CountsAreHints takes the counts given to BeginDB as hints, as a dump's RESIZEDB is:
	// written, not checked; and lets a database be opened again after another's, its
	// records continuing it after a new SELECTDB (Redis loads such a file). A key repeated
	// across the sections is then the caller's to refuse. Default off: counts are checked,
	// and each database is opened once.
	CountsAreHints bool
	// BufferSize is the size of the writes made to the destination; default
	// DefaultBufferSize, 1 MiB.
	BufferSize int
	// Thresholds choose the encodings of collections, as the Redis settings of the same
	// names do on a server; nil means DefaultThresholds.
	Thresholds *rdb.Thresholds
	// DropFieldTTL writes a hash whose fields expire as a plain hash, without the field TTLs,
	// when the RDB version has none (HashFieldTTL); default off: such a hash is an error
	// (an rdb.CannotHoldError) naming its key.
	DropFieldTTL bool
	// TempDir is where records whose count precedes their parts (streams, long lists) spool
	// beyond a few MiB; default "", os.TempDir. Close removes what it made.
	TempDir string
	// HeaderLast leaves the header out of what the Writer writes: the destination gets the
	// file from its first record on, and Close computes the header, with the first
	// database's SELECTDB and a RESIZEDB hint of the keys that database got, for the caller
	// to put in front (see Header). The trailer's checksum covers the header. It is for a
	// caller that leaves room for the header in a file and fills it in once the counts are
	// known, as cluster.Writer does with the shards of a split. Default off.
	HeaderLast bool
	// ToolVersion is the value of the rdbgen-ver AUX field, which names the release of the
	// program that wrote the file; default "", no such field. rdbsink.NewWriter sets it to
	// rdbgen's release.
	ToolVersion string
}

// DBInfo is the size of one database: its keys, and how many of them expire. BeginDB takes
// it (the RESIZEDB hint of the file) and DBs reports it.
type DBInfo struct {
	Keys, Expires uint64
}

// Stats counts what a Writer has written.
type Stats struct {
	Keys, Expires uint64 // records, and records with an expiry
	Members       uint64 // members added to collections (a hash field and its value count once; a stream entry once)
	Bytes         int64  // bytes of the file passed to the destination, trailer included once closed (and with Options.HeaderLast the header, which the caller writes)
	Checksum      uint64 // CRC-64 of the file; valid after Close (zero with DisableChecksum)
	Functions     uint64 // function libraries written (WriteFunction)
	ModuleAux     uint64 // module AUX records written (WriteModuleAux)
}

// A Writer writes an RDB file to an io.Writer.
type Writer struct {
	dst       io.Writer
	buf       []byte // encoded bytes not yet written, flushed once bufLimit is reached
	bufLimit  int
	crc       uint64
	checksum  bool
	caps      rdb.Capabilities // the target and RDB version written
	has       features         // what caps holds, asked record by record
	err       error
	closed    bool
	stats     Stats
	lzf       *lzf.Compressor
	scratch   [16]byte
	dbOpen    bool
	db        int
	dbInfo    DBInfo
	dbStart   Stats // stats when the open database began
	dbsDone   map[int]bool
	dbCounts  map[int]DBInfo      // the keys written in each ended database that has some
	seen      map[string]struct{} // keys of the open database with CheckDuplicates
	checkDups bool
	hints     bool // Options.CountsAreHints
	limits    rdb.Thresholds
	coll      collection // the open collection record, if any
	strm      streamState
	spool     spool // the parts of the open stream or list
	head      header
	payload   bool // records without key or expiry, as DUMP payloads hold them (payload.go)
}

// NewWriter returns a Writer that writes an RDB file to dst. It checks opts (Options.Check)
// and buffers the header; nothing reaches dst before the buffer fills or Close is called.
func NewWriter(dst io.Writer, opts Options) (*Writer, error) {
	if dst == nil {
		return nil, fmt.Errorf("%w: nil destination", rdb.ErrInvalidOption)
	}
	caps, err := opts.Check()
	if err != nil {
		return nil, err
	}
	t, version := caps.Target, caps.RDBVersion
	size := opts.BufferSize
	if size == 0 {
		size = DefaultBufferSize
	}
	limits := rdb.DefaultThresholds()
	if opts.Thresholds != nil {
		limits = *opts.Thresholds
	}
	created := opts.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	w := &Writer{
		dst:       dst,
		buf:       make([]byte, 0, size+size/4),
		bufLimit:  size,
		checksum:  !opts.DisableChecksum,
		caps:      caps,
		has:       featureSet(caps),
		dbsDone:   make(map[int]bool),
		checkDups: opts.CheckDuplicates,
		hints:     opts.CountsAreHints,
		limits:    limits,
		spool:     spool{dir: opts.TempDir},
	}
	if !opts.DisableCompression {
		w.lzf = new(lzf.Compressor)
	}
	if w.has.has(rdb.ValkeyFormat) {
		w.buf = fmt.Appendf(w.buf, "VALKEY%03d", version) // rdbSaveRio: VALKEY and %03d
	} else {
		w.buf = fmt.Appendf(w.buf, "REDIS%04d", version)
	}
	w.appendAux(t.VersionAux, t.AuxVer)
	w.appendAux("redis-bits", "64")
	w.appendAux("ctime", strconv.FormatInt(created.Unix(), 10))
	w.appendAux("used-mem", "0")
	if version >= 10 {
		w.appendAux("aof-base", "0")
	}
	if opts.ToolVersion != "" {
		w.appendAux("rdbgen-ver", opts.ToolVersion)
	}
	w.head = header{last: opts.HeaderLast, fixed: slices.Clone(w.buf), firstDB: -1}
	if w.head.last {
		w.buf = w.buf[:0]
	}
	return w, nil
}

// Target returns the target the Writer writes for.
func (w *Writer) Target() rdb.Target { return w.caps.Target }

// RDBVersion returns the version written in the header.
func (w *Writer) RDBVersion() int { return w.caps.RDBVersion }

// Capabilities returns what the file can hold: its target and RDB version.
func (w *Writer) Capabilities() rdb.Capabilities { return w.caps }

// Stats returns the counts so far; after Close they describe the whole file.
func (w *Writer) Stats() Stats { return w.stats }

func (w *Writer) appendAux(key, value string) {
	w.buf = append(w.buf, opAux)
	w.buf = w.appendString(w.buf, []byte(key))
	w.buf = w.appendString(w.buf, []byte(value))
}

// BeginDB ends the open database section, if any, and opens database db. Each database may
// be opened once (again, continuing it, with Options.CountsAreHints); info gives its size
// when known.
func (w *Writer) BeginDB(db int, info DBInfo) error {
	if err := w.usable(); err != nil {
		return err
	}
	if db < 0 || db > 1<<31-1 {
		return w.fail(fmt.Errorf("%w: %d (0 to %d)", errDBOutOfRange, db, 1<<31-1))
	}
	if err := w.endDB(); err != nil {
		return err
	}
	if w.dbsDone[db] && !w.hints {
		return w.fail(fmt.Errorf("%w: db %d", ErrDBReopened, db))
	}
	if svc, ok := rdb.LookupService(w.caps.Target.Name); ok && len(w.dbsDone) > 0 {
		for first := range w.dbsDone { // one db, or an error before a second
			if err := svc.CheckDB(first, db); err != nil {
				return w.fail(err)
			}
		}
	}
	w.dbsDone[db] = true
	w.dbOpen, w.db, w.dbInfo, w.dbStart = true, db, info, w.stats
	if w.checkDups {
		w.seen = make(map[string]struct{})
	}
	if w.head.last && w.head.firstDB < 0 {
		w.head.firstDB = db // its SELECTDB and RESIZEDB are the header's, written on Close
		return nil
	}
	w.buf = appendDB(w.buf, db, info)
	return w.maybeFlush()
}

// appendDB appends the opening of database db's section: SELECTDB, and a RESIZEDB hint of
// info's counts when it gives keys.
func appendDB(b []byte, db int, info DBInfo) []byte {
	b = appendLength(append(b, opSelectDB), uint64(db))
	if info.Keys > 0 {
		b = appendLength(append(b, opResizeDB), info.Keys)
		b = appendLength(b, info.Expires)
	}
	return b
}

// DBs returns the keys, and keys with an expiry, written so far in each database that holds
// some; complete after Close.
func (w *Writer) DBs() map[int]DBInfo {
	dbs := make(map[int]DBInfo, len(w.dbCounts)+1)
	maps.Copy(dbs, w.dbCounts)
	if w.dbOpen {
		if keys := w.stats.Keys - w.dbStart.Keys; keys > 0 {
			before := dbs[w.db] // the sections of a database opened again
			dbs[w.db] = DBInfo{Keys: before.Keys + keys, Expires: before.Expires + w.stats.Expires - w.dbStart.Expires}
		}
	}
	return dbs
}

// endDB checks the open section against its declared size.
func (w *Writer) endDB() error {
	if !w.dbOpen {
		return nil
	}
	w.dbOpen = false
	w.seen = nil
	keys, expires := w.stats.Keys-w.dbStart.Keys, w.stats.Expires-w.dbStart.Expires
	if keys > 0 {
		if w.dbCounts == nil {
			w.dbCounts = make(map[int]DBInfo)
		}
		before := w.dbCounts[w.db] // the sections of a database opened again
		w.dbCounts[w.db] = DBInfo{Keys: before.Keys + keys, Expires: before.Expires + expires}
	}
	if in := w.dbInfo; in.Keys > 0 && !w.hints && (in.Keys != keys || in.Expires != expires) {
		return w.fail(fmt.Errorf("%w: db %d declared %d keys (%d with expiry), wrote %d (%d)",
			ErrCountMismatch, w.db, in.Keys, in.Expires, keys, expires))
	}
	return nil
}

// checkRecord checks that a record with this key and expiry may start now. A hot path
// calls it only when recordReady is false.
func (w *Writer) checkRecord(key []byte, expireAtMS int64) error {
	if w.err != nil || w.closed || w.coll.kind != noCollection {
		return w.usable()
	}
	if !w.dbOpen {
		return w.fail(ErrNoDB)
	}
	if expireAtMS < 0 {
		return w.fail(fmt.Errorf("write key %q: expiry %d ms: %w", key, expireAtMS, ErrInvalidExpiry))
	}
	if w.checkDups {
		if _, dup := w.seen[string(key)]; dup {
			return w.fail(fmt.Errorf("write key %q in db %d: %w", key, w.db, ErrDuplicateKey))
		}
		w.seen[string(key)] = struct{}{}
	}
	return nil
}

// recordReady reports whether a record with this expiry may start now with nothing for
// checkRecord to check or remember: checkRecord's common case, which is inlined, sparing
// WriteString a call per key.
func (w *Writer) recordReady(expireAtMS int64) bool {
	return w.err == nil && !w.closed && w.coll.kind == noCollection && w.dbOpen && !w.checkDups && expireAtMS >= 0
}

// appendRecordHeader appends the expiry, type byte and key of a record and counts it; a
// payload's record is its type byte alone.
func (w *Writer) appendRecordHeader(key []byte, expireAtMS int64, typ byte) {
	if w.payload {
		w.buf = append(w.buf, typ)
		w.stats.Keys++
		return
	}
	if expireAtMS > 0 {
		w.buf = appendExpiry(w.buf, expireAtMS)
		w.stats.Expires++
	}
	w.buf = append(w.buf, typ)
	w.buf = w.appendString(w.buf, key)
	w.stats.Keys++
}

// appendExpiry appends the EXPIRETIME_MS opcode and the expiry, little-endian.
func appendExpiry(b []byte, expireAtMS int64) []byte {
	return append(b, opExpireTimeMS,
		byte(expireAtMS), byte(expireAtMS>>8), byte(expireAtMS>>16), byte(expireAtMS>>24),
		byte(expireAtMS>>32), byte(expireAtMS>>40), byte(expireAtMS>>48), byte(expireAtMS>>56))
}

// Close ends the open database, writes the EOF marker and the checksum, and flushes. It does
// not close the destination. Closing twice is a no-op; writing after Close returns ErrClosed.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.spool.release()
	err := w.usable()
	if err == nil {
		err = w.endDB()
	}
	w.closed = true
	if err != nil {
		return err
	}
	w.buf = append(w.buf, opEOF)
	if w.head.last {
		w.head.finish(w.DBs())
	}
	if w.checksum {
		w.crc = crc64.Update(w.crc, w.buf)
		if w.head.last { // the header goes in front of what was checksummed
			w.crc = crc64.Combine(crc64.Update(0, w.head.done), w.crc, uint64(w.stats.Bytes)+uint64(len(w.buf)))
		}
		w.stats.Checksum = w.crc
	}
	c := w.stats.Checksum
	w.buf = append(w.buf, byte(c), byte(c>>8), byte(c>>16), byte(c>>24), byte(c>>32), byte(c>>40), byte(c>>48), byte(c>>56))
	err = w.writeBuf()
	w.stats.Bytes += int64(len(w.head.done)) // the header's bytes count, for the caller writes them
	return err
}

// usable reports whether a record or section may start: no error, not closed, and no
// collection open.
func (w *Writer) usable() error {
	if err := w.usableRecord(); err != nil {
		return err
	}
	if w.coll.kind != noCollection {
		return w.fail(fmt.Errorf("%w: key %q was not ended", ErrCollectionOpen, w.coll.key))
	}
	return nil
}

// usableRecord reports whether the writer has neither failed nor been closed.
func (w *Writer) usableRecord() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrClosed
	}
	return nil
}

// fail records err as the sticky error and returns it.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return w.err
}
