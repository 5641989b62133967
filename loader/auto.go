package loader

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// The Auto method: the commands of Restore (resp.Options.Restore, with SetStrings and
// Replace), streamed on Mass's raw connections, where the connection gathers the strings
// without an expiry (SET key value) into MSET commands of Batch keys. Into a cluster, a
// connection gathers each slot's strings apart, since MSET takes the keys of one slot. A
// gathered string goes before any other command of its slot, and every one before a
// SELECT, so that the commands of each key keep their order. Before the load, each server
// is probed with a MSET and a RESTORE of a temporary key: a server that refuses one
// (an ACL, a payload it cannot read) gets SET, or the type's commands, instead.

// AutoCounts counts how the Auto method sent the records.
type AutoCounts struct {
	// MSet counts the strings sent in MSET commands, and MSetCommands those commands.
	MSet         uint64 `json:"mset"`
	MSetCommands uint64 `json:"mset_commands"`
	// Set counts the strings sent as SET: those with an expiry, or all when MSET is refused.
	Set uint64 `json:"set"`
	// Restore counts the records sent as RESTORE.
	Restore uint64 `json:"restore"`
	// Commands counts the records sent as the commands of their type: a payload over the
	// server's proto-max-bulk-len, a server that refuses RESTORE, or a record whose expiry
	// had passed (DEL).
	Commands uint64 `json:"commands"`
	// Refused names, for each server, what it refused when probed and what went instead.
	Refused []string `json:"refused,omitempty"`
}

// add adds the counts of o.
func (a *AutoCounts) add(o *AutoCounts) {
	a.MSet += o.MSet
	a.MSetCommands += o.MSetCommands
	a.Set += o.Set
	a.Restore += o.Restore
	a.Commands += o.Commands
}

// maxGathered bounds the bytes of the strings a connection gathers, over its slots.
const maxGathered = 4 << 20

// autoCaps is what the server at an address takes, as probed.
type autoCaps struct {
	mset, restore bool
}

// A gatherer gathers a connection's strings without an expiry into MSET commands.
type gatherer struct {
	size    int               // keys per MSET; 0 when the server refuses MSET
	cluster bool              // gather each slot apart
	bufs    map[int]*gathered // by slot, or all in 0
	bytes   int               // gathered, over the slots
	args    [][]byte          // scratch for a MSET's arguments
	counts  AutoCounts
}

// gathered are the strings of one slot: their keys and values in turn, in data.
type gathered struct {
	db   int
	n    int // keys
	ends []int
	data []byte
}

// newGatherer returns the gatherer of a connection to a server that takes caps.
func (l *load) newGatherer(caps autoCaps) *gatherer {
	g := &gatherer{cluster: l.o.Cluster, bufs: map[int]*gathered{}}
	if caps.mset {
		g.size = l.o.Batch
	}
	return g
}

// autoEmit takes cmd for the Auto method: it gathers a string without an expiry, and
// otherwise sends the strings of cmd's slot (every slot, for a command of no key) and
// counts cmd, which the caller then sends. It tells whether it took cmd.
func (m *massConduit) autoEmit(cmd *resp.Command) (bool, error) {
	g := m.auto
	if cmd.Key == nil {
		return false, m.sendGathered(-1)
	}
	slot := 0
	if g.cluster {
		slot = cluster.Slot(cmd.Key)
	}
	if g.size > 0 && cmd.Last && cmd.Temp == nil && len(cmd.Args) == 3 && string(cmd.Args[0]) == "SET" {
		b := g.bufs[slot]
		if b == nil {
			b = &gathered{}
			g.bufs[slot] = b
		}
		if b.n > 0 && b.db != cmd.DB {
			if err := m.sendGathered(slot); err != nil {
				return true, err
			}
		}
		b.db = cmd.DB
		b.data = append(b.data, cmd.Args[1]...)
		b.ends = append(b.ends, len(b.data))
		b.data = append(b.data, cmd.Args[2]...)
		b.ends = append(b.ends, len(b.data))
		b.n++
		g.bytes += len(cmd.Args[1]) + len(cmd.Args[2])
		g.counts.MSet++
		switch {
		case b.n >= g.size:
			return true, m.sendGathered(slot)
		case g.bytes > maxGathered:
			return true, m.sendGathered(-1)
		}
		return true, nil
	}
	if b := g.bufs[slot]; b != nil && b.n > 0 {
		if err := m.sendGathered(slot); err != nil {
			return true, err
		}
	}
	if cmd.Last {
		switch string(cmd.Args[0]) {
		case "SET":
			g.counts.Set++
		case "RESTORE":
			g.counts.Restore++
		default:
			g.counts.Commands++
		}
	}
	return false, nil
}

// sendGathered sends the strings gathered of slot, or of every slot when slot is -1, as
// MSET commands.
func (m *massConduit) sendGathered(slot int) error {
	g := m.auto
	if slot >= 0 {
		return m.sendMSet(g.bufs[slot])
	}
	for _, b := range g.bufs {
		if err := m.sendMSet(b); err != nil {
			return err
		}
	}
	return nil
}

