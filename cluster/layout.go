package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxShards is the largest number of shards a Layout may have: Redis Cluster is designed
// for up to 1000 nodes.
const MaxShards = 1000

// ErrLayout is wrapped by every error about a layout: a range out of bounds, a slot owned
// twice or by nobody, a malformed layout file.
var ErrLayout = errors.New("invalid slot layout")

// A Range is the hash slots First to Last, both included, as CLUSTER NODES and
// CLUSTER ADDSLOTSRANGE write them.
type Range struct {
	First, Last int
}

// Len returns the number of slots in r.
func (r Range) Len() int { return r.Last - r.First + 1 }

// Contains tells whether slot is in r.
func (r Range) Contains(slot int) bool { return r.First <= slot && slot <= r.Last }

// String returns r as CLUSTER NODES writes it: "0-5460", or "7" for a single slot.
func (r Range) String() string {
	if r.First == r.Last {
		return strconv.Itoa(r.First)
	}
	return strconv.Itoa(r.First) + "-" + strconv.Itoa(r.Last)
}

// MarshalText writes r as String does, so that manifests hold "0-5460".
func (r Range) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads "first-last" or a single slot number.
func (r *Range) UnmarshalText(b []byte) error {
	v, err := ParseRange(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParseRange reads "first-last" or a single slot number, within 0 to Slots-1.
func ParseRange(s string) (Range, error) {
	first, last, isRange := strings.Cut(s, "-")
	a, err := parseSlot(first)
	if err != nil {
		return Range{}, fmt.Errorf("%w: slot range %q: %w", ErrLayout, s, err)
	}
	b := a
	if isRange {
		if b, err = parseSlot(last); err != nil {
			return Range{}, fmt.Errorf("%w: slot range %q: %w", ErrLayout, s, err)
		}
	}
	if a > b {
		return Range{}, fmt.Errorf("%w: slot range %q ends before it starts", ErrLayout, s)
	}
	return Range{a, b}, nil
}

// parseSlot reads a slot number: decimal digits only, 0 to Slots-1.
func parseSlot(s string) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not a slot number", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n >= Slots {
		return 0, fmt.Errorf("slot %s out of range (0 to %d)", s, Slots-1)
	}
	return n, nil
}

// A Shard is the part of the slots that one primary owns.
type Shard struct {
	// Ranges are the slot ranges the shard owns: sorted, and neither overlapping nor touching
	// once NewLayout has normalised them.
	Ranges []Range `json:"slots"`
	// NodeID and Addr name the primary that owns the ranges in the cluster a layout was read
	// from (ParseLayout); both are empty in a planned layout (Even).
	NodeID string `json:"node_id,omitempty"`
	Addr   string `json:"addr,omitempty"`
}

// Slots returns the number of slots the shard owns.
func (s Shard) Slots() int {
	n := 0
	for _, r := range s.Ranges {
		n += r.Len()
	}
	return n
}

// Owns tells whether the shard owns slot.
func (s Shard) Owns(slot int) bool {
	for _, r := range s.Ranges {
		if r.Contains(slot) {
			return true
		}
	}
	return false
}

