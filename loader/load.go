// Package loader puts records into a live Redis through a client, the ways people
// usually do it: one command per round trip, many connections, pipelines, or a raw RESP
// stream like redis-cli --pipe, one RESTORE per key; and, by default, each key the way the
// server takes it fastest (Auto: MSET, SET, RESTORE). rdbgen's bench compares these with the
// snapshot path.
//
// Any record.Source loads: the generated dataset, a spec file, an import. Its records
// become the commands of package resp (SET, HSET, RPUSH, SADD, ZADD, XADD…, each
// collection split into commands of bounded size, PEXPIREAT for expiries), so a loaded
// server and a server started on an RDB file of the same source hold the same data, and
// loading the same source again gives the same data again. A key of more than one command
// is built under a temporary name and renamed onto the key once the rest of it is
// confirmed (resp.Options.Atomic, temp.go): no reader sees it half built, and a load that
// stops leaves no part of it.
//
// The package never prints: progress goes to [Options.Progress].
package loader

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// Result summarises a finished load.
type Result struct {
	Method  Method
	Workers int // connections used (per node, into a cluster)
	Batch   int // commands per round trip
	// Keys is the number of keys the server confirmed, and Expires the number of them
	// sent with an expiry. A collection counts once all its commands are confirmed.
	record.Counts
	// Expired is the number of records whose expiry had passed when the server confirmed
	// them: the server holds none of them (Redis drops such keys when it loads a file too),
	// and Keys does not count them.
	Expired uint64
	// Duration runs from the first command to the last reply; connecting
	// and authenticating come before it.
	Duration time.Duration
	// Functions is the number of function libraries loaded (into every primary of a
	// cluster), before the keys that follow them.
	Functions uint64
	// Nodes holds, for a cluster load, the counts of each primary by address.
	Nodes map[string]record.Counts
	// Streams counts the streams sent as RESTORE, since commands could not rebuild them,
	// what Options.DropLostPending left out, and the consumers made by commands.
	Streams resp.StreamCounts
	// Restore counts, for the Restore method, the records sent as commands since their
	// payloads would pass the server's proto-max-bulk-len.
	Restore resp.RestoreCounts
	// DBs holds the keys confirmed (Expired apart) in each database they went to.
	DBs map[int]record.Counts
	// ModuleAuxDropped counts the module AUX records left out under Options.DropModuleAux.
	ModuleAuxDropped uint64
	// Unsupported counts the keys left out under Options.SkipUnsupported.
	Unsupported uint64
	// Auto counts how the Auto method sent the records; zero for the other methods.
	Auto AutoCounts
}

// Error is the error of a load that stopped before the server confirmed
// every key: an unreachable server, a refused password, an error reply, a
// lost connection or a cancelled context. Keys past Confirmed may have been
// set too: a command sent but not answered may or may not have been applied.
type Error struct {
	Addr      string
	Cluster   bool   // Addr is the seed of a cluster (Options.Cluster)
	Confirmed uint64 // keys the server confirmed
	Total     uint64 // keys of the source, 0 when it does not know
	Err       error  // what stopped the load
}

// Error tells where the load went, how far it got, and what stopped it.
func (e *Error) Error() string {
	if e.Total == 0 {
		return fmt.Sprintf("load into %s stopped with %d keys confirmed: %v", e.where(), e.Confirmed, e.Err)
	}
	return fmt.Sprintf("load into %s stopped with %d of %d keys confirmed: %v", e.where(), e.Confirmed, e.Total, e.Err)
}

// where names the server the load went into: Addr, or the cluster Addr is a node of.
func (e *Error) where() string {
	if e.Cluster {
		return "the cluster of " + e.Addr
	}
	return e.Addr
}

// Unwrap returns what stopped the load, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// errStopped stops a source once a connection has failed; the failure is reported.
var errStopped = errors.New("load stopped")

// Load sends the records of src to the server, the way opts.Method says, and returns
// once the server has answered every command. On failure it returns an [*Error] that
// tells how many keys the server confirmed. It stops when ctx is cancelled.
func Load(ctx context.Context, src record.Source, opts Options) (Result, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return Result{}, err
	}
	if v, ok := src.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil { // before anything is dialled
			return Result{}, err
		}
	}
	l := &load{o: o, src: src}
	sizer, sized := src.(record.Sizer)
	sized = sized && o.Shard == nil // a shard's keys are known once read: l.cluster checks them
	if sized {
		l.total = sizer.Len()
	}
	stopReports := l.report()
	var took time.Duration
	var nodes map[string]record.Counts
	if o.Cluster {
		took, nodes, err = l.cluster(ctx)
	} else {
		took, err = l.single(ctx)
	}
	stopReports()
	res := Result{Method: o.Method, Workers: o.Workers, Batch: o.Batch, Duration: took, Nodes: nodes,
		Counts: record.Counts{Keys: l.confirmed.Load(), Expires: l.expires.Load()}, Expired: l.expired.Load(), DBs: l.dbCounts(),
		Streams: l.streams, Restore: l.restore}
	res.Unsupported = l.unsupported
	l.mu.Lock()
	res.Auto = l.auto
	l.mu.Unlock()
	if err == nil && sized && res.Keys+res.Expired+res.Unsupported != l.total {
		err = fmt.Errorf("the server confirmed %d keys (and %d expired, %d left out), want %d", res.Keys, res.Expired, res.Unsupported, l.total)
	}
	res.Functions, res.ModuleAuxDropped = l.functions, l.moduleAuxDropped
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr // "context canceled" says it all; a dead connection is its consequence
		}
		return res, &Error{Addr: o.Addr, Cluster: o.Cluster, Confirmed: res.Keys, Total: l.total, Err: err}
	}
	return res, nil
}

