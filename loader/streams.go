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

// commandOptions returns the options of the commands for the server at addr, of version v.
func (l *load) commandOptions(ctx context.Context, addr string, v resp.Version) resp.Options {
	o := resp.Options{Server: v, Expiry: l.o.Expiry, MaxPayload: l.maxPayload(ctx, addr),
		DropLostPending: l.o.DropLostPending, DropFieldTTL: l.o.DropFieldTTL, Atomic: true, Restore: l.o.Method == Restore, Replace: l.o.Replace}
	if l.o.Method == Auto {
		o.Restore, o.Replace, o.SetStrings = l.autoCaps(addr).restore, true, true
	}
	return o
}

// maxPayload returns the server's proto-max-bulk-len, or Redis's default when the server
// does not say (CONFIG renamed or refused, as on managed servers).
func (l *load) maxPayload(ctx context.Context, addr string) int64 {
	c := redis.NewClient(l.redisOptions(addr))
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, l.o.DialTimeout)
	defer cancel()
	kv, err := c.ConfigGet(ctx, "proto-max-bulk-len").Result()
	if err != nil {
		return resp.DefaultMaxPayload
	}
	n, err := strconv.ParseInt(kv["proto-max-bulk-len"], 10, 64)
	if err != nil || n <= 0 {
		return resp.DefaultMaxPayload
	}
	return n
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
