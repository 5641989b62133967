package rewrite

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A value's replacement is drawn from a state that HMAC-SHA256, keyed by the seed, makes of
// the value: the same value gives the same replacement in every key, field and file written
// with the same seed, and nothing is remembered from one value to the next. Without the seed,
// the replacements tell nothing of the values.
//
// The members of a set or sorted set and the fields of a hash must stay distinct. While a
// rewritten collection is open, the Sink remembers its rewritten members (memory in
// proportion to the largest such collection, released at its end) and refuses a repeat with
// ErrCollision: two inputs that give one output would also merge the keys they name. Renamed
// keys are not checked, since that needs every key in memory: give key parts a generator with
// room enough ({uuid: {}}, {string: 24}), and check the output (rdbgen verify).

// ErrCollision is returned when two distinct members or fields of one collection are rewritten
// to the same value.
var ErrCollision = errors.New("two members rewritten to the same value")

// Stats count what a Sink rewrote.
type Stats struct {
	Keys    uint64 // records passed on
	Renamed uint64 // keys renamed
	Values  uint64 // string values, members, field names and field values replaced
}

// A Sink is a record.Sink that rewrites the records it receives by its rules and passes them
// to the next Sink. Records that no rule matches pass unchanged. The slices it passes on are
// its own buffers, valid during the call only, as every Sink's arguments are. It keeps the
// first error it meets and returns it from every call after. It is not safe for concurrent use.
type Sink struct {
	next  record.Sink
	rules []*Rule
	mac   hash.Hash
	sum   []byte
	err   error
	stats Stats

	// The open collection: its rule (nil when none matched), its key as received (for
	// messages) and the rewritten members seen so far when they must stay distinct.
	rule *Rule
	key  []byte
	seen map[string]struct{}

	keyBuf, valBuf, nameBuf []byte
	fields                  [][]byte
}

// New returns a Sink that rewrites records by rules and writes them to next. It reads
// rules.Seed now: change it before calling New.
func New(next record.Sink, rules *Rules) (*Sink, error) {
	if next == nil {
		return nil, errors.New("rewrite: nil next sink")
	}
	if rules == nil {
		return nil, errors.New("rewrite: nil rules")
	}
	var key [8]byte
	binary.BigEndian.PutUint64(key[:], rules.Seed)
	return &Sink{next: next, rules: rules.Rules, mac: hmac.New(sha256.New, key[:])}, nil
}

// Stats returns the counts so far.
func (s *Sink) Stats() Stats { return s.stats }

// state hashes an input value into the state a generator draws its replacement from.
func (s *Sink) state(input []byte) uint64 {
	s.mac.Reset()
	s.mac.Write(input)
	s.sum = s.mac.Sum(s.sum[:0])
	return binary.BigEndian.Uint64(s.sum)
}

// apply appends g's replacement for input to dst.
func (s *Sink) apply(dst []byte, g *gen, input []byte) []byte {
	s.stats.Values++
	return g.g.Append(dst, s.state(input))
}

// find returns the first rule for a key of type t, or nil.
func (s *Sink) find(key []byte, t record.Type) *Rule {
	for _, r := range s.rules {
		if (r.Type == "" || r.Type == t) && r.key.matches(key) {
			return r
		}
	}
	return nil
}

// renamed returns the key the rule gives key.
func (s *Sink) renamed(r *Rule, key []byte) []byte {
	if r == nil || r.rename == nil {
		return key
	}
	s.stats.Renamed++
	s.keyBuf = s.rename(s.keyBuf[:0], r, key)
	return s.keyBuf
}

// rename appends to dst the key that r's rename makes of key.
func (s *Sink) rename(dst []byte, r *Rule, key []byte) []byte {
	mid := key[len(r.key.prefix) : len(key)-len(r.key.suffix)]
	dst = append(dst, r.key.prefix...)
	dst = s.apply(dst, r.rename, mid)
	return append(dst, r.key.suffix...)
}

// keyRef appends to dst the name a key named name gets: renamed by the first rule whose
// pattern matches it, whatever its type, if that rule renames keys; name itself otherwise.
func (s *Sink) keyRef(dst []byte, name []byte) []byte {
	for _, r := range s.rules {
		if r.key.matches(name) {
			if r.rename != nil {
				return s.rename(dst, r, name)
			}
			break
		}
	}
	return append(dst, name...)
}

