package loader

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
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
	l   *load
	ctx context.Context
	// cmdCtx is ctx without its cancel, for the commands: a command sent is always answered,
	// so that the count is what the server holds and no command runs after the temporary
	// keys are removed; the workers stop at ctx's end between round trips.
	cmdCtx  context.Context
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

	// The temporary keys of records sent but not renamed onto their keys (see temp.go).
	mu    sync.Mutex
	temps map[string]tempKey
	open  []byte    // the temporary name of the record being filled
	stale []tempKey // the keys whose RENAME found them expired
}

// A job is a run of commands for one worker, all in one database.
type job struct {
	db    int
	bytes int // of the commands' arguments
	cmds  []*redis.Cmd
	keys  [][]byte
	flags []uint8
	exps  []int64 // each command's Command.ExpireAtMS
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
	p := &pool{l: l, ctx: ctx, cmdCtx: context.WithoutCancel(ctx), addr: addr, n: n, failed: make(chan struct{}), jobSize: sequentialJob, temps: map[string]tempKey{}}
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
	j.cmds = append(j.cmds, redis.NewCmd(p.cmdCtx, args...))
	j.keys = append(j.keys, buf[len(buf)-len(cmd.Key):])
	var f uint8
	if cmd.Last {
		f |= flagLast
	}
	if cmd.Expires {
		f |= flagExpires
	}
	if cmd.Temp != nil {
		if !bytes.Equal(cmd.Temp, p.open) {
			p.open = bytes.Clone(cmd.Temp)
			p.mu.Lock()
			p.temps[string(p.open)] = tempKey{db: cmd.DB, name: p.open, key: bytes.Clone(cmd.Key)}
			p.mu.Unlock()
		}
		if cmd.Last {
			f |= flagRename
		}
	}
	j.flags = append(j.flags, f)
	j.exps = append(j.exps, cmd.ExpireAtMS)
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

// finish hands out the last job, waits for the workers, and removes the temporary keys of
// the records not renamed.
func (p *pool) finish() error {
	if len(p.job.cmds) > 0 {
		_ = p.dispatch(true)
	}
	for _, ch := range p.jobs {
		close(ch)
	}
	p.wg.Wait()
	temps := make([]tempKey, 0, len(p.temps))
	for _, t := range p.temps {
		temps = append(temps, t)
	}
	slices.SortFunc(temps, func(a, b tempKey) int { return cmp.Compare(a.db, b.db) })
	err := p.l.removeTemps(p.ctx, p.addr, temps, p.first)
	slices.SortFunc(p.stale, func(a, b tempKey) int { return cmp.Compare(a.db, b.db) })
	return p.l.dropStale(p.ctx, p.addr, p.stale, err)
}

// renamed forgets the temporary key that a record's confirmed RENAME moved.
func (p *pool) renamed(c *redis.Cmd) {
	if name, ok := c.Args()[1].([]byte); ok {
		p.mu.Lock()
		delete(p.temps, string(name))
		p.mu.Unlock()
	}
}

// close closes the clients.
func (p *pool) close() {
	for _, c := range p.clients {
		c.Close()
	}
}

// A held command is a record's RENAME that a pipelining worker holds until the round trip
// with the record's other commands is confirmed: it goes with the next one.
type held struct {
	j *job
	k int
}

// work sends the jobs of ch until it is closed or the load fails.
func (p *pool) work(c *redis.Client, ch <-chan *job) {
	db := 0
	pipe := c.Pipeline()
	var renames []held
	defer func() {
		// The RENAMEs held go before the worker ends, unless the load failed.
		select {
		case <-p.failed:
		default:
			if err := p.exec(pipe, renames, nil); err != nil {
				p.fail(err)
			}
		}
	}()
	for j := range ch {
		select {
		case <-p.failed:
			return
		case <-p.ctx.Done():
			p.fail(p.ctx.Err())
			return
		default:
		}
		if j.db != db && len(renames) > 0 {
			err := p.exec(pipe, renames, nil)
			renames = nil
			if err != nil {
				p.fail(err)
				return
			}
		}
		if j.db != db {
			// Through the pipeline when there is one: go-redis may run it on another
			// connection of the client than Do's.
			sel := redis.NewCmd(p.cmdCtx, "SELECT", j.db)
			if p.l.o.Method == Pipeline {
				_ = pipe.Process(p.cmdCtx, sel)
				_, _ = pipe.Exec(p.cmdCtx)
			} else {
				_ = c.Process(p.cmdCtx, sel)
			}
			if err := sel.Err(); err != nil {
				p.fail(keyError(nil, p.addr, err))
				return
			}
			db = j.db
		}
		var err error
		if p.l.o.Method == Pipeline {
			renames, err = p.sendBatches(pipe, j, renames)
		} else {
			err = p.send(c, j)
		}
		if err != nil {
			p.fail(err)
			return
		}
	}
}

// send sends a job's commands one per round trip, and counts the records confirmed until
// the first failed command, whose error it returns. A record's RENAME goes once the
// commands before it are confirmed.
func (p *pool) send(c *redis.Client, j *job) error {
	for k, cmd := range j.cmds {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		_ = c.Process(p.cmdCtx, cmd)
		if err := p.reply(j, k); err != nil {
			return err
		}
	}
	return nil
}

// sendBatches sends a job's commands Batch per round trip, each with the RENAMEs held from
// the one before, and returns the RENAMEs it holds for the next one, or the first failure.
func (p *pool) sendBatches(pipe redis.Pipeliner, j *job, renames []held) ([]held, error) {
	for from := 0; from < len(j.cmds); from += p.l.o.Batch {
		if err := p.ctx.Err(); err != nil {
			return nil, err
		}
		to := min(from+p.l.o.Batch, len(j.cmds))
		var next []held
		for k := from; k < to; k++ {
			if j.flags[k]&flagRename != 0 {
				next = append(next, held{j, k})
			}
		}
		if err := p.exec(pipe, renames, &batch{j, from, to}); err != nil {
			return nil, err
		}
		renames = next
	}
	return renames, nil
}

// A batch is a run of a job's commands.
type batch struct {
	j        *job
	from, to int
}

// exec sends the RENAMEs held and b's commands but its RENAMEs in one round trip, counts
// the records confirmed, and returns the first failure.
func (p *pool) exec(pipe redis.Pipeliner, renames []held, b *batch) error {
	for _, h := range renames {
		_ = pipe.Process(p.cmdCtx, h.j.cmds[h.k])
	}
	if b != nil {
		for k := b.from; k < b.to; k++ {
			if b.j.flags[k]&flagRename == 0 {
				_ = pipe.Process(p.cmdCtx, b.j.cmds[k])
			}
		}
	}
	if pipe.Len() == 0 {
		return nil
	}
	_, _ = pipe.Exec(p.cmdCtx) // each command holds its own error
	// Every reply is counted, after a failure too: the server applied those commands.
	var first error
	for _, h := range renames {
		if err := p.reply(h.j, h.k); err != nil && first == nil {
			first = err
		}
	}
	if b != nil {
		for k := b.from; k < b.to; k++ {
			if b.j.flags[k]&flagRename != 0 {
				continue
			}
			if err := p.reply(b.j, k); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// reply counts the record of command k of j if its reply confirms it, and returns the
// command's failure.
func (p *pool) reply(j *job, k int) error {
	cmd, f := j.cmds[k], j.flags[k]
	err := cmd.Err()
	switch {
	case err != nil && f&flagRename != 0 && isExpiredRename(err, j.exps[k]):
		p.renamed(cmd) // gone already
		p.l.confirm(p.n, j.db, true, j.exps[k])
		p.mu.Lock()
		p.stale = append(p.stale, tempKey{db: j.db, name: j.keys[k]})
		p.mu.Unlock()
		return nil
	case err != nil:
		return keyError(j.keys[k], p.addr, err)
	case f&flagLast != 0:
		if f&flagRename != 0 {
			p.renamed(cmd)
		}
		p.l.confirm(p.n, j.db, f&flagExpires != 0, j.exps[k])
	}
	return nil
}
