package resp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/cluster"
)

// Records built under a temporary name (Options.Atomic).
//
// A record's first commands tell: when its first is also its last (SET key value PXAT …), or
// its first is DEL key and the next is its last (a small collection without an expiry: DEL
// then one HSET), it is sent as it is: no reader sees it half built. Otherwise the record
// gets a temporary name, "{tag}rdbgen-tmp:TOKEN:N",
// whose hash tag puts it in the key's slot (RENAME in a cluster needs both in one slot),
// TOKEN random for each Commands and N counting its records. The record's DEL key is left
// out (RENAME replaces the key, whatever it held), every other command names the temporary
// key, and RENAME temp key follows the last one, after the expiry is set. A record whose
// expiry has already passed is sent as DEL key alone, as Redis drops an expired key when it
// loads a file.

// TempPrefix starts every temporary name, after its hash tag.
const TempPrefix = "rdbgen-tmp:"

// atomicState is the state of Options.Atomic.
type atomicState struct {
	open    bool   // a record's commands are being sent
	expired bool   // the open record expired before it was sent: its commands are left out
	delHeld bool   // the open record's DEL key is held until its next command tells
	temp    []byte // the open record's temporary name, nil when it is sent as it is
	token   string // random, for the temporary names of this Commands
	n       uint64 // records built under a temporary name
	args    [][]byte
}

// sendAtomic sends c.cmd, a command of a record, the way Options.Atomic says.
func (c *Commands) sendAtomic() error {
	a, cmd := &c.atomic, &c.cmd
	switch {
	case !a.open:
		a.open = true
		a.expired = c.exp != 0 && c.exp <= c.o.Now().UnixMilli()
		a.temp = nil
		if !a.expired && !cmd.Last {
			if len(cmd.Args) == 2 && string(cmd.Args[0]) == "DEL" {
				a.delHeld = true
				return nil
			}
			a.temp = c.tempName(cmd.Key)
		}
	case a.delHeld:
		a.delHeld = false
		if cmd.Last { // built in one command: DEL key, then it
			orig := *cmd
			a.args = append(a.args[:0], []byte("DEL"), cmd.Key)
			cmd.Args, cmd.Last, cmd.Expires, cmd.ExpireAtMS = a.args, false, false, 0
			if err := c.emitCmd(); err != nil {
				return err
			}
			c.cmd = orig
			a.open = false
			return c.emitCmd()
		}
		a.temp = c.tempName(cmd.Key) // RENAME replaces the key: no DEL
	}
	last := cmd.Last
	if last {
		a.open = false
	}
	switch {
	case a.expired:
		if !last {
			return nil
		}
		if c.o.Restore && !c.o.Replace { // a key the server holds is not deleted (restore.go)
			a.args = append(a.args[:0], []byte("EVAL"), []byte(failIfPresent), []byte("1"), cmd.Key)
		} else {
			a.args = append(a.args[:0], []byte("DEL"), cmd.Key)
		}
		cmd.Args = a.args
	case a.temp != nil:
		pos := 1
		if bytes.EqualFold(cmd.Args[0], []byte("XGROUP")) {
			pos = 2
		}
		if len(cmd.Args) <= pos || !bytes.Equal(cmd.Args[pos], cmd.Key) {
			return c.fail(fmt.Errorf("write key %q: %s does not name the key as argument %d", cmd.Key, cmd.Args[0], pos))
		}
		a.args = append(a.args[:0], cmd.Args...)
		a.args[pos] = a.temp
		cmd.Args, cmd.Temp, cmd.Last, cmd.Expires, cmd.ExpireAtMS = a.args, a.temp, false, false, 0
		if err := c.emitCmd(); err != nil || !last {
			return err
		}
		if c.o.Restore && !c.o.Replace { // a key the server holds is not replaced (restore.go)
			a.args = append(a.args[:0], []byte("EVAL"), []byte(renameIfAbsent), []byte("2"), a.temp, cmd.Key)
		} else {
			a.args = append(a.args[:0], []byte("RENAME"), a.temp, cmd.Key)
		}
		cmd.Args, cmd.Last, cmd.Expires, cmd.ExpireAtMS = a.args, true, c.exp != 0, c.exp
	}
	return c.emitCmd()
}

// emitCmd hands c.cmd to emit.
func (c *Commands) emitCmd() error {
	if err := c.emit(&c.cmd); err != nil {
		c.err = err
		return err
	}
	return nil
}

// tempName returns a new temporary name in key's slot.
func (c *Commands) tempName(key []byte) []byte {
	a := &c.atomic
	if a.token == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		a.token = hex.EncodeToString(b[:])
	}
	a.n++
	name := make([]byte, 0, 48)
	name = append(name, '{')
	name = append(name, cluster.SlotTag(cluster.Slot(key))...)
	name = append(name, '}')
	name = append(name, TempPrefix...)
	name = append(name, a.token...)
	name = append(name, ':')
	return strconv.AppendUint(name, a.n, 10)
}