// load is one run of Load.
type load struct {
	o     Options
	src   record.Source
	total uint64
	// functions counts the function libraries loaded, by the source's goroutine.
	functions uint64
	// moduleAuxDropped counts the module AUX records left out, by the source's goroutine.
	moduleAuxDropped uint64
	// unsupported counts the keys left out under Options.SkipUnsupported, by the source's
	// goroutine.
	unsupported uint64
	// streams counts what the streams needed, over all nodes.
	streams   resp.StreamCounts
	restore   resp.RestoreCounts
	streamsMu sync.Mutex
	// confirmed and expires count the keys confirmed, over all connections and nodes, and
	// expired the records confirmed after their expiry.
	confirmed, expires, expired atomic.Uint64
	// low and high count the keys confirmed in each database: the usual 16 without a lock.
	low  [16]dbCounts
	mu   sync.Mutex
	high map[int]*dbCounts
	// caps holds what each server takes, for the Auto method, and auto counts its choices;
	// both under mu.
	caps map[string]autoCaps
	auto AutoCounts
}

// dbCounts counts the keys confirmed in one database.
type dbCounts struct {
	keys, expires atomic.Uint64
}

// db returns the counts of database db.
func (l *load) db(db int) *dbCounts {
	if db >= 0 && db < len(l.low) {
		return &l.low[db]
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n, ok := l.high[db]
	if !ok {
		if l.high == nil {
			l.high = map[int]*dbCounts{}
		}
		n = &dbCounts{}
		l.high[db] = n
	}
	return n
}

// dbCounts returns the keys confirmed in each database that has any.
func (l *load) dbCounts() map[int]record.Counts {
	dbs := map[int]record.Counts{}
	add := func(db int, n *dbCounts) {
		if k := n.keys.Load(); k > 0 {
			dbs[db] = record.Counts{Keys: k, Expires: n.expires.Load()}
		}
	}
	for db := range l.low {
		add(db, &l.low[db])
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for db, n := range l.high {
		add(db, n)
	}
	return dbs
}

// A conduit takes the commands of one server, from the goroutine that runs the source,
// and sends them.
type conduit interface {
	// emit takes one command; it returns errStopped once the conduit has failed.
	emit(cmd *resp.Command) error
	// finish sends what is left, waits for every reply, and returns the first failure.
	finish() error
	// close releases the connections.
	close()
}

// single loads into one server.
func (l *load) single(ctx context.Context) (time.Duration, error) {
	version, err := l.probe(ctx, l.o.Addr)
	if err != nil {
		return 0, err
	}
	if l.o.Method == Auto {
		if err := l.probeAuto(ctx, l.o.Addr, 0, version); err != nil {
			return 0, err
		}
	}
	c, err := l.open(ctx, l.o.Addr, &nodeCounts{})
	if err != nil {
		return 0, err
	}
	defer c.close()
	cmds, watch, err := l.commands(ctx, c.emit, l.o.Addr, version)
	if err != nil {
		return 0, err
	}
	defer l.addStreams(cmds)
	var sink record.Sink = cmds
	if l.o.MapDB != nil {
		sink = mappedCommands{cmds, l.o.MapDB}
	}
	start := time.Now()
	err = l.src.WriteTo(ctx, l.withFunctions(ctx, l.skipUnsupported(sink, version), version, []string{l.o.Addr}))
	failed := c.finish() // the last replies are in the time
	return time.Since(start), explainBulk(l.end(failed, err), watch)
}

// mappedCommands are commands whose databases Options.MapDB moves.
type mappedCommands struct {
	*resp.Commands
	mapDB func(int) (int, error)
}

// BeginDB begins the database that db maps to.
func (m mappedCommands) BeginDB(db int, info record.Counts) error {
	to, err := m.mapDB(db)
	if err != nil {
		return err
	}
	return m.Commands.BeginDB(to, info)
}

// end returns the error of a load: the conduit's failure explains more than the source's
// errStopped.
func (l *load) end(failed, srcErr error) error {
	if errors.Is(failed, errUnfinished) && srcErr != nil && !errors.Is(srcErr, errStopped) {
		// The source stopped mid-record and said why; what the clean-up left, if anything,
		// follows its reason.
		return fmt.Errorf("%w%s", srcErr, strings.TrimPrefix(failed.Error(), errUnfinished.Error()))
	}
	if failed != nil {
		return failed
	}
	if errors.Is(srcErr, errStopped) {
		return errors.New("load stopped without a reason") // a conduit stops only on failure
	}
	return srcErr
}

// open returns the conduit of the method to addr.
func (l *load) open(ctx context.Context, addr string, n *nodeCounts) (conduit, error) {
	switch l.o.Method {
	case Mass:
		return l.openMass(ctx, addr, n)
	case Restore, Auto:
		return l.openRestore(ctx, addr, n)
	}
	return l.openPool(ctx, addr, n)
}

// nodeCounts counts the keys one server confirmed.
type nodeCounts struct {
	keys, expires, expired atomic.Uint64
}

// confirm counts a record whose last command the server at n confirmed; expireAt is its
// expiry in Unix ms, 0 for none: a record confirmed after it counts as expired.
func (l *load) confirm(n *nodeCounts, db int, expires bool, expireAt int64) {
	if expireAt != 0 && expireAt <= time.Now().UnixMilli() {
		n.expired.Add(1)
		l.expired.Add(1)
		return
	}
	d := l.db(db)
	n.keys.Add(1)
	d.keys.Add(1)
	l.confirmed.Add(1)
	if expires {
		n.expires.Add(1)
		d.expires.Add(1)
		l.expires.Add(1)
	}
}

// confirmStrings counts n records without an expiry that one command confirmed.
func (l *load) confirmStrings(n *nodeCounts, db int, keys uint64) {
	n.keys.Add(keys)
	l.db(db).keys.Add(keys)
	l.confirmed.Add(keys)
}

// reportEvery is the time between progress reports.
const reportEvery = 100 * time.Millisecond

// report calls the progress callback on a ticker until the returned function
// is called, which reports one last time.
func (l *load) report() (stop func()) {
	if l.o.Progress == nil {
		return func() {}
	}
	progress := func() { l.o.Progress(record.Progress{Keys: l.confirmed.Load(), Total: l.total}) }
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

// dial connects to addr, without TLS, within the dial timeout.
func (l *load) dial(ctx context.Context, addr string) (net.Conn, error) {
	dialer := net.Dialer{Timeout: l.o.DialTimeout}
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// probe connects to addr, authenticates, and returns the server's version, so that the
// commands suit it. go-redis logs a failed dial on the process's standard error, and a
// package must not print: the probe also finds an unreachable server first.
func (l *load) probe(ctx context.Context, addr string) (resp.Version, error) {
	conn, err := l.connect(ctx, addr)
	if err != nil {
		return resp.Version{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(l.o.DialTimeout))
	r := bufio.NewReader(conn)
	cmds := l.authCommand(nil)
	cmds = resp.AppendCommand(cmds, []byte("INFO"), []byte("server"))
	if _, err := conn.Write(cmds); err != nil {
		return resp.Version{}, fmt.Errorf("connect: %w", err)
	}
	if l.o.Password != "" {
		if err := resp.ExpectStatus(r, "OK"); err != nil {
			return resp.Version{}, fmt.Errorf("connect: %w", err)
		}
	}
	kind, text, err := resp.ReadReply(r)
	switch {
	case err != nil:
		return resp.Version{}, fmt.Errorf("connect: %w", err)
	case kind == '-':
		return resp.Version{}, fmt.Errorf("connect: %w", resp.ReplyError(text))
	}
	for line := range strings.Lines(string(text)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			return resp.ParseVersion(v)
		}
	}
	return resp.Version{}, nil // not Redis, or not saying: assume the newest
}

// authCommand appends AUTH, if a password is set.
func (l *load) authCommand(dst []byte) []byte {
	if l.o.Password == "" {
		return dst
	}
	if l.o.Username != "" {
		return resp.AppendCommand(dst, []byte("AUTH"), []byte(l.o.Username), []byte(l.o.Password))
	}
	return resp.AppendCommand(dst, []byte("AUTH"), []byte(l.o.Password))
}

// keyError is the error of a command of key (nil for SELECT) that addr failed with err.
func keyError(key []byte, addr string, err error) error {
	if msg := err.Error(); strings.HasPrefix(msg, "MOVED ") || strings.HasPrefix(msg, "ASK ") {
		return fmt.Errorf("write key %q: %s answered %w: the cluster's slots moved mid-load; load again once the resharding is over (redis-cli --cluster check reports no open slot)", key, addr, err)
	}
	if key == nil {
		return fmt.Errorf("select db: %w", err)
	}
	if strings.HasPrefix(err.Error(), "BUSYKEY") {
		return fmt.Errorf("write key %q: the server holds the key already (%w): replace it with --replace", key, err)
	}
	if strings.Contains(err.Error(), "Bad data format") {
		return fmt.Errorf("write key %q: %w (RESTORE of a module value fails so on a server without its module)", key, err)
	}
	return fmt.Errorf("write key %q: %w", key, err)
}
