package loader

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/resp"
)

// Streams that commands cannot rebuild go as RESTORE (see package resp): the payload's RDB
// version is the server's, from its version, and its size is bounded by the server's
// proto-max-bulk-len.

// commands returns the commands for the server at addr, of version v, that emit hands to
// the conduit; and the watch of their large arguments when the server does not say its
// proto-max-bulk-len (see bulkWatch).
func (l *load) commands(ctx context.Context, emit func(*resp.Command) error, addr string, v resp.Version) (*resp.Commands, *bulkWatch, error) {
	limit, known := l.maxPayload(ctx, addr)
	w := &bulkWatch{emit: emit}
	if !known {
		emit = w.watch
	}
	o := resp.Options{Server: v, Expiry: l.o.Expiry, MaxPayload: limit,
		DropLostPending: l.o.DropLostPending, DropFieldTTL: l.o.DropFieldTTL, Atomic: true, Restore: l.o.Method == Restore, Replace: l.o.Replace}
	if l.o.Method == Auto {
		o.Restore, o.Replace, o.SetStrings = l.autoCaps(addr).restore, true, true
	}
	cmds, err := resp.NewCommands(emit, o)
	return cmds, w, err
}

// maxPayload returns the server's proto-max-bulk-len, or Redis's default and false when the
// server does not say (CONFIG renamed or refused, as on managed servers).
func (l *load) maxPayload(ctx context.Context, addr string) (int64, bool) {
	c := redis.NewClient(l.redisOptions(addr))
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, l.o.DialTimeout)
	defer cancel()
	kv, err := c.ConfigGet(ctx, "proto-max-bulk-len").Result()
	if err != nil {
		return resp.DefaultMaxPayload, false
	}
	n, err := strconv.ParseInt(kv["proto-max-bulk-len"], 10, 64)
	if err != nil || n <= 0 {
		return resp.DefaultMaxPayload, false
	}
	return n, true
}

// addStreams adds the counts of the streams cmds sent, and of its records sent as commands
// by the Restore method, and releases what it holds.
func (l *load) addStreams(cmds *resp.Commands) {
	l.streamsMu.Lock()
	l.streams.Add(cmds.StreamCounts())
	l.restore.Fallbacks += cmds.RestoreCounts().Fallbacks
	l.streamsMu.Unlock()
	_ = cmds.Close()
}