// fail keeps err as the Sink's error.
func (s *Sink) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	return s.err
}

// BeginDB passes the database on: rewriting changes no counts.
func (s *Sink) BeginDB(db int, info encoder.DBInfo) error {
	if s.err != nil {
		return s.err
	}
	return s.fail(s.next.BeginDB(db, info))
}

// WriteString rewrites a string record's key and value.
func (s *Sink) WriteString(key, value []byte, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	s.stats.Keys++
	r := s.find(key, record.String)
	switch {
	case r != nil && r.value != nil:
		s.valBuf = s.apply(s.valBuf[:0], r.value, value)
		value = s.valBuf
	case r != nil && r.valueIsKey:
		s.valBuf = s.keyRef(s.valBuf[:0], value)
		value = s.valBuf
	}
	return s.fail(s.next.WriteString(s.renamed(r, key), value, expireAtMS))
}

// begin finds the rule of a collection and readies the check of distinct members.
func (s *Sink) begin(key []byte, t record.Type, n uint64) []byte {
	s.stats.Keys++
	r := s.find(key, t)
	s.rule, s.key, s.seen = r, append(s.key[:0], key...), nil
	distinct := r != nil && ((r.members != nil || r.membersAreKeys) && (t == record.Set || t == record.ZSet) || r.fieldNames != nil && t == record.Hash)
	if distinct && n > 1 {
		s.seen = make(map[string]struct{}, min(n, 1<<16))
	}
	return s.renamed(r, key)
}

// BeginHash opens a hash.
func (s *Sink) BeginHash(key []byte, n uint64, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	key = s.begin(key, record.Hash, n)
	return s.fail(s.next.BeginHash(key, n, expireAtMS))
}

// BeginHashWithFieldTTL opens a hash whose fields may expire.
func (s *Sink) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	key = s.begin(key, record.Hash, n)
	return s.fail(s.next.BeginHashWithFieldTTL(key, n, expireAtMS, minFieldExpireAtMS))
}

// BeginList opens a list.
func (s *Sink) BeginList(key []byte, n uint64, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	key = s.begin(key, record.List, n)
	return s.fail(s.next.BeginList(key, n, expireAtMS))
}

// BeginSet opens a set.
func (s *Sink) BeginSet(key []byte, n uint64, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	key = s.begin(key, record.Set, n)
	return s.fail(s.next.BeginSet(key, n, expireAtMS))
}

// BeginZSet opens a sorted set.
func (s *Sink) BeginZSet(key []byte, n uint64, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	key = s.begin(key, record.ZSet, n)
	return s.fail(s.next.BeginZSet(key, n, expireAtMS))
}

// BeginStream opens a stream.
func (s *Sink) BeginStream(key []byte, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	key = s.begin(key, record.Stream, 0)
	return s.fail(s.next.BeginStream(key, expireAtMS))
}

// distinct refuses a rewritten member equal to an earlier one of the open collection.
func (s *Sink) distinct(kind string, input, output []byte) error {
	if s.seen == nil {
		return nil
	}
	if _, dup := s.seen[string(output)]; dup {
		return fmt.Errorf("rewrite key %q: %s %q became %q like an earlier one: %w (give it a generator with more values)", s.key, kind, input, output, ErrCollision)
	}
	s.seen[string(output)] = struct{}{}
	return nil
}

// member rewrites a list element or a set or sorted-set member.
func (s *Sink) member(kind string, m []byte) ([]byte, error) {
	switch r := s.rule; {
	case r == nil:
		return m, nil
	case r.members != nil:
		s.nameBuf = s.apply(s.nameBuf[:0], r.members, m)
	case r.membersAreKeys:
		s.nameBuf = s.keyRef(s.nameBuf[:0], m)
	default:
		return m, nil
	}
	return s.nameBuf, s.distinct(kind, m, s.nameBuf)
}

// field rewrites a hash field's name and value.
func (s *Sink) field(field, value []byte) ([]byte, []byte, error) {
	r := s.rule
	if r == nil {
		return field, value, nil
	}
	if g := r.fieldFor(field); g != nil {
		s.valBuf = s.apply(s.valBuf[:0], g, value)
		value = s.valBuf
	}
	if r.fieldNames != nil {
		s.nameBuf = s.apply(s.nameBuf[:0], r.fieldNames, field)
		if err := s.distinct("field", field, s.nameBuf); err != nil {
			return nil, nil, err
		}
		field = s.nameBuf
	}
	return field, value, nil
}

