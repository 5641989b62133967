// Package loader puts a dataset into a live Redis through a client, the ways
// people usually do it: one SET per round trip, many connections, pipelines,
// or a raw RESP stream like redis-cli --pipe. rdbgen's bench compares these
// with the snapshot path.
//
// The keys, values and expiries are those of the dataset package, the very
// records an RDB file written by rdbgen holds, so a loaded server and a server
// started on the file hold the same data.
//
// Every method sends SET key value [PXAT ms] into the dataset's database.
// Loading is idempotent: loading the same dataset again sets the same keys to
// the same values (and, with ExpiryAbsolute, the same expiries).
//
// The package never prints: progress goes to [Options.Progress].
package loader

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
)

// Progress tells how far a load has got.
type Progress struct {
	Keys  uint64 // keys the server has confirmed so far
	Total uint64 // keys in the dataset
}

// Result summarises a finished load.
type Result struct {
	Method  Method
	Workers int // connections used
	Batch   int // SETs per round trip
	// Keys is the number of keys the server confirmed, and Expires the number
	// of them sent with an expiry.
	Keys, Expires uint64
	// Duration runs from the first command to the last reply; connecting
	// and authenticating come before it.
	Duration time.Duration
}

// Error is the error of a load that stopped before the server confirmed
// every key: an unreachable server, a refused password, an error reply, a
// lost connection or a cancelled context. Keys past Confirmed may have been
// set too: a command sent but not answered may or may not have been applied.
type Error struct {
	Addr      string
	Confirmed uint64 // keys the server confirmed with OK
	Total     uint64 // keys in the dataset
	Err       error  // what stopped the load
}

// Error tells where the load went, how far it got, and what stopped it.
func (e *Error) Error() string {
	return fmt.Sprintf("load into %s stopped with %d of %d keys confirmed: %v", e.Addr, e.Confirmed, e.Total, e.Err)
}

// Unwrap returns what stopped the load, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Load sends the records of d to the server as SET commands into database
// d.DB, the way opts.Method says, and returns once the server has answered
// every command. On failure it returns an [*Error] that tells how many keys
// the server confirmed. It stops when ctx is cancelled.
func Load(ctx context.Context, d *dataset.Spec, opts Options) (Result, error) {
	if err := d.Validate(); err != nil {
		return Result{}, err
	}
	if !d.Type.IsString() {
		return Result{}, fmt.Errorf("%w: type %s: the loaders send strings only", ErrInvalidOption, d.Type)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return Result{}, err
	}
	l := &load{d: d, o: o}
	stopReports := l.report()
	var took time.Duration
	if o.Method == Mass {
		took, err = l.mass(ctx)
	} else {
		took, err = l.clients(ctx)
	}
	stopReports()
	res := Result{Method: o.Method, Workers: o.Workers, Batch: o.Batch, Keys: l.confirmed.Load(), Duration: took}
	if d.TTL > 0 {
		res.Expires = res.Keys
	}
	if err == nil && res.Keys != d.Count {
		err = fmt.Errorf("the server confirmed %d keys, want %d", res.Keys, d.Count)
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr // "context canceled" says it all; a dead connection is its consequence
		}
		return res, &Error{Addr: o.Addr, Confirmed: res.Keys, Total: d.Count, Err: err}
	}
	return res, nil
}

// load is one run of Load.
type load struct {
	d         *dataset.Spec
	o         Options
	confirmed atomic.Uint64
}

// reportEvery is the time between progress reports.
const reportEvery = 100 * time.Millisecond

// report calls the progress callback on a ticker until the returned function
// is called, which reports one last time.
func (l *load) report() (stop func()) {
	if l.o.Progress == nil {
		return func() {}
	}
	progress := func() { l.o.Progress(Progress{Keys: l.confirmed.Load(), Total: l.d.Count}) }
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(reportEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				progress()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		progress()
	}
}

// dial connects to the server, without TLS, within the dial timeout.
func (l *load) dial(ctx context.Context) (net.Conn, error) {
	dialer := net.Dialer{Timeout: l.o.DialTimeout}
	conn, err := dialer.DialContext(ctx, "tcp", l.o.Addr)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// expiryArgs returns the expiry option and value for a record that expires
// at at (Unix ms, never 0), as SET takes them.
func (l *load) expiryArgs(at int64) (string, int64) {
	if l.o.Expiry == ExpiryRelative {
		return "PX", max(at-time.Now().UnixMilli(), 1)
	}
	return "PXAT", at
}

// hint adds a hint to an error reply that a server older than 6.2 gives to
// SET … PXAT.
func (l *load) hint(err error) error {
	var reply redis.Error
	if l.o.Expiry == ExpiryAbsolute && l.d.TTL > 0 && errors.As(err, &reply) &&
		strings.HasPrefix(reply.Error(), "ERR syntax error") {
		return fmt.Errorf("%w (SET … PXAT needs Redis 6.2 or later: send relative expiries, PX, instead)", err)
	}
	return err
}
