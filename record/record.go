// Package record defines the stream of records that rdbgen's sources produce and its
// writers consume: a Source (a spec file's generator, an importer) writes records into a
// Sink, which an *encoder.Writer implements, and which a router (one file per cluster shard,
// say) can implement as well.
//
// A Sink receives its records database by database: BeginDB once per database, then that
// database's records. A string is one WriteString call; a collection is a Begin call naming
// its key, expiry and member count, one Add call per member, and EndCollection.
package record

import (
	"errors"
	"fmt"
	"math"

	"github.com/rdbgen/rdbgen/encoder"
)

// Type is the Redis type of a record.
type Type string

// Types.
const (
	String Type = "string"
	Hash   Type = "hash"
	List   Type = "list"
	Set    Type = "set"
	ZSet   Type = "zset"
	Stream Type = "stream"
)

// MaxDB is the largest database number a file may hold.
const MaxDB = 1<<31 - 1

// Types lists the types in the order of their RDB type bytes' first use, for messages.
var Types = []Type{String, List, Set, ZSet, Hash, Stream}

// IsString reports whether t means string keys (the empty type does too).
func (t Type) IsString() bool { return t == "" || t == String }

// IsCollection reports whether t holds members rather than one value.
func (t Type) IsCollection() bool { return t == Hash || t == List || t == Set || t == ZSet }

// Valid reports whether t is one of the types (the empty type means String).
func (t Type) Valid() bool { return t.IsString() || t.IsCollection() || t == Stream }

// Counts are the keys of one database, or of a file, and how many of them expire: a Sink's
// BeginDB takes them, manifests and verifiers report them. It is the encoder's DBInfo (the
// RESIZEDB hint of the format) under its domain name.
type Counts = encoder.DBInfo

// A Sink receives records, database by database. *encoder.Writer implements it.
type Sink interface {
	// BeginDB ends the open database, if any, and opens db; each database is opened once.
	BeginDB(db int, info encoder.DBInfo) error
	// WriteString writes a string record; expireAtMS is absolute Unix ms, 0 for none.
	WriteString(key, value []byte, expireAtMS int64) error
	// BeginHash, BeginList, BeginSet and BeginZSet open a collection of n members.
	BeginHash(key []byte, n uint64, expireAtMS int64) error
	BeginList(key []byte, n uint64, expireAtMS int64) error
	BeginSet(key []byte, n uint64, expireAtMS int64) error
	BeginZSet(key []byte, n uint64, expireAtMS int64) error
	// AddField, AddElement, AddMember and AddScoredMember add one member to the open
	// hash, list, set or sorted set.
	AddField(field, value []byte) error
	AddElement(element []byte) error
	AddMember(member []byte) error
	AddScoredMember(member []byte, score float64) error
	// BeginHashWithFieldTTL opens a hash of n fields some of which expire (Redis 7.4+):
	// minFieldExpireAtMS is the smallest field expiry. AddFieldWithTTL adds its fields.
	BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error
	AddFieldWithTTL(field, value []byte, expireAtMS int64) error
	// BeginStream opens a stream; AddStreamEntry adds its entries (fields alternate name and
	// value) in ascending id order, SetStreamMeta (optional) its metadata, then
	// AddStreamGroup each consumer group.
	BeginStream(key []byte, expireAtMS int64) error
	AddStreamEntry(id StreamID, fields [][]byte) error
	SetStreamMeta(meta StreamMeta) error
	AddStreamGroup(g *StreamGroup) error
	// EndCollection closes the open collection or stream.
	EndCollection() error
}

// A KeyFilter is a Sink that takes the records of some keys alone (one shard's, say): a
// Source may ask Wants before it computes a record, and leave out, without computing it,
// the record of a key that Wants refused, which it must then not write. A Source that
// does not ask writes every record, and the sink drops the ones it does not want.
type KeyFilter interface {
	Sink
	Wants(key []byte) bool
}

// The stream vocabulary is the encoder's, which the standard-library-only encoder and
// reader share; see encoder.StreamID.
type (
	StreamID       = encoder.StreamID
	StreamMeta     = encoder.StreamMeta
	StreamGroup    = encoder.StreamGroup
	StreamPending  = encoder.StreamPending
	StreamConsumer = encoder.StreamConsumer
)

// A StreamEntry is one entry of a stream: its id and its fields, alternating name and value.
type StreamEntry struct {
	ID     StreamID
	Fields [][]byte
}

// A Member is one member of a collection: a hash field and its value, a list element, or a
// set or sorted-set member with its score.
type Member struct {
	Name       []byte
	Value      []byte  // hashes only
	Score      float64 // sorted sets only
	ExpireAtMS int64   // hash fields only: absolute Unix ms, 0 for none (Redis 7.4+)
}

// A Record is the whole content of one key.
type Record struct {
	DB         int
	Key        []byte
	Type       Type
	Value      []byte   // strings only
	Members    []Member // collections, in the order written
	ExpireAtMS int64    // absolute Unix ms, 0 for none
	// Streams only: the entries, the metadata (zero fields derived) and the groups.
	Entries    []StreamEntry
	StreamMeta StreamMeta
	Groups     []StreamGroup
}

