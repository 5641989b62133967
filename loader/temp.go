package loader

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/resp"
)

// A record of more than one command is built under a temporary name and renamed onto its
// key last (resp.Options.Atomic). The RENAME goes only once the server has confirmed
// every other command of the record, so that a record with a failed command is never
// renamed: its temporary key is removed once the load stops.

// A tempKey is the temporary key of a record sent but not renamed onto its key.
type tempKey struct {
	db        int
	name, key []byte
}

// isExpiredRename tells whether err, the reply to a record's RENAME, says that its
// temporary key is gone because the record's expiry (expireAt, Unix ms) passed while its
// commands were on their way: the record is then counted as expired.
func isExpiredRename(err error, expireAt int64) bool {
	return expireAt != 0 && expireAt <= time.Now().UnixMilli() && strings.HasPrefix(err.Error(), "ERR no such key")
}

// errUnfinished is the conduit's error when the source stopped in the middle of a record:
// the source's own error says why (see load.end).
var errUnfinished = errors.New("the load left records unfinished")

// removeTemps deletes the temporary keys of addr, over a connection of its own (the
// load's may be dead), and returns err with what was left behind, if anything was.
func (l *load) removeTemps(ctx context.Context, addr string, temps []tempKey, err error) error {
	if len(temps) == 0 {
		return err
	}
	if err == nil { // a record is left unrenamed only by a failure: the source's (see end)
		err = errUnfinished
	}
	if rmErr := l.deleteTemps(context.WithoutCancel(ctx), addr, temps); rmErr != nil {
		t := temps[0]
		left := fmt.Sprintf("the partial copy %q of key %q (db %d)", t.name, t.key, t.db)
		if len(temps) > 1 {
			left = fmt.Sprintf("%d partial copies of keys, such as %q of key %q (db %d)", len(temps), t.name, t.key, t.db)
		}
		return fmt.Errorf("%w; and %s could not be removed (%v): delete it by hand", err, left, rmErr)
	}
	return err
}

// dropStale deletes keys whose records expired on their way, RENAME finding their
// temporary keys gone, so that no older value of them stays, as none would after loading a
// file; it returns err with what could not be deleted, if anything.
func (l *load) dropStale(ctx context.Context, addr string, keys []tempKey, err error) error {
	if len(keys) == 0 {
		return err
	}
	if rmErr := l.deleteTemps(context.WithoutCancel(ctx), addr, keys); rmErr != nil {
		stale := fmt.Errorf("key %q (db %d) expired on its way, and an older value of it may be left (%v): delete it by hand", keys[0].name, keys[0].db, rmErr)
		if err == nil {
			return stale
		}
		return fmt.Errorf("%w; and %w", err, stale)
	}
	return err
}

// deleteTemps sends SELECT and DEL for each temporary key, and returns the first failure.
func (l *load) deleteTemps(ctx context.Context, addr string, temps []tempKey) error {
	ctx, cancel := context.WithTimeout(ctx, l.o.DialTimeout+l.o.Timeout)
	defer cancel()
	conn, err := l.connect(ctx, addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if d, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(d)
	}
	cmds := l.authCommand(nil)
	n := 0
	if len(cmds) > 0 {
		n++
	}
	db := -1
	for _, t := range temps {
		if t.db != db {
			cmds = resp.AppendCommand(cmds, []byte("SELECT"), fmt.Append(nil, t.db))
			db = t.db
			n++
		}
		cmds = resp.AppendCommand(cmds, []byte("DEL"), t.name)
		n++
	}
	if _, err := conn.Write(cmds); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	var first error
	for ; n > 0; n-- {
		kind, text, err := resp.ReadReply(r)
		if err != nil {
			return err
		}
		if kind == '-' && first == nil {
			first = resp.ReplyError(text)
		}
	}
	return first
}
