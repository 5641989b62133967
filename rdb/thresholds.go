package rdb

import "fmt"

// Thresholds are the limits up to which Redis keeps a collection in a compact encoding
// (listpack, ziplist, intset) rather than a hash table or skiplist. Each field mirrors the
// Redis config directive of the same name (Redis 7 names; Redis 6 calls the listpack ones
// ziplist). The Writer picks, for every collection, the encoding a server running with these
// settings would itself have chosen, so that it loads the file without converting anything.
//
// The compact encodings are written after the whole collection is seen, so a Writer holds up
// to one compact collection in memory: at most the entries limit times the value limit.
type Thresholds struct {
	HashMaxListpackEntries int `json:"hash-max-listpack-entries"` // most fields of a compact hash
	HashMaxListpackValue   int `json:"hash-max-listpack-value"`   // longest field or value, in bytes
	SetMaxIntsetEntries    int `json:"set-max-intset-entries"`    // most members of an intset
	SetMaxListpackEntries  int `json:"set-max-listpack-entries"`  // most members of a listpack set (7.2+)
	SetMaxListpackValue    int `json:"set-max-listpack-value"`    // longest member of a listpack set
	ZSetMaxListpackEntries int `json:"zset-max-listpack-entries"` // most members of a compact zset
	ZSetMaxListpackValue   int `json:"zset-max-listpack-value"`   // longest member of a compact zset
	// ListMaxListpackSize is list-max-listpack-size: a negative value -1 to -5 limits each
	// quicklist node to 4, 8, 16, 32 or 64 KiB; a positive one to that many elements (and
	// 8 KiB); 0 means one element a node.
	ListMaxListpackSize int `json:"list-max-listpack-size"`
	// StreamNodeMaxBytes is stream-node-max-bytes: a stream node takes no entry once its
	// bytes plus the entry's fields and values would reach it; 0 means 1 GiB, Redis's cap.
	StreamNodeMaxBytes int `json:"stream-node-max-bytes"`
	// StreamNodeMaxEntries is stream-node-max-entries: the most entries of a stream node;
	// 0 means no limit.
	StreamNodeMaxEntries int `json:"stream-node-max-entries"`
}

// DefaultThresholds returns the defaults of Redis 5.0 to 8.x and Valkey. Note that Redis's
// hash-max-listpack-entries default is 512 (in the server and in its redis.conf), while the
// zset and set listpack limits are 128.
func DefaultThresholds() Thresholds {
	return Thresholds{
		HashMaxListpackEntries: 512,
		HashMaxListpackValue:   64,
		SetMaxIntsetEntries:    512,
		SetMaxListpackEntries:  128,
		SetMaxListpackValue:    64,
		ZSetMaxListpackEntries: 128,
		ZSetMaxListpackValue:   64,
		ListMaxListpackSize:    -2,
		StreamNodeMaxBytes:     4096,
		StreamNodeMaxEntries:   100,
	}
}

// maxThreshold bounds the entries and value limits, and so the memory of one compact
// collection held by a writer.

// QuicklistNodeSizes are the quicklist node sizes of list-max-listpack-size -1 to -5.
var QuicklistNodeSizes = [...]int{4096, 8192, 16384, 32768, 65536}

// StreamNodeMaxSize is the largest stream node Redis builds (STREAM_LISTPACK_MAX_SIZE), and
// what a stream-node-max-bytes of 0 means.
const StreamNodeMaxSize = 1 << 30
const maxThreshold = 1 << 20

// A ThresholdSetting is one field of Thresholds under the name of its Redis setting, with
// the range Validate accepts.
type ThresholdSetting struct {
	Name     string // the Redis config directive, e.g. "hash-max-listpack-entries"
	Usage    string // what it limits, for a flag's help
	Min, Max int
	field    func(*Thresholds) *int
}

// Of returns the field of t that s names.
func (s ThresholdSetting) Of(t *Thresholds) *int { return s.field(t) }

// ThresholdSettings are the fields of Thresholds, one each, by the names of the Redis settings.
var ThresholdSettings = []ThresholdSetting{
	{"hash-max-listpack-entries", "most fields of a listpack/ziplist hash", 0, maxThreshold, func(t *Thresholds) *int { return &t.HashMaxListpackEntries }},
	{"hash-max-listpack-value", "longest field or value of a listpack/ziplist hash", 0, maxThreshold, func(t *Thresholds) *int { return &t.HashMaxListpackValue }},
	{"set-max-intset-entries", "most members of an intset", 0, maxThreshold, func(t *Thresholds) *int { return &t.SetMaxIntsetEntries }},
	{"set-max-listpack-entries", "most members of a listpack set (RDB 11+)", 0, maxThreshold, func(t *Thresholds) *int { return &t.SetMaxListpackEntries }},
	{"set-max-listpack-value", "longest member of a listpack set", 0, maxThreshold, func(t *Thresholds) *int { return &t.SetMaxListpackValue }},
	{"zset-max-listpack-entries", "most members of a listpack/ziplist sorted set", 0, maxThreshold, func(t *Thresholds) *int { return &t.ZSetMaxListpackEntries }},
	{"zset-max-listpack-value", "longest member of a listpack/ziplist sorted set", 0, maxThreshold, func(t *Thresholds) *int { return &t.ZSetMaxListpackValue }},
	{"list-max-listpack-size", "quicklist node limit: -1..-5 for 4..64 KiB, N>0 for N elements", -len(QuicklistNodeSizes), 1 << 15, func(t *Thresholds) *int { return &t.ListMaxListpackSize }},
	{"stream-node-max-bytes", "most bytes of a stream node (0: 1 GiB)", 0, StreamNodeMaxSize, func(t *Thresholds) *int { return &t.StreamNodeMaxBytes }},
	{"stream-node-max-entries", "most entries of a stream node (0: no limit)", 0, 1<<31 - 1, func(t *Thresholds) *int { return &t.StreamNodeMaxEntries }},
}

// Validate reports the first limit that is out of range, an error wrapping ErrInvalidOption.
func (t *Thresholds) Validate() error {
	for _, s := range ThresholdSettings {
		if v := *s.Of(t); v < s.Min || v > s.Max {
			return fmt.Errorf("%w: %s %d (%d to %d)", ErrInvalidOption, s.Name, v, s.Min, s.Max)
		}
	}
	return nil
}