// fieldFor returns the generator of the first field pattern that name matches, or nil.
func (r *Rule) fieldFor(name []byte) *gen {
	for k := range r.fields {
		if r.fields[k].name.matches(name) {
			return r.fields[k].gen
		}
	}
	return nil
}

// AddField adds a hash field, rewritten.
func (s *Sink) AddField(field, value []byte) error {
	if s.err != nil {
		return s.err
	}
	field, value, err := s.field(field, value)
	if err != nil {
		return s.fail(err)
	}
	return s.fail(s.next.AddField(field, value))
}

// AddFieldWithTTL adds a hash field with its expiry, rewritten; the expiry stays.
func (s *Sink) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	if s.err != nil {
		return s.err
	}
	field, value, err := s.field(field, value)
	if err != nil {
		return s.fail(err)
	}
	return s.fail(s.next.AddFieldWithTTL(field, value, expireAtMS))
}

// AddElement adds a list element, rewritten.
func (s *Sink) AddElement(element []byte) error {
	if s.err != nil {
		return s.err
	}
	element, err := s.member("element", element)
	if err != nil {
		return s.fail(err)
	}
	return s.fail(s.next.AddElement(element))
}

// AddMember adds a set member, rewritten.
func (s *Sink) AddMember(member []byte) error {
	if s.err != nil {
		return s.err
	}
	member, err := s.member("member", member)
	if err != nil {
		return s.fail(err)
	}
	return s.fail(s.next.AddMember(member))
}

// AddScoredMember adds a sorted-set member, rewritten; the score stays.
func (s *Sink) AddScoredMember(member []byte, score float64) error {
	if s.err != nil {
		return s.err
	}
	member, err := s.member("member", member)
	if err != nil {
		return s.fail(err)
	}
	return s.fail(s.next.AddScoredMember(member, score))
}

// AddStreamEntry adds a stream entry whose field values the rule's field patterns rewrite;
// ids and field names stay.
func (s *Sink) AddStreamEntry(id record.StreamID, fields [][]byte) error {
	if s.err != nil {
		return s.err
	}
	if r := s.rule; r != nil && r.fields != nil {
		s.fields = append(s.fields[:0], fields...)
		s.valBuf = s.valBuf[:0]
		type span struct{ k, from int }
		var spans []span
		for k := 1; k < len(fields); k += 2 {
			if g := r.fieldFor(fields[k-1]); g != nil {
				from := len(s.valBuf)
				s.valBuf = s.apply(s.valBuf, g, fields[k])
				spans = append(spans, span{k, from})
			}
		}
		// valBuf may have moved while it grew: slice it once it is complete.
		for i, sp := range spans {
			end := len(s.valBuf)
			if i+1 < len(spans) {
				end = spans[i+1].from
			}
			s.fields[sp.k] = s.valBuf[sp.from:end:end]
		}
		fields = s.fields
	}
	return s.fail(s.next.AddStreamEntry(id, fields))
}

// SetStreamMeta passes a stream's metadata on unchanged.
func (s *Sink) SetStreamMeta(meta record.StreamMeta) error {
	if s.err != nil {
		return s.err
	}
	return s.fail(s.next.SetStreamMeta(meta))
}

// AddStreamGroup passes a consumer group on unchanged.
func (s *Sink) AddStreamGroup(g *record.StreamGroup) error {
	if s.err != nil {
		return s.err
	}
	return s.fail(s.next.AddStreamGroup(g))
}

// EndCollection closes the open collection.
func (s *Sink) EndCollection() error {
	if s.err != nil {
		return s.err
	}
	s.rule, s.seen = nil, nil
	return s.fail(s.next.EndCollection())
}

var _ record.Sink = (*Sink)(nil)

// WriteFunction passes a function library on unchanged: rules rewrite keys and values.
func (s *Sink) WriteFunction(code []byte) error {
	if s.err != nil {
		return s.err
	}
	return s.fail(record.WriteFunction(s.next, code))
}
