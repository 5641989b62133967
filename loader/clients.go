package loader

import (
	"context"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/rdbgen/rdbgen/resp"
)

// A pool loads through go-redis, for Sequential, Parallel and Pipeline: Workers clients
// of one connection each take jobs of whole records in turn. A record too large for one
// job continues in the next job of the same worker, so that its commands keep their
// order.
type pool struct {
	l       *load
	ctx     context.Context
	addr    string
	n       *nodeCounts
	clients []*redis.Client
	jobs    []chan *job
	cur     int  // the worker of the next job
	job     *job // the job being filled
	jobSize int

	failed chan struct{} // closed on the first failure
	once   sync.Once
	first  error
	wg     sync.WaitGroup
}

// A job is a run of commands for one worker, all in one database.
type job struct {
	db    int
	bytes int // of the commands' arguments
	cmds  []*redis.Cmd
	keys  [][]byte
	flags []uint8
}

// jobsQueued is the number of jobs waiting for each worker.
const jobsQueued = 2

// sequentialJob is the number of commands of a job when each is one round trip.
const sequentialJob = 64

// maxJobBytes bounds the bytes of a job's commands, which it holds until they are
// answered: a job of large commands is handed out before it has its count.
const maxJobBytes = 8 << 20

// openPool connects the workers' clients to addr and starts them.
func (l *load) openPool(ctx context.Context, addr string, n *nodeCounts) (*pool, error) {
	p := &pool{l: l, ctx: ctx, addr: addr, n: n, failed: make(chan struct{}), jobSize: sequentialJob}
	if l.o.Method == Pipeline {
		p.jobSize = l.o.Batch
	}
	for range l.o.Workers {
		c := redis.NewClient(l.redisOptions(addr))
		p.clients = append(p.clients, c)
		// Connect and authenticate now, before the clock runs.
		if err := c.Ping(ctx).Err(); err != nil {
			p.close()
			return nil, fmt.Errorf("connect: %w", err)
		}
	}
	for _, c := range p.clients {
		ch := make(chan *job, jobsQueued)
		p.jobs = append(p.jobs, ch)
		p.wg.Go(func() { p.work(c, ch) })
	}
	p.job = &job{}
	return p, nil
}

// redisOptions returns the options of one worker's client: one connection, no
// retries (a load reports what the server confirmed; loading again is
// harmless), and a plain RESP2 handshake that servers from 5.0 on answer.
func (l *load) redisOptions(addr string) *redis.Options {
	return &redis.Options{
		Addr:                     addr,
		Username:                 l.o.Username,
		Password:                 l.o.Password,
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

// fail records the first failure and stops the load.
func (p *pool) fail(err error) {
	p.once.Do(func() {
		p.first = err
		close(p.failed)
	})
}

// emit adds a command to the job being filled; SELECT is left to the workers, which
// select each job's database.
func (p *pool) emit(cmd *resp.Command) error {
	select {
	case <-p.failed:
		return errStopped
	default:
	}
	if cmd.Key == nil {
		return nil
	}
	if len(p.job.cmds) > 0 && p.job.db != cmd.DB {
		if err := p.dispatch(true); err != nil {
			return err
		}
	}
	j := p.job
	if len(j.cmds) == 0 {
		j.db = cmd.DB
	}
	size := len(cmd.Key)
	for _, a := range cmd.Args {
		size += len(a)
	}
	buf := make([]byte, 0, size)
	args := make([]any, len(cmd.Args))
	for i, a := range cmd.Args {
		buf = append(buf, a...)
		args[i] = buf[len(buf)-len(a):]
	}
	buf = append(buf, cmd.Key...)
	j.cmds = append(j.cmds, redis.NewCmd(p.ctx, args...))
	j.keys = append(j.keys, buf[len(buf)-len(cmd.Key):])
	var f uint8
	if cmd.Last {
		f |= flagLast
	}
	if cmd.Expires {
		f |= flagExpires
	}
	j.flags = append(j.flags, f)
	j.bytes += size
	if len(j.cmds) >= p.jobSize || j.bytes >= maxJobBytes {
		return p.dispatch(cmd.Last)
	}
	return nil
}

// dispatch hands the job being filled to the current worker; next moves on to the next
// worker, which is right only at the end of a record.
func (p *pool) dispatch(next bool) error {
	select {
	case p.jobs[p.cur] <- p.job:
	case <-p.failed:
		return errStopped
	}
	p.job = &job{}
	if next {
		p.cur = (p.cur + 1) % len(p.jobs)
	}
	return nil
}

// finish hands out the last job and waits for the workers.
func (p *pool) finish() error {
	if len(p.job.cmds) > 0 {
		_ = p.dispatch(true)
	}
	for _, ch := range p.jobs {
		close(ch)
	}
	p.wg.Wait()
	return p.first
}

// close closes the clients.
func (p *pool) close() {
	for _, c := range p.clients {
		c.Close()
	}
}

// work sends the jobs of ch until it is closed or the load fails.
func (p *pool) work(c *redis.Client, ch <-chan *job) {
	db := 0
	pipe := c.Pipeline()
	for j := range ch {
		select {
		case <-p.failed:
			return
		default:
		}
		if j.db != db {
			// Through the pipeline when there is one: go-redis may run it on another
			// connection of the client than Do's.
			sel := redis.NewCmd(p.ctx, "SELECT", j.db)
			if p.l.o.Method == Pipeline {
				_ = pipe.Process(p.ctx, sel)
				_, _ = pipe.Exec(p.ctx)
			} else {
				_ = c.Process(p.ctx, sel)
			}
			if err := sel.Err(); err != nil {
				p.fail(keyError(nil, p.addr, err))
				return
			}
			db = j.db
		}
		if err := p.send(c, pipe, j); err != nil {
			p.fail(err)
			return
		}
	}
}

// send sends a job's commands, Batch per round trip with Pipeline, one otherwise, and
// counts the records confirmed until the first failed command, whose error it returns.
func (p *pool) send(c *redis.Client, pipe redis.Pipeliner, j *job) error {
	batch := 1
	if p.l.o.Method == Pipeline {
		batch = p.l.o.Batch
	}
	for from := 0; from < len(j.cmds); from += batch {
		to := min(from+batch, len(j.cmds))
		if batch == 1 {
			_ = c.Process(p.ctx, j.cmds[from])
		} else {
			for _, cmd := range j.cmds[from:to] {
				_ = pipe.Process(p.ctx, cmd)
			}
			_, _ = pipe.Exec(p.ctx) // each command holds its own error
		}
		for k := from; k < to; k++ {
			if err := j.cmds[k].Err(); err != nil {
				return keyError(j.keys[k], p.addr, err)
			}
			if j.flags[k]&flagLast != 0 {
				p.l.confirm(p.n, j.flags[k]&flagExpires != 0)
			}
		}
	}
	return nil
}
