package loader

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/rdbgen/rdbgen/dataset"
)

// clients loads through go-redis, for Sequential, Parallel and Pipeline:
// Workers clients of one connection each take blocks of Batch keys from a
// shared counter, so that no worker idles while others have work left.
func (l *load) clients(ctx context.Context) (time.Duration, error) {
	// go-redis logs a failed dial on the process's standard error, and a
	// package must not print: try the address once ourselves first.
	conn, err := l.dial(ctx)
	if err != nil {
		return 0, err
	}
	conn.Close()

	clients := make([]*redis.Client, 0, l.o.Workers)
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	for range l.o.Workers {
		c := redis.NewClient(l.redisOptions())
		clients = append(clients, c)
		// Connect, authenticate and select the database now, before the clock runs.
		if err := c.Ping(ctx).Err(); err != nil {
			return 0, fmt.Errorf("connect: %w", err)
		}
	}

	var (
		next    atomic.Uint64 // first key of the next block
		stopped atomic.Bool   // set by the first worker that fails
		mu      sync.Mutex
		first   error
		wg      sync.WaitGroup
	)
	start := time.Now()
	for _, c := range clients {
		wg.Go(func() {
			w := worker{l: l, c: c, pipe: c.Pipeline()}
			if err := w.run(ctx, &next, &stopped); err != nil {
				stopped.Store(true)
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return time.Since(start), first
}

// redisOptions returns the options of one worker's client: one connection, no
// retries (a load reports what the server confirmed; loading again is
// harmless), and a plain RESP2 handshake that servers from 5.0 on answer.
func (l *load) redisOptions() *redis.Options {
	return &redis.Options{
		Addr:                     l.o.Addr,
		Username:                 l.o.Username,
		Password:                 l.o.Password,
		DB:                       l.d.DB,
		TLSConfig:                l.o.TLSConfig,
		Protocol:                 2,
		DialTimeout:              l.o.DialTimeout,
		DialerRetries:            1,
		ReadTimeout:              l.o.Timeout,
		WriteTimeout:             l.o.Timeout,
		PoolSize:                 1,
		MaxRetries:               -1,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// worker is one goroutine of a go-redis load, with its own connection.
type worker struct {
	l    *load
	c    *redis.Client
	pipe redis.Pipeliner
	buf  []byte // keys and values of the block being sent
	cmds []*redis.StatusCmd
}

// run sends blocks of keys until there are none left, another worker has
// failed, or a command fails.
func (w *worker) run(ctx context.Context, next *atomic.Uint64, stopped *atomic.Bool) error {
	n, batch := w.l.d.Count, uint64(w.l.o.Batch)
	for !stopped.Load() {
		first := next.Add(batch) - batch
		if first >= n {
			return nil
		}
		if err := w.send(ctx, first, min(first+batch, n)); err != nil {
			return err
		}
	}
	return nil
}

// send sends the keys first to end-1 in one round trip and counts the
// confirmed ones. It returns the first failed command's error.
func (w *worker) send(ctx context.Context, first, end uint64) error {
	w.buf, w.cmds = w.buf[:0], w.cmds[:0]
	for i := first; i < end; i++ {
		w.cmds = append(w.cmds, w.set(ctx, i))
	}
	if w.l.o.Method == Pipeline {
		for _, cmd := range w.cmds {
			_ = w.pipe.Process(ctx, cmd)
		}
		_, _ = w.pipe.Exec(ctx) // each command holds its own error
	} else {
		_ = w.c.Process(ctx, w.cmds[0])
	}
	var ok uint64
	var failed error
	for k, cmd := range w.cmds {
		err := cmd.Err()
		switch {
		case err == nil:
			ok++
		case failed == nil:
			failed = fmt.Errorf("set key %q: %w", w.l.d.AppendKey(nil, first+uint64(k)), w.l.hint(err))
		}
	}
	w.l.confirmed.Add(ok)
	return failed
}

// set returns the SET command of record i. Its key and value live in w.buf,
// which is reset only once the command has been answered.
func (w *worker) set(ctx context.Context, i uint64) *redis.StatusCmd {
	d := w.l.d
	start := len(w.buf)
	w.buf = d.AppendKey(w.buf, i)
	key := w.buf[start:]
	value := key
	if d.Value == dataset.ValueRandom {
		start = len(w.buf)
		w.buf = d.AppendValue(w.buf, i)
		value = w.buf[start:]
	}
	// When an append moves w.buf, key and value keep the old array, which
	// nothing writes to any more.
	if at := d.ExpireAtMS(i); at != 0 {
		opt, arg := w.l.expiryArgs(at)
		return redis.NewStatusCmd(ctx, "SET", key, value, opt, arg)
	}
	return redis.NewStatusCmd(ctx, "SET", key, value)
}
