package resp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// Sorted sets with a -0 score. A listpack or ziplist holds -0 as the text "-0", and a server
// that loads one keeps it; but ZADD on Redis 7.0+ (and Valkey) stores an integral score in a
// listpack as an integer, so -0 becomes 0 (zzlInsertAt). Such a set, read from a compact
// encoding (not record.Header.DoubleScores) for such a server, is written into the payload
// writer as its ZADD commands are made; once it holds a -0 score it is sent as
// RESTORE key ttl payload REPLACE [ABSTTL] instead of its last ZADD, which carries "-0"
// (the commands already sent are replaced by it).
//
// A skiplist's -0 (record.Header.DoubleScores) is what the server makes of it on loading:
// 0 where it packs the set into a listpack, -0 where the set stays a skiplist. Its members
// are sent once more after all the others, ZADD key 1 member, then ZADD key -0 member: the
// set then holds all its members, so it is a skiplist or a listpack by the same rules as on
// loading, and a skiplist keeps the -0 (the first ZADD makes the second a change: the server
// compares the scores, and -0 equals 0).

// ErrNegativeZero is wrapped by the error for a sorted set whose -0 score neither ZADD nor
// RESTORE can carry to the server (its payload is larger than the server takes).
var ErrNegativeZero = errors.New("a sorted-set score of -0 that ZADD stores as 0")

// zsetState is the open sorted set's watch for -0 scores.
type zsetState struct {
	watch    bool   // the set goes into the payload writer too
	negZero  bool   // a -0 score came
	noPacked bool   // a -0 score comes where no payload is written (the set went over to commands)
	err      error  // the payload writer's first error, kept for the moment the payload is needed
	doubles  bool   // a skiplist's set on a server that stores -0 as 0 in a listpack
	again    []byte // the names of a skiplist's members scored -0, each with its length before it
}

// isNegZero reports whether f is -0.
func isNegZero(f float64) bool { return f == 0 && math.Signbit(f) }

// zsetZeroInt reports whether the server stores a -0 score ZADD adds to a listpack as 0.
func (c *Commands) zsetZeroInt() bool { return c.o.Server.AtLeast(7, 0) }

// beginZSet opens a sorted set: its ZADD commands, and, when a -0 of it would need RESTORE,
// its payload.
func (c *Commands) beginZSet(h *record.Header) error {
	c.zset = zsetState{watch: !h.DoubleScores && c.zsetZeroInt() && !c.rs.direct, doubles: h.DoubleScores && c.zsetZeroInt(), again: c.zset.again[:0]}
	if c.zset.watch {
		p, err := c.payloadWriter()
		if err == nil {
			err = p.Begin(h)
		}
		c.zset.err = err
	}
	c.zset.noPacked = !h.DoubleScores && c.zsetZeroInt() && c.rs.direct
	return c.begin("ZADD", h.Key, h.ExpireAtMS)
}

// addZSetPayload passes m to the open sorted set's payload, and notes a -0 score.
func (c *Commands) addZSetPayload(m *record.Member) error {
	z := &c.zset
	if isNegZero(m.Score) {
		if z.noPacked {
			return c.fail(fmt.Errorf("write key %q: member %q: %w on %s, and its payload is too large for the server to RESTORE (its proto-max-bulk-len %d)",
				c.key, m.Name, ErrNegativeZero, c.o.Server, c.o.MaxPayload))
		}
		z.negZero = true
		if z.doubles {
			z.again = binary.AppendUvarint(z.again, uint64(len(m.Name)))
			z.again = append(z.again, m.Name...)
		}
	}
	if z.watch && z.err == nil {
		z.err = c.payload.Add(m)
	}
	return nil
}

// endZSet closes the open sorted set: its last ZADD, or, if it holds a -0 score, RESTORE of
// its payload. It reports whether it sent the record's last command.
func (c *Commands) endZSet() (bool, error) {
	z := c.zset
	c.zset = zsetState{again: z.again[:0]}
	if z.doubles && z.negZero {
		return false, c.scoreAgain(z.again)
	}
	if !z.watch {
		return false, nil
	}
	if !z.negZero {
		c.abandonPayload()
		return false, nil
	}
	var payload []byte
	err := z.err
	if err == nil {
		if err = c.payload.End(nil); err == nil {
			payload, err = c.payload.Payload()
		}
	}
	c.members, c.memBytes = 0, 0 // the ZADD being built goes: RESTORE replaces it
	if err != nil {
		c.abandonPayload()
		// The members sent so far go: nothing of the key is left half built.
		c.start("DEL", c.key)
		if sendErr := c.send(c.key, false); sendErr != nil {
			return true, sendErr
		}
		if errors.Is(err, encoder.ErrPayloadTooLarge) {
			return true, c.fail(fmt.Errorf("write key %q: %w on %s, and only RESTORE carries it, but its payload is too large for the server (%v, its proto-max-bulk-len)",
				c.key, ErrNegativeZero, c.o.Server, err))
		}
		return true, c.fail(fmt.Errorf("write key %q: restore the sorted set: %w", c.key, err))
	}
	return true, c.sendRestore(c.key, payload, true)
}

// abandonPayload drops the payload writer's open record, if there is a writer.
func (c *Commands) abandonPayload() {
	if c.payload != nil {
		c.payload.Abandon()
	}
}

// scoreAgain sends ZADD key 1 member, then ZADD key -0 member, for each member named in
// names (uvarint lengths, each before its name), as the open sorted set's last members.
func (c *Commands) scoreAgain(names []byte) error {
	c.verb = "ZADD"
	defer func() { c.verb = "" }()
	for _, score := range []float64{1, math.Copysign(0, -1)} {
		for rest := names; len(rest) > 0; {
			n, w := binary.Uvarint(rest)
			name := rest[w : w+int(n)]
			rest = rest[w+int(n):]
			if err := c.member("ZADD", len(name)+24); err != nil {
				return err
			}
			c.argScore(score)
			c.arg(name)
		}
		if score == 1 {
			if err := c.flush(false); err != nil {
				return err
			}
		}
	}
	return nil
}
