// Package spec reads dataset spec files and computes their records.
//
// A spec is a YAML file that lists key families. A family has a key pattern whose {id} or
// {uuid} placeholder makes Count distinct keys, a type, the generators of its value, fields or
// members, an optional TTL with jitter, and a database:
//
//	seed: 1
//	families:
//	  - name: refresh-token
//	    key: "refresh-token:{id}"
//	    count: 20000
//	    type: hash
//	    fields:
//	      _class: com.example.RefreshToken
//	      id: {id: {}}
//	      token: {uuid: {}}
//
// Every value is a pure function of (seed, family name, record index, field or member): a
// verifier recomputes any record with Family.Record without replaying the others. The
// format, the generators and the uniqueness rules are documented in docs/spec-files.md.
package spec

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/internal/draw"
	"github.com/rdbgen/rdbgen/record"
)

// ErrInvalid is wrapped by every error that a malformed spec or bad Params produce.
var ErrInvalid = errors.New("invalid spec")

// An Error is a problem in a spec file, with the place it was found.
type Error struct {
	File   string // the name given to Parse
	Line   int    // 1-based; 0 when the problem has no single place
	Column int    // 1-based; 0 when unknown
	Field  string // the path of the field, e.g. "families[2].ttl"; empty for the whole file
	Msg    string
}

// Error renders the problem as "file:line:column: field: message", on one line: line
// breaks in the field or message are written as \n.
func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
		if e.Column > 0 {
			s += fmt.Sprintf(":%d", e.Column)
		}
	}
	if e.Field != "" {
		s += ": " + e.Field
	}
	return oneLine.Replace(s + ": " + e.Msg)
}

// oneLine writes line breaks as escapes.
var oneLine = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *Error) Unwrap() error { return ErrInvalid }

// A Spec is a parsed spec file.
type Spec struct {
	File     string    // the name errors use
	Source   []byte    // the YAML text, which with Params fixes every record
	Families []*Family // in the order of the file
	// Params are the generation's parameters; Parse sets Seed from the file (default 1).
	// Change them with SetParams.
	Params Params
}

// Params are what a generation adds to a spec file. With the file's text they fix every record,
// so a manifest that holds both lets a verifier recompute any record.
type Params struct {
	// Seed of every generator; the file's seed (default 1) unless the caller sets one.
	Seed uint64 `json:"seed"`
	// BaseTimeMS is the Unix time in ms that TTLs and relative timestamps count from.
	BaseTimeMS int64 `json:"base_time_ms"`
	// CountScale multiplies every family's count (rounded, at least 1), to try a spec at a
	// smaller size; 0 means 1. Collections that hold another family's ids follow it.
	CountScale float64 `json:"count_scale,omitempty"`
}

// A Family is a set of keys with one key pattern, type and set of generators.
type Family struct {
	Name      string
	Line      int // the line of the family in the file
	Type      record.Type
	DB        int
	Count     uint64        // keys, as written in the file
	IDStart   uint64        // the first {id}
	TTL       time.Duration // 0: no expiry
	TTLJitter time.Duration // expiries spread ± this much around TTL

	key     keyPattern
	value   generator // strings
	fields  []field   // hashes with named fields
	members *members  // collections with generated members
	seed    uint64    // mixed from Params.Seed and Name
	count   uint64    // Count scaled by Params.CountScale
	base    int64     // Params.BaseTimeMS
	path    string    // "families[k]", for messages
	keyLine int       // where the key pattern is, for messages
	keyCol  int
	// relativeTime is set when a timestamp generator counts from Params.BaseTimeMS.
	relativeTime bool
	fieldTTL     bool          // some named field expires (field_ttl)
	groups       []streamGroup // streams: the consumer groups
}

// A field is a named hash field with the generator of its value, and its expiry.
type field struct {
	name        []byte
	gen         generator
	ttl, jitter time.Duration // field_ttl: the field expires at the base time + ttl ± jitter
}

// A streamGroup is a consumer group of a stream family: of a stream of n entries, the first
// ⌊delivered·n⌋ were delivered to the group, and the last ⌊pending·delivered·n⌋ of those are
// pending, dealt in turn to its consumers name-1 … name-consumers.
type streamGroup struct {
	name               string
	consumers          uint64
	delivered, pending float64
}