// Errors of Check, for errors.Is.
var (
	ErrEmpty    = errors.New("empty collection (Redis drops empty keys)")
	ErrBadType  = errors.New("unknown type")
	ErrNaNScore = errors.New("score is NaN")
)

// Check reports what would make r unwritable: an unknown type, an empty collection, a NaN
// score, a negative expiry or db. It does not look for repeated members.
func (r *Record) Check() error {
	switch {
	case !r.Type.Valid():
		return fmt.Errorf("%w %q", ErrBadType, r.Type)
	case r.Type.IsCollection() && len(r.Members) == 0:
		return fmt.Errorf("%s: %w", r.Type, ErrEmpty)
	case r.ExpireAtMS < 0:
		return fmt.Errorf("expiry %d ms is before 1970", r.ExpireAtMS)
	case r.DB < 0 || r.DB > MaxDB:
		return fmt.Errorf("db %d out of range (0 to %d)", r.DB, MaxDB)
	}
	if r.Type == ZSet {
		for _, m := range r.Members {
			if math.IsNaN(m.Score) {
				return fmt.Errorf("member %q: %w", m.Name, ErrNaNScore)
			}
		}
	}
	return nil
}

// WriteTo writes r, as one record of the open database, to s: a hash some of whose fields
// have an expiry through BeginHashWithFieldTTL, a stream through BeginStream (with its
// metadata when r.StreamMeta is not zero).
func (r *Record) WriteTo(s Sink) error {
	if r.Type.IsString() {
		return s.WriteString(r.Key, r.Value, r.ExpireAtMS)
	}
	if r.Type == Stream {
		return r.writeStream(s)
	}
	if fieldTTL := r.minFieldExpiry(); fieldTTL != 0 {
		return r.writeHashWithFieldTTL(s, fieldTTL)
	}
	if err := Begin(s, r.Type, r.Key, uint64(len(r.Members)), r.ExpireAtMS); err != nil {
		return err
	}
	for i := range r.Members {
		m := &r.Members[i]
		if err := Add(s, r.Type, m.Name, m.Value, m.Score); err != nil {
			return err
		}
	}
	return s.EndCollection()
}

// Begin opens in s a collection of type t (a hash, list, set or sorted set) of n members:
// the one place that turns a Type into a Sink's Begin call. Any other type is an error
// wrapping ErrBadType.
func Begin(s Sink, t Type, key []byte, n uint64, expireAtMS int64) error {
	switch t {
	case Hash:
		return s.BeginHash(key, n, expireAtMS)
	case List:
		return s.BeginList(key, n, expireAtMS)
	case Set:
		return s.BeginSet(key, n, expireAtMS)
	case ZSet:
		return s.BeginZSet(key, n, expireAtMS)
	}
	return fmt.Errorf("%w %q", ErrBadType, t)
}

// Add adds one member to the open collection of type t in s: a hash field name and its
// value, a list element, a set member, or a sorted-set member and its score (value and score
// are ignored where they do not apply). Any other type is an error wrapping ErrBadType.
func Add(s Sink, t Type, name, value []byte, score float64) error {
	switch t {
	case Hash:
		return s.AddField(name, value)
	case List:
		return s.AddElement(name)
	case Set:
		return s.AddMember(name)
	case ZSet:
		return s.AddScoredMember(name, score)
	}
	return fmt.Errorf("%w %q", ErrBadType, t)
}

// minFieldExpiry returns the smallest expiry of r's hash fields, 0 when none expires.
func (r *Record) minFieldExpiry() int64 {
	var least int64
	if r.Type != Hash {
		return 0
	}
	for _, m := range r.Members {
		if m.ExpireAtMS != 0 && (least == 0 || m.ExpireAtMS < least) {
			least = m.ExpireAtMS
		}
	}
	return least
}

// writeHashWithFieldTTL writes the hash r, some of whose fields expire, the first at
// minFieldTTL.
func (r *Record) writeHashWithFieldTTL(s Sink, minFieldTTL int64) error {
	if err := s.BeginHashWithFieldTTL(r.Key, uint64(len(r.Members)), r.ExpireAtMS, minFieldTTL); err != nil {
		return err
	}
	for i := range r.Members {
		m := &r.Members[i]
		if err := s.AddFieldWithTTL(m.Name, m.Value, m.ExpireAtMS); err != nil {
			return err
		}
	}
	return s.EndCollection()
}

// writeStream writes the stream r.
func (r *Record) writeStream(s Sink) error {
	if err := s.BeginStream(r.Key, r.ExpireAtMS); err != nil {
		return err
	}
	for _, e := range r.Entries {
		if err := s.AddStreamEntry(e.ID, e.Fields); err != nil {
			return err
		}
	}
	if r.StreamMeta != (StreamMeta{}) {
		if err := s.SetStreamMeta(r.StreamMeta); err != nil {
			return err
		}
	}
	for i := range r.Groups {
		if err := s.AddStreamGroup(&r.Groups[i]); err != nil {
			return err
		}
	}
	return s.EndCollection()
}

// *encoder.Writer is the Sink that writes files.
var _ Sink = (*encoder.Writer)(nil)
