package dataset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/internal/draw"
	"github.com/rdbgen/rdbgen/record"
)

// Limits on collections.
const (
	// MaxMembers is the most members a generated collection may have.
	MaxMembers = 1 << 32
	// MemberIDLen is the length of the unique part of a random set or sorted-set member:
	// 64 bits in 11 characters of the value alphabet.
	MemberIDLen = 11
)

// A Range is a count fixed (Min = Max) or drawn per key from Min to Max inclusive.
type Range struct {
	Min uint64 `json:"min"`
	Max uint64 `json:"max"`
}

// ParseRange reads "N" or "MIN-MAX".
func ParseRange(s string) (Range, error) {
	lo, hi, isRange := strings.Cut(s, "-")
	parse := func(v string) (uint64, error) {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: members %q: want N or MIN-MAX, with whole numbers", ErrInvalid, s)
		}
		return n, nil
	}
	min, err := parse(lo)
	if err != nil {
		return Range{}, err
	}
	max := min
	if isRange {
		if max, err = parse(hi); err != nil {
			return Range{}, err
		}
	}
	return Range{Min: min, Max: max}, nil
}

// String renders r as ParseRange reads it.
func (r Range) String() string {
	if r.Min == r.Max {
		return strconv.FormatUint(r.Min, 10)
	}
	return fmt.Sprintf("%d-%d", r.Min, r.Max)
}

// validateMembers checks the type and the member parameters.
func (d *Config) validateMembers() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	switch d.Type {
	case "", record.String:
		if d.Members != (Range{}) {
			return bad("members %s go with a collection type (hash, list, set, zset, stream)", d.Members)
		}
		return nil
	case record.Hash, record.List, record.Set, record.ZSet, record.Stream:
	default:
		return bad("type %q (known: string, hash, list, set, zset, stream)", d.Type)
	}
	m := d.Members
	switch {
	case m.Min == 0:
		return bad("members %s: a %s needs at least 1 member (Redis drops empty keys)", m, d.Type)
	case m.Min > m.Max:
		return bad("members %s: the minimum is above the maximum", m)
	case m.Max > MaxMembers:
		return bad("members %s: at most %d", m, uint64(MaxMembers))
	}
	if d.Value == ValueRandom && (d.Type == record.Set || d.Type == record.ZSet) && d.ValueSize < MemberIDLen {
		return bad("value size %d: random %s members take at least %d bytes, to stay unique", d.ValueSize, d.Type, MemberIDLen)
	}
	return nil
}

// MemberCount returns the number of members (stream entries) of record i: Members.Min, or drawn from
// (Seed, i) within the range.
func (d *Config) MemberCount(i uint64) uint64 {
	return draw.Between(d.Members.Min, d.Members.Max, d.Seed^saltMembers, i)
}

// AppendMember appends member j of record i: the hash field, list element, or set or
// sorted-set member. With ValueSame it is "field" (hashes) or "member" followed by j+1. With
// ValueRandom, list elements are ValueSize random characters drawn from (Seed, i, j); set and
// sorted-set members start with an 11-character name that a bijection of j makes unique and
// are padded to ValueSize with random characters; hash fields stay "fieldN".
func (d *Config) AppendMember(dst []byte, i, j uint64) []byte {
	if d.Value != ValueRandom || d.Type == record.Hash {
		if d.Type == record.Hash {
			dst = append(dst, "field"...)
		} else {
			dst = append(dst, "member"...)
		}
		return strconv.AppendUint(dst, j+1, 10)
	}
	state := draw.Mix(draw.Mix(d.Seed^saltMember, i), j)
	if d.Type == record.List {
		return appendRandomFrom(dst, state, d.ValueSize)
	}
	id := draw.Hash(j ^ draw.Mix(d.Seed^saltMemberID, i)) // a bijection of j, so names are unique
	for range MemberIDLen {
		dst = append(dst, alphabet[id&63])
		id >>= 6
	}
	return appendRandomFrom(dst, state, d.ValueSize-MemberIDLen)
}

// AppendFieldValue appends the value of field j of hash record i: the field's name with
// ValueSame, ValueSize random characters drawn from (Seed, i, j) with ValueRandom.
func (d *Config) AppendFieldValue(dst []byte, i, j uint64) []byte {
	if d.Value == ValueRandom {
		return appendRandomFrom(dst, draw.Mix(draw.Mix(d.Seed^saltMember, i), j), d.ValueSize)
	}
	return d.AppendMember(dst, i, j)
}

// Score returns the score of member j of sorted-set record i, which has n members: n-j, so
// that members come in descending score order (the order Redis loads fastest), plus with
// ValueRandom a fraction in [0, 1) drawn from (Seed, i, j).
func (d *Config) Score(i, j, n uint64) float64 {
	s := float64(n - j)
	if d.Value == ValueRandom {
		s += float64(draw.Mix(draw.Mix(d.Seed^saltScore, i), j)>>11) / (1 << 53)
	}
	return s
}

// StreamField is the field name of every generated stream entry.
const StreamField = "value"

// StreamEntryID returns the id of entry j of a stream: (BaseTimeMS + j + 1)-0, so ids rise
// by a millisecond an entry from just after the base time.
func (d *Config) StreamEntryID(j uint64) record.StreamID {
	return record.StreamID{Ms: uint64(max(d.BaseTimeMS, 0)) + j + 1}
}

// AppendStreamValue appends the value of entry j of stream record i: as the value of hash
// field j, "member" and j+1 with ValueSame, random characters with ValueRandom.
func (d *Config) AppendStreamValue(dst []byte, i, j uint64) []byte {
	return d.AppendFieldValue(dst, i, j)
}

// Record returns the content of record i, as a verifier compares it with a server. It
// allocates; generators use AppendKey, AppendMember and friends instead.
func (d *Config) Record(i uint64) record.Record {
	r := record.Record{DB: d.DB, Key: d.AppendKey(nil, i), Type: d.Type, ExpireAtMS: d.ExpireAtMS(i)}
	if d.Type.IsString() {
		r.Type = record.String
		r.Value = d.AppendValue(nil, i)
		return r
	}
	n := d.MemberCount(i)
	if d.Type == record.Stream {
		r.Members = make([]record.Member, n)
		for j := range n {
			r.Members[j] = record.Member{ID: d.StreamEntryID(j),
				Fields: [][]byte{[]byte(StreamField), d.AppendStreamValue(nil, i, j)}}
		}
		return r
	}
	r.Members = make([]record.Member, n)
	for j := range n {
		m := &r.Members[j]
		m.Name = d.AppendMember(nil, i, j)
		switch d.Type {
		case record.Hash:
			m.Value = d.AppendFieldValue(nil, i, j)
		case record.ZSet:
			m.Score = d.Score(i, j, n)
		}
	}
	return r
}
