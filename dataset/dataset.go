// Package dataset describes the deterministic record sources rdbgen writes: record i of a
// dataset (its key, value and expiry) is computed from the dataset's parameters and i alone,
// so a verifier can recompute any sampled record without replaying the others.
package dataset

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/internal/draw"
	"github.com/rdbgen/rdbgen/record"
)

// ValueMode chooses how values are made.
type ValueMode string

// Value modes.
const (
	// ValueSame makes each value equal to its key: the classic mass-insert dataset.
	ValueSame ValueMode = "same"
	// ValueRandom makes each value ValueSize random characters from the URL-safe base64
	// alphabet, drawn from (Seed, i).
	ValueRandom ValueMode = "random"
)

// Limits on the parameters.
const (
	MaxValueSize = 512 << 20 // Redis's proto-max-bulk-len default
)

// ErrInvalid is wrapped by every error Validate returns.
var ErrInvalid = errors.New("invalid dataset")

// Config describes a dataset of Count keys: key i is KeyPrefix followed by the decimal
// KeyStart+i. Keys are unique by construction, since distinct numbers have distinct decimals.
// Every key holds a value of Type; collections hold Members members each, streams Members
// entries (see members.go).
type Config struct {
	Count     uint64        `json:"count"`
	KeyPrefix string        `json:"key_prefix"`
	KeyStart  uint64        `json:"key_start"`
	Value     ValueMode     `json:"value"`                // default ValueSame
	ValueSize int           `json:"value_size,omitempty"` // bytes, with ValueRandom
	Seed      uint64        `json:"seed"`
	DB        int           `json:"db"`
	TTL       time.Duration `json:"ttl,omitempty"`        // 0: no expiry
	TTLJitter time.Duration `json:"ttl_jitter,omitempty"` // expiry spread ± around TTL
	// BaseTimeMS is the Unix time in ms that TTLs and stream ids count from: the expiry of
	// record i is BaseTimeMS + TTL + a jitter offset drawn from (Seed, i), and stream entry j
	// has the id (BaseTimeMS + j + 1)-0.
	BaseTimeMS int64 `json:"base_time_ms,omitempty"`
	// Type is the type of every key; empty means record.String, as in manifests written before
	// collections existed.
	Type record.Type `json:"type,omitempty"`
	// Members is how many members (hash fields, list elements, set or sorted-set members,
	// stream entries) each collection or stream holds; unused for strings.
	Members Range `json:"members,omitzero"`
}

// Validate reports the first parameter that is out of range, naming it.
func (d *Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	if strings.IndexByte(d.KeyPrefix, 0) >= 0 {
		return bad("key prefix %q contains a NUL byte", d.KeyPrefix)
	}
	if d.Count > 0 && d.KeyStart > math.MaxUint64-(d.Count-1) {
		return bad("key start %d plus count %d overflows", d.KeyStart, d.Count)
	}
	switch d.Value {
	case "", ValueSame:
		if d.ValueSize != 0 {
			return bad("value size %d goes with --value random (values equal their keys)", d.ValueSize)
		}
	case ValueRandom:
		if d.ValueSize < 1 || d.ValueSize > MaxValueSize {
			return bad("value size %d out of range (1 to %d)", d.ValueSize, MaxValueSize)
		}
	default:
		return bad("value mode %q (known: same, random)", d.Value)
	}
	if d.DB < 0 || d.DB > record.MaxDB {
		return bad("db %d out of range (0 to %d)", d.DB, record.MaxDB)
	}
	if d.TTL < 0 {
		return bad("ttl %s is negative", d.TTL)
	}
	if d.TTLJitter < 0 {
		return bad("ttl jitter %s is negative", d.TTLJitter)
	}
	if d.TTLJitter > 0 && d.TTL == 0 {
		return bad("ttl jitter %s needs a ttl", d.TTLJitter)
	}
	if d.TTL > 0 && d.TTLJitter >= d.TTL {
		return bad("ttl jitter %s must be less than the ttl %s", d.TTLJitter, d.TTL)
	}
	if d.TTL > 0 && d.BaseTimeMS <= 0 {
		return bad("base time %d: a ttl needs the time it counts from", d.BaseTimeMS)
	}
	return d.validateMembers()
}

// Expires reports how many records have an expiry.
func (d *Config) Expires() uint64 {
	if d.TTL > 0 {
		return d.Count
	}
	return 0
}

// AppendKey appends the key of record i.
func (d *Config) AppendKey(dst []byte, i uint64) []byte {
	return strconv.AppendUint(append(dst, d.KeyPrefix...), d.KeyStart+i, 10)
}

// AppendValue appends the value of record i.
func (d *Config) AppendValue(dst []byte, i uint64) []byte {
	if d.Value == ValueRandom {
		return appendRandom(dst, d.Seed, i, d.ValueSize)
	}
	return d.AppendKey(dst, i)
}

// ExpireAtMS returns the absolute expiry of record i in Unix ms, or 0 for none.
func (d *Config) ExpireAtMS(i uint64) int64 {
	return draw.ExpireAtMS(d.BaseTimeMS, d.TTL, d.TTLJitter, d.Seed^saltTTL, i)
}
