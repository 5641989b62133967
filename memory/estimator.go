// Package memory estimates the used_memory a dataset takes on a Redis server once loaded:
// what INFO memory reports for a server started on the file (loaded at start-up) once it
// has settled (its cron has finished rehashing the dicts that grew while loading), minus
// what the same server reports started the same way on a file of no keys. A server that
// loads the data otherwise (RESTORE, commands, replication) may hold more: the dicts'
// buckets grow differently, and it keeps client and replication buffers.
//
// An Estimator is a record.Sink: a Source writes its records into it (alone, or beside an
// rdbsink.Writer), and Result sums what the server would allocate for them. The model is
// Redis 7.0's, read from its sources and checked against Debian's redis-server 7.0.15
// (jemalloc 5.3): every allocation is rounded up to its jemalloc size class; each key costs
// a dictEntry and its name as an sds string in the main dict, whose bucket array is sized
// to the next power of two of the key count (RESIZEDB; without it, the dict doubles as keys
// arrive, to the same size, and Result.Rehashing tells what the old bucket array adds until
// the server has rehashed); a key with an expiry costs a second
// dictEntry in the expires dict; a value costs its robj and its encoding, which the server
// chooses at load from its own thresholds, not from the file's encoding:
//
//   - strings: shared integers 0 to 9999 (nothing), other integers in the robj (int),
//     up to 44 bytes embedded with the robj (embstr), longer ones an exact sds (raw);
//   - hashes, sorted sets: a listpack within the thresholds, the same bytes the encoder
//     writes; else a dict of sds fields and values, or a dict plus a skiplist whose node
//     levels are drawn at random (the expected node size is used);
//   - sets: an intset of integers, else a dict of sds members (Redis 7.2+: a listpack
//     within set-max-listpack-entries and -value);
//   - lists: a quicklist of listpack nodes filled as quicklistPushTail fills them (Redis
//     7.2+: a single small node is a plain listpack);
//   - streams: listpack nodes of up to 100 entries or 4 KiB in a radix tree, consumer
//     groups, their consumers and pending entries in radix trees, each tree built node by
//     node as rax.c builds it.
//
// Other releases, measured on servers built from source (testdata/measured.json): before
// 7.0 a dict is larger, small hashes and sorted sets are ziplists and the stream structs
// are smaller; Redis 7.2 and Valkey add listpack sets and lists and keep set members in
// the dict's buckets without a dictEntry; Redis 7.4 adds hash field TTLs; Redis 7.4 and
// Valkey 8.0 make their database dicts at the first key, after RESIZEDB, so they grow as
// keys arrive; Valkey 8.0 copies each key's name into its main-dict entry.
// Options.Allocator counts glibc's malloc instead of jemalloc. Valkey 8.1+ is modelled as
// 8.0: it embeds keys in their robj and replaces the main dict by open addressing, which
// saves some bytes a key that this model still counts.
package memory