// sendMSet sends the strings of b as one MSET, or as SET when there is one.
func (m *massConduit) sendMSet(b *gathered) error {
	if b == nil || b.n == 0 {
		return nil
	}
	g := m.auto
	verb := "MSET"
	if b.n == 1 {
		verb = "SET"
	}
	g.args = append(g.args[:0], []byte(verb))
	start := 0
	for _, end := range b.ends {
		g.args = append(g.args, b.data[start:end])
		start = end
	}
	g.counts.MSetCommands++
	n := b.n
	g.bytes -= len(b.data) // the arguments are written before write returns
	b.n, b.ends, b.data = 0, b.ends[:0], b.data[:0]
	if err := m.write(g.args, flagLast|flagMSet, g.args[1], b.db, 0, nil, uint32(n)); err != nil {
		return err
	}
	return m.release()
}

// probeAuto asks the server at addr, with a temporary key of slot, whether it takes MSET
// and RESTORE of a payload of its version, and records the answer for addr's conduits and
// commands. A server that refuses either gets SET or the type's commands instead, noted in
// Result.Auto.Refused; one that refuses the user the probe's key alone (an ACL key pattern),
// or whose probe slot is moving, is taken to allow both, and the load's keys tell.
func (l *load) probeAuto(ctx context.Context, addr string, slot int, v resp.Version) error {
	c := redis.NewClient(l.redisOptions(addr))
	defer c.Close()
	ctx = context.WithoutCancel(ctx) // the probe's key is removed, interrupted or not
	ctx, cancel := context.WithTimeout(ctx, l.o.DialTimeout+l.o.Timeout)
	defer cancel()
	key := []byte("{" + cluster.SlotTag(slot) + "}" + resp.TempPrefix + "probe")
	caps := autoCaps{mset: true, restore: v.AtLeast(5, 0)}
	var refused []string
	if err := c.MSet(ctx, key, "v").Err(); err != nil && !tellsNothing(err) {
		if isConnError(err) {
			return fmt.Errorf("connect: %w", err)
		}
		caps.mset = false
		refused = append(refused, fmt.Sprintf("%s refused MSET (%v): strings went as SET", addr, err))
	}
	if caps.restore {
		if args, err := probeRestore(key, v); err != nil {
			return err
		} else if err := c.Do(ctx, args...).Err(); err != nil && !tellsNothing(err) {
			if isConnError(err) {
				return fmt.Errorf("connect: %w", err)
			}
			caps.restore = false
			refused = append(refused, fmt.Sprintf("%s refused RESTORE (%v): keys went as their commands", addr, err))
		}
	}
	if err := c.Del(ctx, string(key)).Err(); err != nil && !tellsNothing(err) {
		return fmt.Errorf("remove the probe key %q from %s (%w): delete it by hand", key, addr, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.caps == nil {
		l.caps = map[string]autoCaps{}
	}
	l.caps[addr] = caps
	l.auto.Refused = append(l.auto.Refused, refused...)
	return nil
}

// tellsNothing tells whether err, a reply to the probe, says nothing of the command: the
// probe's key is refused the user, or its slot is moving (MOVED, ASK: the load's own keys of
// the slot will say so). The command did not run.
func tellsNothing(err error) bool {
	msg := err.Error()
	return keyRefused(err) || strings.HasPrefix(msg, "MOVED ") || strings.HasPrefix(msg, "ASK ")
}

// keyRefused tells whether err refuses the user the probe's key, not the command: the
// user's own keys may be allowed, and tell.
func keyRefused(err error) bool {
	return strings.HasPrefix(err.Error(), "NOPERM") && strings.Contains(err.Error(), "keys")
}

// isConnError tells a failure to reach the server from an error reply.
func isConnError(err error) bool {
	_, isReply := err.(redis.Error)
	return !isReply
}

// probeRestore returns the RESTORE … REPLACE of a hash of one field as key, in a payload of
// the RDB version of v, as the load would send it.
func probeRestore(key []byte, v resp.Version) ([]any, error) {
	var args []any
	cmds, err := resp.NewCommands(func(c *resp.Command) error {
		for _, a := range c.Args {
			args = append(args, string(a))
		}
		return nil
	}, resp.Options{Server: v, Restore: true, Replace: true, Expiry: resp.ExpiryRelative})
	if err != nil {
		return nil, err
	}
	defer cmds.Close()
	if err := cmds.Begin(&record.Header{Key: key, Type: record.Hash, Len: 1}); err != nil {
		return nil, err
	}
	if err := cmds.Add(&record.Member{Name: []byte("f"), Value: []byte("v")}); err != nil {
		return nil, err
	}
	if err := cmds.End(nil); err != nil {
		return nil, err
	}
	return args, nil
}

// autoCaps returns what the server at addr takes, as probed.
func (l *load) autoCaps(addr string) autoCaps {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.caps[addr]
}

// addAuto adds the counts of a conduit's gatherer.
func (l *load) addAuto(g *gatherer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.auto.add(&g.counts)
}

// autoHint is what a refused MSET or RESTORE of the Auto method adds to its error.
const autoHint = "; --method auto sends MSET for strings and RESTORE for other keys: allow them to the user (ACL SETUSER … +mset +restore) or load with --method mass, which sends SET and each type's commands"

// withAutoHint adds autoHint to err, a reply of the Auto method, when it refuses the user a
// command (not a key).
func withAutoHint(err error) error {
	if strings.HasPrefix(err.Error(), "NOPERM") && !keyRefused(err) {
		return fmt.Errorf("%w%s", err, autoHint)
	}
	return err
}
