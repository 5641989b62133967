package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"time"

	"github.com/rdbgen/rdbgen/record"
	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Polling intervals while waiting for a server: short at first, for the small
// files of tests, then longer for big loads.
const (
	firstPoll = 10 * time.Millisecond
	maxPoll   = 100 * time.Millisecond
)

// newPollClient returns a client for polling a server that may not answer
// yet: one connection, short timeouts, no retries, and a plain RESP2
// handshake that a loading server answers.
func newPollClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr:                     addr,
		Protocol:                 2,
		DialTimeout:              time.Second,
		DialerRetries:            1,
		ReadTimeout:              5 * time.Second,
		WriteTimeout:             time.Second,
		MaxRetries:               -1,
		PoolSize:                 1,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	})
}

// listening tells whether addr accepts TCP connections. The wait checks this
// before it lets go-redis dial: go-redis logs every failed dial to the
// process's standard error, and a package must not print.
func listening(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// waitLoaded polls the server until it answers PING with loading:0, reporting
// progress on the way. It returns an [*ExitError] as soon as the server exits.
// On success it sets the instance's load durations.
func (i *Instance) waitLoaded(ctx context.Context, dump string, launched time.Time, opts Options) error {
	c := newPollClient(i.Addr)
	defer c.Close()
	timeout := time.NewTimer(opts.LoadTimeout)
	defer timeout.Stop()
	interval := firstPoll
	for {
		select {
		case <-i.r.exited():
			log, err := i.r.log(context.WithoutCancel(ctx))
			if err != nil {
				return fmt.Errorf("redis exited before loading %s (%s), and its log is unreadable: %w", dump, i.r.exitStatus(), err)
			}
			return newExitError(dump, log, i.r.exitStatus())
		case <-ctx.Done():
			return fmt.Errorf("wait for redis to load %s: %w", dump, ctx.Err())
		case <-timeout.C:
			return fmt.Errorf("wait for redis to load %s: %w after %v", dump, ErrLoadTimeout, opts.LoadTimeout)
		case <-time.After(interval):
		}
		interval = min(2*interval, maxPoll)

		done, err := i.poll(ctx, c, launched, opts.Progress)
		if err != nil {
			return fmt.Errorf("wait for redis to load %s: %w", dump, err)
		}
		if done {
			i.LoadDuration = time.Since(launched)
			if log, err := i.r.log(ctx); err == nil {
				i.ServerLoadDuration = serverLoadDuration(log)
			}
			return nil
		}
	}
}

// poll asks the server once whether it has loaded its dataset. Errors that
// mean "not yet" (no connection, LOADING) return false and no error; a
// server that answers with any other error ends the wait.
func (i *Instance) poll(ctx context.Context, c *redis.Client, launched time.Time, progress func(record.Progress)) (bool, error) {
	if !listening(ctx, i.Addr) {
		return false, nil
	}
	info := c.InfoMap(ctx, "persistence")
	if err := info.Err(); err != nil {
		return false, fatalReply(err)
	}
	if info.Item("Persistence", "loading") != "0" {
		if progress != nil {
			progress(loadProgress(info))
		}
		return false, nil
	}
	if err := c.Ping(ctx).Err(); err != nil {
		return false, fatalReply(err)
	}
	return i.r.owns(ctx, c)
}

// fatalReply returns err if it is an error reply other than LOADING: the
// server answers, and will go on refusing (NOAUTH, an unknown command...).
func fatalReply(err error) error {
	var reply redis.Error
	if errors.As(err, &reply) && !redis.HasErrorPrefix(err, "LOADING") {
		return err
	}
	return nil
}

// loadProgress reads the loading fields of INFO persistence: the bytes loaded
// (loading_loaded_bytes) out of the file's (loading_total_bytes).
func loadProgress(info *redis.InfoCmd) record.Progress {
	item := func(key string) string { return info.Item("Persistence", key) }
	var p record.Progress
	p.Bytes, _ = strconv.ParseInt(item("loading_loaded_bytes"), 10, 64)
	p.TotalBytes, _ = strconv.ParseInt(item("loading_total_bytes"), 10, 64)
	return p
}

// loadedFromDisk matches the server's "DB loaded from disk: 0.002 seconds".
var loadedFromDisk = regexp.MustCompile(`DB loaded from (?:disk|append only file): ([\d.]+) seconds`)

// serverLoadDuration returns the load time in the last "DB loaded from disk"
// line of log, or 0.
func serverLoadDuration(log string) time.Duration {
	m := loadedFromDisk.FindAllStringSubmatch(log, -1)
	if m == nil {
		return 0
	}
	s, err := strconv.ParseFloat(m[len(m)-1][1], 64)
	if err != nil {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}