import (
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// DefaultTarget is the server release the model was measured against.
const DefaultTarget = "redis-7.0"

// Options configure an Estimator. The zero value estimates for DefaultTarget with Redis's
// default thresholds.
type Options struct {
	// Target names the server release that will load the data (see rdb.Targets);
	// default DefaultTarget.
	Target string
	// Thresholds are the server's encoding settings (hash-max-listpack-entries and so on);
	// nil means rdb.DefaultThresholds, Redis's defaults.
	Thresholds *rdb.Thresholds
	// NoSharedIntegers tells that the server runs with maxmemory and an LRU or LFU
	// maxmemory-policy, under which integer strings 0 to 9999 get objects of their own
	// rather than the shared ones; default off, as on a server without maxmemory.
	NoSharedIntegers bool
	// Allocator is the server's allocator, as INFO memory names it (mem_allocator):
	// "jemalloc-5.3.0" or any "jemalloc…" (the default, what Redis and Valkey builds
	// use), or "libc" (glibc malloc, a server built with MALLOC=libc).
	Allocator string
}

// A model is what differs between server releases.
type model struct {
	target        rdb.Target
	listpackSets  bool // Redis 7.2+ and Valkey: small sets of strings are listpacks
	listpackLists bool // Redis 7.2+ and Valkey: a list of one small node is a listpack
	fieldTTL      bool // Redis 7.4+: hashes with field TTLs
	// noValueSets: Redis 7.2+ and Valkey keep a set's members in its dict's buckets, with
	// no dictEntry, but for a member whose bucket is taken (16 bytes: key, next).
	noValueSets bool
	// dictsOnDemand: Redis 7.4+ and Valkey 8.0+ make a database's dicts at its first key,
	// after RESIZEDB, which then sizes nothing: the dicts double as keys arrive
	// (Result.Rehashing).
	dictsOnDemand bool
	// embeddedKeys: Valkey 8.0+ copies a key's name into its main-dict entry (a
	// dictEntryEmbedded: value, next, header offset, then the sds) instead of an entry and
	// an sds of its own.
	embeddedKeys bool
	// The stream structures, which grew in 7.0 (first and deleted ids, entries added and
	// read) and 7.2 (a consumer's active time).
	streamSize, streamCGSize, streamConsumerSize int64
	// Before Redis 7.0: a dict is its two hash tables and more (dictSizeBefore70), and small
	// hashes and sorted sets are ziplists, whose header is longer (ziplistOverhead).
	dict, packOverhead int64
}

func newModel(name string) (model, error) {
	if name == "" {
		name = DefaultTarget
	}
	t, err := rdb.LookupTarget(name)
	if err != nil {
		return model{}, err
	}
	// What the target's files hold (encoder's capability table) is what its server makes.
	m := model{target: t, listpackSets: t.Can(rdb.SetListpack), fieldTTL: t.Can(rdb.HashFieldTTL)}
	m.listpackLists, m.noValueSets = m.listpackSets, m.listpackSets
	m.dict, m.packOverhead = dictSize, encoder.ListpackOverhead
	if !t.Can(rdb.ListpackEncodings) {
		m.dict, m.packOverhead = dictSizeBefore70, ziplistOverhead
	}
	valkey, release := serverRelease(t)
	redis := func(major, minor int) bool { return !valkey && atLeast(release, major, minor) }
	m.dictsOnDemand = redis(7, 4) || valkey && atLeast(release, 8, 0)
	m.embeddedKeys = valkey && atLeast(release, 8, 0)
	m.streamSize, m.streamCGSize, m.streamConsumerSize = streamSize, streamCGSize, streamConsumerSize
	if !atLeast(t.ServerVer, 7, 0) {
		m.streamSize, m.streamCGSize = streamSizeBefore70, streamCGSizeBefore70
	}
	if !atLeast(t.ServerVer, 7, 2) {
		m.streamConsumerSize = streamConsumerSizeBefore72
	}
	return m, nil
}

// serverRelease returns whether t's server is Valkey, and the release its files name
// ("8.0.0"): Valkey's own, or Redis's (a managed service's too).
func serverRelease(t rdb.Target) (valkey bool, release string) {
	return t.VersionAux == "valkey-ver", t.AuxVer
}

// atLeast reports whether release ("7.2.4") is major.minor or later.
func atLeast(release string, major, minor int) bool {
	var x, y int
	fmt.Sscanf(release, "%d.%d", &x, &y)
	return x > major || x == major && y >= minor
}

// An Estimator is a record.Sink that adds up the memory its records take on a server.
// It keeps a few counters per database and per open collection, not the records.
type Estimator struct {
	model  model
	alloc  *allocator
	limits rdb.Thresholds
	shared bool // integer strings below 10000 are shared objects
	err    error
	db     *dbUsage // the open database
	dbs    map[int]*dbUsage
	order  []int // databases in the order opened
	types  map[record.Type]*Usage
	encs   map[encKey]*Usage
	// The entries of types and encs the last key counted in: keys come in runs of one
	// type and encoding, which then need no map lookup.
	lastType *Usage
	lastEnc  *Usage
	lastKey  encKey
	// The entries of types and encs of strings, by stringEnc: strings, most keys of most
	// files, skip the comparison of encKeys too.
	strType *Usage
	strEncs [len(stringEncs)]*Usage
	coll    collection
	scratch []byte
	last    int64 // the bytes of the last key counted (see KeyBytes)
	// keyEntries are keyEntry of the short names most keys have.
	keyEntries [128]int64
}

// The Estimator is a Sink.
var _ record.Sink = (*Estimator)(nil)

// New returns an Estimator for opts, or an error naming the option that is wrong.
func New(opts Options) (*Estimator, error) {
	m, err := newModel(opts.Target)
	if err != nil {
		return nil, fmt.Errorf("memory estimate: %w", err)
	}
	a, err := allocatorNamed(opts.Allocator)
	if err != nil {
		return nil, fmt.Errorf("memory estimate: %w", err)
	}
	limits := rdb.DefaultThresholds()
	if opts.Thresholds != nil {
		limits = *opts.Thresholds
		// The encoder's constructor is the one check of thresholds.
		if _, err := rdbsink.NewWriter(discard{}, encoder.Options{Target: m.target.Name, Thresholds: &limits, BufferSize: 4096}); err != nil {
			return nil, fmt.Errorf("memory estimate: %w", err)
		}
	}
	e := &Estimator{
		model:  m,
		alloc:  a,
		limits: limits,
		shared: !opts.NoSharedIntegers,
		dbs:    make(map[int]*dbUsage),
		types:  make(map[record.Type]*Usage),
		encs:   make(map[encKey]*Usage),
	}
	for n := range e.keyEntries {
		e.keyEntries[n] = keyEntryAlloc(a, m.embeddedKeys, n)
	}
	return e, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// fail keeps the first error.
func (e *Estimator) fail(err error) error {
	if e.err == nil {
		e.err = err
	}
	return e.err
}

// BeginDB opens database db; info's counts, when given, size its dicts as RESIZEDB does.
func (e *Estimator) BeginDB(db int, info record.Counts) error {
	if e.err != nil {
		return e.err
	}
	if e.coll.open {
		return e.fail(fmt.Errorf("begin db %d: %w", db, encoder.ErrCollectionOpen))
	}
	d := e.dbs[db]
	if d == nil {
		d = &dbUsage{DBUsage: DBUsage{DB: db}}
		e.dbs[db] = d
		e.order = append(e.order, db)
	}
	d.hintKeys = max(d.hintKeys, info.Keys)
	d.hintExpires = max(d.hintExpires, info.Expires)
	d.resized = d.resized || info.Keys > 0 && !e.model.dictsOnDemand
	e.db = d
	return nil
}

// addKey counts a key of the open database: its dictEntry, its name, its expiry, and
// value bytes of the value in encoding enc.
func (e *Estimator) addKey(key []byte, expireAtMS int64, typ record.Type, enc string, value int64) error {
	if e.db == nil {
		return e.fail(fmt.Errorf("write key %q: %w", key, encoder.ErrNoDB))
	}
	b := e.charge(e.keyEntry(len(key))+value, expireAtMS)
	k := encKey{typ, enc}
	if e.lastEnc == nil || k != e.lastKey {
		e.lastType, e.lastEnc = e.usage(k)
		e.lastKey = k
	}
	count(e.lastType, e.lastEnc, b)
	return nil
}

// addString counts a string key as addKey does, its value of b bytes in stringEncs[enc].
func (e *Estimator) addString(h *record.Header, enc stringEnc, value int64) error {
	if e.db == nil {
		return e.addKey(h.Key, h.ExpireAtMS, record.String, stringEncs[enc], value)
	}
	b := e.charge(e.keyEntry(len(h.Key))+value, h.ExpireAtMS)
	v := e.strEncs[enc]
	if v == nil {
		e.strType, v = e.usage(encKey{record.String, stringEncs[enc]})
		e.strEncs[enc] = v
	}
	count(e.strType, v, b)
	return nil
}

// keyEntry returns what a key of n bytes takes in the main dict: its entry and its name.
func (e *Estimator) keyEntry(n int) int64 {
	if uint(n) < uint(len(e.keyEntries)) {
		return e.keyEntries[n]
	}
	return keyEntryAlloc(e.alloc, e.model.embeddedKeys, n)
}

// keyEntryAlloc is keyEntry worked out: a dictEntry and an sds, or, with embedded keys, one
// dictEntryEmbedded holding the sds.
func keyEntryAlloc(a *allocator, embedded bool, n int) int64 {
	if embedded {
		return a.size(embeddedEntrySize + sdsHeader(n) + int64(n) + 1)
	}
	return a.dictEntry + a.sds(n)
}

// charge adds a key of the open database, whose name, entry and value take own bytes, to
// the database, and returns its bytes (KeyBytes).
func (e *Estimator) charge(own, expireAtMS int64) int64 {
	b := own
	d := e.db
	d.Keys++
	if expireAtMS > 0 {
		d.Expires++
		b += e.alloc.dictEntry
	}
	d.Bytes += b
	e.last = b
	return b
}

// usage returns the entries of types and encs a key of k counts in, made if new.
func (e *Estimator) usage(k encKey) (*Usage, *Usage) {
	u := e.types[k.typ]
	if u == nil {
		u = new(Usage)
		e.types[k.typ] = u
	}
	v := e.encs[k]
	if v == nil {
		v = new(Usage)
		e.encs[k] = v
	}
	return u, v
}

// count adds a key of b bytes to its type's usage u and its encoding's v.
func count(u, v *Usage, b int64) {
	u.Keys++
	u.Bytes += b
	v.Keys++
	v.Bytes += b
}

// Begin counts a string key, or opens a collection or stream, which End counts.
func (e *Estimator) Begin(h *record.Header) error {
	if e.err != nil {
		return e.err
	}
	if h.Type == record.String && !e.coll.open { // most keys: the checks below, in one
		enc, b := e.stringValue(h.Value)
		return e.addString(h, enc, b)
	}
	switch {
	case e.coll.open:
		return e.fail(fmt.Errorf("write key %q: %w", h.Key, encoder.ErrCollectionOpen))
	case !h.Type.Valid() || h.Type == "":
		return fmt.Errorf("write key %q: %w %q", h.Key, record.ErrBadType, h.Type)
	case h.Type == record.Module:
		// The module's structures are unknown: its robj and serialized size, a lower
		// bound (Result.LowerBound).
		return e.addKey(h.Key, h.ExpireAtMS, record.Module, record.ModuleName(h.ModuleID), e.alloc.robj+int64(len(h.Value)))
	case e.db == nil:
		return e.fail(fmt.Errorf("write key %q: %w", h.Key, encoder.ErrNoDB))
	}
	e.begin(h)
	return nil
}

// A stringEnc is a string value's encoding, an index of stringEncs.
type stringEnc uint8

const (
	encInt stringEnc = iota
	encEmbstr
	encRaw
)

// stringEncs names the encodings of strings as OBJECT ENCODING does.
var stringEncs = [...]string{encInt: "int", encEmbstr: "embstr", encRaw: "raw"}

// stringValue returns the encoding and the bytes of a string value (tryObjectEncoding).
func (e *Estimator) stringValue(v []byte) (stringEnc, int64) {
	if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') { // else no integer
		if n, ok := encoder.CanonicalInt(v); ok {
			if e.shared && n >= 0 && n < sharedIntegers {
				return encInt, 0
			}
			return encInt, e.alloc.robj
		}
	}
	if len(v) <= embstrLimit {
		return encEmbstr, e.alloc.size(embstrOverhead + int64(len(v)))
	}
	return encRaw, e.alloc.robj + e.alloc.sds(len(v))
}

// Estimate writes every record of src into a new Estimator for opts and returns its
// Result: what spec check, generate --dry-run and inspect need in one call.
func Estimate(ctx context.Context, src record.Source, opts Options) (Result, error) {
	e, err := New(opts)
	if err != nil {
		return Result{}, err
	}
	if err := src.WriteTo(ctx, e); err != nil {
		return Result{}, fmt.Errorf("memory estimate: %w", err)
	}
	return e.Result()
}

// WriteFunction takes a function library and counts nothing for it: the server keeps a
// library's code and functions outside the keyspace (used_memory_functions, a few hundred
// bytes and the code per library) and runs it in the Lua VM, whose memory used_memory
// leaves out.
func (e *Estimator) WriteFunction([]byte) error { return e.err }

// WriteModuleAux takes a module's AUX data and counts nothing for it: it lives in the
// module's own structures, outside the keyspace.
func (e *Estimator) WriteModuleAux(*record.ModuleAux) error { return e.err }
