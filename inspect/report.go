package inspect

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

// A Report is what an RDB file holds. Its JSON form is stable: fields are added, never
// renamed or removed (docs/commands/inspect.md documents it; a golden test pins it).
type Report struct {
	RDBVersion int               `json:"rdb_version"`
	Aux        map[string]string `json:"aux"`       // the AUX fields: redis-ver, ctime, used-mem…
	Functions  int               `json:"functions"` // function libraries (Redis 7.0+)
	Bytes      int64             `json:"bytes"`     // the file's size
	Checksum   string            `json:"checksum"`  // the CRC-64 trailer in hex, "" when zero or absent
	Keys       uint64            `json:"keys"`
	Expires    uint64            `json:"expires"` // keys with an expiry
	Members    uint64            `json:"members"` // collection members and stream entries
	// SkippedModules is 0, kept for the JSON form: module values are read (keys of type
	// "module", in the other counts).
	SkippedModules uint64 `json:"skipped_modules"`
	// Modules counts the keys of module types (type "module") per module type, by name;
	// ModuleAux the module AUX records (a module's data outside the keys) the same way.
	Modules   []ModuleCount `json:"modules"`
	ModuleAux []ModuleCount `json:"module_aux"`
	// Newer counts the parts of Redis 8.6+ records that no earlier format holds, by what
	// they are (decoder.Stats.NewerDropped: "stream producer metadata"...): the keys holding
	// them are in the other counts; convert and the other writers carry them only with
	// --drop-newer, without them.
	Newer map[string]uint64 `json:"newer,omitempty"`
	// EnterpriseSkipped counts Redis Enterprise's per-key opcodes skipped (decoder.Stats).
	EnterpriseSkipped uint64          `json:"enterprise_skipped,omitempty"`
	DBs               []DB            `json:"dbs"`       // ascending
	Types             []TypeCount     `json:"types"`     // in record.Types order
	Encodings         []EncodingCount `json:"encodings"` // the file's encodings, by name
	Expiry            Expiry          `json:"expiry"`
	Largest           Largest         `json:"largest"`
	// Memory is the used_memory the file takes on Memory.Target once loaded, above an empty
	// server's (package memory). Keys already expired at Expiry.NowMS are left out, as a
	// server (a primary) drops them while it loads: Memory.Keys is the keys it will hold.
	Memory memory.Result `json:"memory"`
	// Prefixes are the keys, file bytes and estimated memory per key prefix, largest
	// memory first, then "other"; present with Options.Prefixes (see PrefixOptions).
	Prefixes []Prefix `json:"prefixes,omitempty"`
	// PrefixBound, when nonzero, says that Prefixes may not be the largest prefixes: the
	// dump has more prefixes than the count holds apart (see PrefixOptions) and a prefix
	// not listed may hold up to PrefixBound bytes of estimated memory, more than the last
	// row listed; when no prefix stands out of the many, none is listed but "other", and
	// none holds more than PrefixBound. Zero when the rows are the largest, exactly.
	PrefixBound int64 `json:"prefix_bound,omitempty"`
}

// ModuleCount counts the keys, or AUX payloads, of one module type.
type ModuleCount struct {
	Module string `json:"module"` // the module type's 9-character name: "MBbloom--", "ReJSON-RL"
	Count  uint64 `json:"count"`
}

// moduleCounts returns the counts of m sorted by module name.
func moduleCounts(m map[string]uint64) []ModuleCount {
	out := []ModuleCount{}
	for name, n := range m {
		out = append(out, ModuleCount{name, n})
	}
	slices.SortFunc(out, func(a, b ModuleCount) int { return cmp.Compare(a.Module, b.Module) })
	return out
}

// DB is one database of the file.
type DB struct {
	DB      int    `json:"db"`
	Keys    uint64 `json:"keys"`
	Expires uint64 `json:"expires"`
	Bytes   int64  `json:"bytes"` // its records' serialized size
	// ResizeKeys and ResizeExpires are the file's RESIZEDB hints, 0 without them.
	ResizeKeys    uint64 `json:"resize_keys"`
	ResizeExpires uint64 `json:"resize_expires"`
}

// TypeCount counts the keys of one type.
type TypeCount struct {
	Type    record.Type `json:"type"`
	Keys    uint64      `json:"keys"`
	Members uint64      `json:"members"` // of collections; stream entries
	Bytes   int64       `json:"bytes"`   // serialized size
}

// EncodingCount counts the records of one encoding in the file: the RDB value type, as
// decoder.TypeName names it (string, hash-listpack, list-quicklist2, stream3…).
type EncodingCount struct {
	Encoding string `json:"encoding"`
	Keys     uint64 `json:"keys"`
}

// Largest lists the largest keys, largest first (ties by db, then key).
type Largest struct {
	BySize    []Key `json:"by_size"`    // serialized size in the file
	ByMembers []Key `json:"by_members"` // members or entries; collections and streams only
}

// Key describes one key. Key is its name; bytes that are not UTF-8 are shown as U+FFFD.
type Key struct {
	DB         int         `json:"db"`
	Key        string      `json:"key"`
	Type       record.Type `json:"type"`
	Encoding   string      `json:"encoding"` // as in Encodings
	Bytes      int64       `json:"bytes"`    // serialized size: from its type byte to its end
	Members    uint64      `json:"members"`
	ExpireAtMS int64       `json:"expire_at_ms,omitempty"`
}

// report builds the Report once the reader has read the whole file.
func (s *sink) report() (*Report, error) {
	if s.est == nil { // a file without keys
		est, err := newEstimator(s.rd, s.opts)
		if err != nil {
			return nil, err
		}
		s.est = est
	}
	mem, err := s.est.Result()
	if err != nil {
		return nil, err
	}
	st := s.rd.Stats()
	r := &Report{
		RDBVersion:        s.rd.Version(),
		Aux:               s.rd.Aux(),
		Functions:         len(s.rd.Functions()),
		Bytes:             st.Bytes,
		Modules:           moduleCounts(st.Modules),
		ModuleAux:         moduleCounts(st.ModuleAux),
		EnterpriseSkipped: st.EnterpriseSkipped,
		Newer:             st.NewerDropped,
		Expiry:            s.expiry.result(),
		Largest:           Largest{BySize: s.bySize.sorted(), ByMembers: s.byCount.sorted()},
		Memory:            mem,
		Prefixes:          s.prefixResult(),
		DBs:               []DB{},
		Types:             []TypeCount{},
		Encodings:         []EncodingCount{},
	}
	if st.Checksum != 0 {
		r.Checksum = fmt.Sprintf("%016x", st.Checksum)
	}
	for _, d := range s.dbs {
		r.DBs = append(r.DBs, *d)
		r.Keys += d.Keys
		r.Expires += d.Expires
	}
	slices.SortFunc(r.DBs, func(a, b DB) int { return cmp.Compare(a.DB, b.DB) })
	for _, t := range record.Types {
		if c := s.types[t]; c != nil {
			r.Types = append(r.Types, *c)
			r.Members += c.Members
		}
	}
	for name, n := range st.Types {
		r.Encodings = append(r.Encodings, EncodingCount{name, n})
	}
	slices.SortFunc(r.Encodings, func(a, b EncodingCount) int { return cmp.Compare(a.Encoding, b.Encoding) })
	return r, nil
}

// prefixResult returns the prefixes' rows, nil when not asked for.
func (s *sink) prefixResult() []Prefix {
	if s.pre == nil {
		return nil
	}
	return s.pre.result()
}
