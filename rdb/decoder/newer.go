package decoder

import (
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// The formats newer than RDB 12: Valkey 9's VALKEY080 and Redis 8.6-8.10's RDB 13-15.
// FORMATS.md lays out each one with the server source it follows. Valkey and Redis gave the
// same numbers different meanings from type 22 and opcode 243 on, so the magic decides.

// ErrNewerType is a value or opcode of a newer format that the reader knows by name but
// cannot carry into any record (its layout holds what no target holds, or is not confirmed).
var ErrNewerType = errors.New("decoder: a value of a newer format that rdbgen cannot carry")

const (
	valkeyMagic = "VALKEY"
	// MaxValkeyVersion is the newest version with the VALKEY magic the reader knows (Valkey
	// 9.0 writes it; 9.2's RDB 81 adds a type 23 whose layout is not confirmed).
	MaxValkeyVersion = 80
	// valkeyForeignMin is the first Valkey type number whose meaning differs from Redis's
	// (RDB_FOREIGN_TYPE_MIN in Valkey's rdb.h).
	valkeyForeignMin = 22
	valkeyHash2      = 22 // RDB_TYPE_HASH_2: a hashtable hash with field TTLs
	valkeyHash2Name  = "valkey-hash2"
)

// checkVersion refuses versions the reader does not know: REDIS 1 to MaxVersion, VALKEY
// from 80 (below it is the range Valkey reserves for Redis's) to MaxValkeyVersion.
func checkVersion(v int, valkey bool) error {
	switch {
	case valkey && (v < 80 || v > MaxValkeyVersion):
		return fmt.Errorf("%w: VALKEY%03d (this reader knows VALKEY080, Valkey 9.0)", ErrVersion, v)
	case !valkey && (v < 1 || v > MaxVersion):
		return fmt.Errorf("%w %d (this reader knows 1 to %d)", ErrVersion, v, MaxVersion)
	}
	return nil
}

// newer names a type or opcode of a newer format: what it holds and where it comes from.
type newer struct {
	what    string
	version int // the first RDB version that holds it
	server  string
}

// redisNewer: Redis's types after RDB 12 that the reader knows by name only: GCRA
// (compiled in with ENABLE_GCRA) is not in a release (src/rdb.h; FORMATS.md).
var redisNewer = map[int]newer{
	28: {"an array", 14, "Redis 8.8"},
	33: {"a GCRA rate limiter", 15, "Redis after 8.10"},
}

// valkeyNewer: Valkey's opcodes and types it cannot carry.
var valkeyNewer = map[int]newer{
	242: {"an inline replication command (opcode 242, forkless save)", 80, "Valkey 9"},
}

// readNewerOpcode reads opcode 242 or 243: Valkey's slot import is skipped (it is the
// state of a slot migration under way, which no file written for another server holds);
// Redis's per-key metadata (RDB 13+) is read for the key that follows (keymeta.go); the
// others are refused by name.
func (rd *Reader) readNewerOpcode(t byte) error {
	switch {
	case rd.valkey && t == opSlotImport:
		return rd.skipSlotImport()
	case !rd.valkey && t == opSlotImport && rd.version >= 13:
		return rd.readKeyMeta()
	case !rd.valkey && t == opHashTemplates && rd.version >= 15:
		return rd.readHashTemplate()
	}
	return rd.refuseNewer(int(t))
}

// skipSlotImport reads RDB_OPCODE_SLOT_IMPORT as Valkey 9's clusterRDBLoadSlotImport
// (src/cluster_migrateslots.c) does: the job name, a count of ranges, then each range's
// first and last slot as lengths.
func (rd *Reader) skipSlotImport() error {
	var err error
	if rd.a, err = rd.in.str(rd.a, &rd.lzf); err != nil {
		return err
	}
	n, err := rd.in.plainLength()
	if err != nil {
		return err
	}
	if n > 16384 {
		return fmt.Errorf("%w: slot import of %d ranges", ErrCorrupt, n)
	}
	for range 2 * n {
		if _, err := rd.in.plainLength(); err != nil {
			return err
		}
	}
	rd.stats.SlotImports++
	return nil
}

// readNewerType reads a value type that only the newer formats have: Valkey's hash with
// field TTLs, Redis's streams of RDB 13 and 14 (stream_v4.go), or refuses the others by
// name.
func (rd *Reader) readNewerType(t byte, exp int64, sink record.Sink) error {
	switch {
	case rd.valkey && t == valkeyHash2:
		return rd.readValkeyHash(exp, sink)
	case !rd.valkey && (t == streamV4 && rd.version >= 13 || t == streamV5 && rd.version >= 14):
		return rd.readStream(t, exp, sink)
	case !rd.valkey && t >= hashTmplLP && t <= hashTmplArrayRef && rd.version >= 15:
		return rd.readTemplateHash(t, exp, sink)
	case !rd.valkey && t == arrayType && rd.version >= 14:
		return rd.readArray(sink)
	}
	return rd.refuseNewer(int(t))
}

// refuseNewer returns the error for type or opcode t in this file: ErrNewerType naming it
// when the file's format has it, else the error of an unknown one.
func (rd *Reader) refuseNewer(t int) error {
	table := redisNewer
	if rd.valkey {
		table = valkeyNewer
	}
	n, ok := table[t]
	switch {
	case ok && rd.version >= n.version:
		return fmt.Errorf("%w: %s (RDB type %d, %s)", ErrNewerType, n.what, t, n.server)
	case t >= 242:
		return fmt.Errorf("%w %d", errBadOpcode, t)
	}
	return fmt.Errorf("%w %d", errBadType, t)
}