// RangesString returns the shard's ranges as "0-5460,10923-16383".
func (s Shard) RangesString() string {
	parts := make([]string, len(s.Ranges))
	for i, r := range s.Ranges {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// A Layout assigns every hash slot to exactly one of its shards. It is immutable.
type Layout struct {
	shards []Shard
	owner  [Slots]uint16 // shard index of each slot
}

// NewLayout checks shards and returns their layout. Every slot must be owned by exactly one
// shard, and every shard must own a slot; the ranges of each shard are sorted and merged.
func NewLayout(shards []Shard) (*Layout, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("%w: no shards", ErrLayout)
	}
	if len(shards) > MaxShards {
		return nil, fmt.Errorf("%w: %d shards (at most %d)", ErrLayout, len(shards), MaxShards)
	}
	l := &Layout{shards: make([]Shard, len(shards))}
	const none = math.MaxUint16
	for i := range l.owner {
		l.owner[i] = none
	}
	for i, s := range shards {
		if len(s.Ranges) == 0 {
			return nil, fmt.Errorf("%w: %s owns no slots", ErrLayout, shardName(shards, i))
		}
		for _, r := range s.Ranges {
			if r.First < 0 || r.Last >= Slots || r.First > r.Last {
				return nil, fmt.Errorf("%w: %s: slot range %d-%d is not within 0-%d", ErrLayout, shardName(shards, i), r.First, r.Last, Slots-1)
			}
			for slot := r.First; slot <= r.Last; slot++ {
				if o := l.owner[slot]; o != none {
					return nil, fmt.Errorf("%w: slot %d is owned by %s and %s", ErrLayout, slot, shardName(shards, int(o)), shardName(shards, i))
				}
				l.owner[slot] = uint16(i)
			}
		}
		s.Ranges = normalise(s.Ranges)
		l.shards[i] = s
	}
	for slot := 0; slot < Slots; slot++ {
		if l.owner[slot] == none {
			end := slot
			for end+1 < Slots && l.owner[end+1] == none {
				end++
			}
			what := "slots " + Range{slot, end}.String() + " are"
			if end == slot {
				what = "slot " + strconv.Itoa(slot) + " is"
			}
			return nil, fmt.Errorf("%w: %s not owned by any shard (a cluster serves keys only when every slot is assigned)", ErrLayout, what)
		}
	}
	return l, nil
}

// shardName names shard i in errors: by its node when it has one.
func shardName(shards []Shard, i int) string {
	if s := shards[i]; s.NodeID != "" {
		return fmt.Sprintf("node %.8s (%s)", s.NodeID, s.Addr)
	}
	return fmt.Sprintf("shard %d", i)
}

// normalise returns rs sorted, with overlapping or touching ranges merged.
func normalise(rs []Range) []Range {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Range) int { return a.First - b.First })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.First <= last.Last+1 {
			last.Last = max(last.Last, r.Last)
			continue
		}
		out = append(out, r)
	}
	return out
}

// Even returns the layout that `redis-cli --cluster create` gives n primaries: the slots in
// n contiguous ranges of 16384/n slots each, rounded as redis-cli rounds them, the last one
// ending at slot 16383. Three shards own 0-5460, 5461-10922 and 10923-16383.
func Even(n int) (*Layout, error) {
	if n < 1 || n > MaxShards {
		return nil, fmt.Errorf("%w: %d shards (1 to %d)", ErrLayout, n, MaxShards)
	}
	shards := make([]Shard, n)
	// redis-cli computes in single precision floats and rounds half away from zero (lround);
	// float32 arithmetic here gives the same boundaries.
	perNode := float32(Slots) / float32(n)
	var cursor float32
	first := 0
	for i := range shards {
		end := float32(cursor + perNode)
		end = float32(end - 1)
		last := int(math.Round(float64(end)))
		if last > Slots || i == n-1 {
			last = Slots - 1
		}
		last = max(last, first)
		shards[i].Ranges = []Range{{first, last}}
		first = last + 1
		cursor += perNode
	}
	return NewLayout(shards)
}

// Len returns the number of shards.
func (l *Layout) Len() int { return len(l.shards) }

// CheckShard returns an error naming the number of shards when i is not a shard of l.
func (l *Layout) CheckShard(i int) error {
	if n := l.Len(); i < 0 || i >= n {
		return fmt.Errorf("shard index %d out of range: the split has %d shards (0 to %d)", i, n, n-1)
	}
	return nil
}

// Shard returns shard i.
func (l *Layout) Shard(i int) Shard {
	s := l.shards[i]
	s.Ranges = slices.Clone(s.Ranges)
	return s
}

// Shards returns every shard, in order.
func (l *Layout) Shards() []Shard {
	out := make([]Shard, len(l.shards))
	for i := range out {
		out[i] = l.Shard(i)
	}
	return out
}

// Owner returns the index of the shard that owns slot, which must be in 0 to Slots-1.
func (l *Layout) Owner(slot int) int { return int(l.owner[slot]) }

// ShardOf returns the index of the shard that holds key.
func (l *Layout) ShardOf(key []byte) int { return int(l.owner[Slot(key)]) }