// members describes the generated members of a collection.
type members struct {
	min, max uint64    // member count, drawn per record between them
	of       *Family   // with of_family: the ids of every record of that family
	ofName   string    // the family named by of_family
	value    generator // list element, set or sorted-set member, hash value
	field    generator // hash field names
	score    generator // sorted-set scores; nil: the member's number
}

// Keys returns the number of keys the family writes under the current Params.
func (f *Family) Keys() uint64 { return f.count }

// Expires returns the number of the family's keys that have an expiry.
func (f *Family) Expires() uint64 {
	if f.TTL > 0 {
		return f.count
	}
	return 0
}

// KeyPattern returns the family's key pattern as written.
func (f *Family) KeyPattern() string { return f.key.text }

// SetParams sets the generation parameters: it mixes the seed into every family, scales the
// counts, and checks again that the families' keys do not overlap at the new counts. Counts
// that do not fit 64 bits, alone or added up, are an error.
func (s *Spec) SetParams(p Params) error { return s.SetParamsContext(context.Background(), p) }

// SetParamsContext is SetParams, stopped with ctx's error when ctx is cancelled during the
// overlap check.
func (s *Spec) SetParamsContext(ctx context.Context, p Params) error {
	if p.CountScale < 0 || math.IsNaN(p.CountScale) || math.IsInf(p.CountScale, 0) {
		return fmt.Errorf("%w: count scale %v must be a positive number", ErrInvalid, p.CountScale)
	}
	s.Params = p
	var total uint64
	for _, f := range s.Families {
		f.seed = draw.Mix(p.Seed, hashString(f.Name))
		f.base = p.BaseTimeMS
		var ok bool
		f.count, ok = scale(f.Count, p.CountScale)
		if f.key.slot == slotNone {
			f.count, ok = f.Count, true
		}
		if !ok {
			return &Error{File: s.File, Line: f.Line, Field: f.path + ".count",
				Msg: fmt.Sprintf("count %d times count scale %v is more than %d keys", f.Count, p.CountScale, uint64(math.MaxUint64))}
		}
		if f.key.slot == slotUUID && f.count > mask62 {
			return &Error{File: s.File, Line: f.Line, Field: f.path + ".count", Msg: fmt.Sprintf("at most %d keys with {uuid}, and the count scale makes %d", uint64(mask62), f.count)}
		}
		if total+f.count < total {
			return &Error{File: s.File, Line: f.Line, Field: f.path + ".count",
				Msg: fmt.Sprintf("the families up to this one make more than %d keys in all", uint64(math.MaxUint64))}
		}
		total += f.count
		if f.key.slot == slotID && f.count > 0 && f.IDStart > math.MaxUint64-(f.count-1) {
			return &Error{File: s.File, Line: f.Line, Field: f.path + ".count", Msg: fmt.Sprintf("id_start %d plus count %d overflows", f.IDStart, f.count)}
		}
	}
	for _, f := range s.Families {
		if m := f.members; m != nil && m.of != nil {
			m.min, m.max = m.of.count, m.of.count
		}
	}
	return s.checkOverlaps(ctx)
}

// scale multiplies n by k, rounding, keeping at least 1; false when the result does not fit
// 64 bits.
func scale(n uint64, k float64) (uint64, bool) {
	if k == 0 || k == 1 || n == 0 {
		return n, true
	}
	v := math.Round(float64(n) * k)
	switch {
	case v < 1:
		return 1, true
	case v >= math.MaxUint64: // 2^64: the float64 nearest MaxUint64
		return 0, false
	}
	return uint64(v), true
}

// Keys returns the number of keys of all families.
func (s *Spec) Keys() uint64 {
	var n uint64
	for _, f := range s.Families {
		n += f.count
	}
	return n
}

// DBs returns the database numbers the spec writes, in ascending order, and for each the
// families that write it, in file order.
func (s *Spec) DBs() ([]int, map[int][]*Family) {
	by := map[int][]*Family{}
	var dbs []int
	for _, f := range s.Families {
		if _, ok := by[f.DB]; !ok {
			dbs = append(dbs, f.DB)
		}
		by[f.DB] = append(by[f.DB], f)
	}
	slices.Sort(dbs)
	return dbs, by
}

// Family returns the family with the given name, or nil.
func (s *Spec) Family(name string) *Family {
	for _, f := range s.Families {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// hashString hashes a name into 64 bits (FNV-1a), to seed a family or a field.
func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
