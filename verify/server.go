package verify

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/rdbgen/rdbgen/record"
)

// ErrNoManifest is returned by [Server] without [Options.Manifest]: there is nothing to
// compare a live server with.
var ErrNoManifest = errors.New("verify: no manifest to compare the server with")

// A pipeline reads sampleBatch records, or fewer when they hold maxBatchMembers members.
const (
	sampleBatch     = 100
	maxBatchMembers = 100_000
)

// Server checks the live server that ro connects to against opts.Manifest, which it
// needs: DBSIZE and INFO keyspace must equal the manifest's counts, sampled records must
// hold their type, value and TTL, and the keys just outside the dataset must be absent.
// ro's DB is ignored: each database is read through a client of its own. The returned
// error means the server could not be checked; differences are in the Report.
func Server(ctx context.Context, ro *redis.Options, opts Options) (*Report, error) {
	if opts.Manifest == nil {
		return nil, ErrNoManifest
	}
	e, err := newExpectation(opts.Manifest)
	if err != nil {
		return nil, err
	}
	ms := opts.newMismatches()
	sr, err := checkServer(ctx, ro, e, opts, ms)
	if err != nil {
		return nil, err
	}
	rep := &Report{Server: sr}
	ms.finish(rep)
	return rep, nil
}

// checkServer runs the server stage against e, adding what differs to ms.
func checkServer(ctx context.Context, ro *redis.Options, e expectation, opts Options, ms *mismatches) (*ServerReport, error) {
	start := time.Now()
	clients := &dbClients{opts: ro, clients: map[int]*redis.Client{}}
	defer clients.close()
	if err := reachable(ctx, ro); err != nil {
		return nil, err
	}
	sr := &ServerReport{Addr: ro.Addr, SampleSeed: opts.SampleSeed}
	defer func() { sr.Seconds = time.Since(start).Seconds() }()
	fail := func(what, got, want string) {
		ms.add(Mismatch{Stage: StageServer, What: what, Got: got, Want: want})
	}
	c := clients.get(0)

	info, err := c.Info(ctx, "server").Result()
	if err != nil {
		return nil, fmt.Errorf("INFO server on %s: %w", ro.Addr, err)
	}
	sr.Version = infoField(info, "redis_version")
	if info, err = c.Info(ctx, "memory").Result(); err != nil {
		return nil, fmt.Errorf("INFO memory on %s: %w", ro.Addr, err)
	}
	sr.UsedMemory, _ = strconv.ParseInt(infoField(info, "used_memory"), 10, 64)

	if e.firstExpiry > 0 && e.firstExpiry <= time.Now().UnixMilli() {
		fail("expired", fmt.Sprintf("the keys expire from %s, which has passed: Redis drops expired keys, "+
			"so counts and samples cannot match (generate the file again)", formatMS(e.firstExpiry)), "")
	}
	if info, err = c.Info(ctx, "keyspace").Result(); err != nil {
		return nil, fmt.Errorf("INFO keyspace on %s: %w", ro.Addr, err)
	}
	if sr.DBs, err = parseKeyspace(info); err != nil {
		return nil, err
	}
	for _, n := range sr.DBs {
		sr.Keys += n.Keys
		sr.Expires += n.Expires
	}
	if e.live != nil {
		// The counts are read now and within a second: keys expiring until then may be gone.
		e.dbs, e.lapse = e.live.at(time.Now().Add(ttlSlack).UnixMilli())
	}
	compareDBs(sr.DBs, e, fail)
	for _, db := range slices.Sorted(maps.Keys(e.dbs)) {
		n, err := clients.get(db).DBSize(ctx).Result()
		if err != nil {
			return nil, fmt.Errorf("DBSIZE of db %d: %w", db, err)
		}
		if want := e.dbs[db].Keys; !e.within(db, uint64(n), want) {
			fail(fmt.Sprintf("DBSIZE of db %d", db), fmt.Sprint(n), e.want(db, want))
		}
	}

	if err := sampleRecords(ctx, clients, e, opts, sr, ms); err != nil {
		return nil, err
	}
	if err := checkAbsent(ctx, clients, e.absent, "outside the dataset", sr, ms); err != nil {
		return nil, err
	}
	return sr, nil
}

// checkAbsent checks that the keys of rs do not exist, in one pipeline per database; why
// says why they must not.
func checkAbsent(ctx context.Context, rd reader, rs []record.Record, why string, sr *ServerReport, ms *mismatches) error {
	pipes := map[int]redis.Pipeliner{}
	cmds := make([]*redis.IntCmd, len(rs))
	for i, r := range rs {
		if pipes[r.DB] == nil {
			pipes[r.DB] = rd.pipeline(r.DB)
		}
		cmds[i] = pipes[r.DB].Exists(ctx, string(r.Key))
	}
	for _, p := range pipes {
		if _, err := p.Exec(ctx); err != nil {
			return fmt.Errorf("EXISTS: %w", err)
		}
	}
	for i, r := range rs {
		if cmds[i].Val() != 0 {
			ms.add(Mismatch{Stage: StageServer, DB: r.DB, Key: string(r.Key), What: "exists", Got: "present", Want: "absent (" + why + ")"})
		}
	}
	sr.Absent += len(rs)
	return nil
}

// sampleRecords spot-checks the records that Sample picks in each part, in pipelines of a
// few records. Each part gets a share of the sample in proportion to its records. A record
// that e does not hold (one of another shard of a cluster dataset) must be absent.
func sampleRecords(ctx context.Context, rd reader, e expectation, opts Options, sr *ServerReport, ms *mismatches) error {
	n := uint64(opts.sampleSize())
	var all uint64
	for _, p := range e.parts {
		all += p.count
	}
	shares := make([]uint64, len(e.parts))
	var total int64
	for k, p := range e.parts {
		if n > 0 && p.count > 0 {
			shares[k] = uint64(math.Ceil(float64(n) * float64(p.count) / float64(all)))
		}
		total += int64(sampleLen(p.count, shares[k]))
	}

	var batch, elsewhere []record.Record
	members := 0
	flush := func() error {
		if err := checkRecords(ctx, rd, batch, ms); err != nil {
			return err
		}
		if err := checkAbsent(ctx, rd, elsewhere, "in another shard's slots", sr, ms); err != nil {
			return err
		}
		sr.Sampled += len(batch)
		batch, elsewhere, members = batch[:0], elsewhere[:0], 0
		opts.progress(record.Progress{Stage: string(StageServer), Keys: uint64(sr.Sampled + sr.Absent), Total: uint64(total)})
		return nil
	}
	for k, p := range e.parts {
		for i := range Sample(p.count, shares[k], opts.SampleSeed) {
			r, err := p.record(i)
			if err != nil {
				return fmt.Errorf("recompute record %d%s: %w", i, p.label(), err)
			}
			if e.holds(r.Key) {
				batch = append(batch, r)
				members += len(r.Members)
			} else {
				elsewhere = append(elsewhere, record.Record{DB: r.DB, Key: r.Key})
			}
			if len(batch)+len(elsewhere) == sampleBatch || members >= maxBatchMembers {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if len(batch)+len(elsewhere) > 0 {
		return flush()
	}
	return nil
}

// label names a part in messages: " of family NAME", or "" for a dataset.
func (p part) label() string {
	if p.name == "" {
		return ""
	}
	return " of family " + p.name
}

// dbClients holds a client per database of one server.
type dbClients struct {
	opts    *redis.Options
	clients map[int]*redis.Client
}

// get returns the client of database db, made on first use. Its options are the caller's,
// with maintenance notifications off: go-redis would log the refusal of a server that does
// not know them, and this package never prints.
func (d *dbClients) get(db int) *redis.Client {
	if c := d.clients[db]; c != nil {
		return c
	}
	o := *d.opts
	o.DB = db
	if o.MaintNotificationsConfig == nil {
		o.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	}
	c := redis.NewClient(&o)
	d.clients[db] = c
	return c
}

// A reader gives the pipelines that read keys: of a database of one server (dbClients), or
// of a cluster, which holds database 0 only (clusterReader).
type reader interface {
	pipeline(db int) redis.Pipeliner
}

func (d *dbClients) pipeline(db int) redis.Pipeliner { return d.get(db).Pipeline() }

func (d *dbClients) close() {
	for _, c := range d.clients {
		c.Close()
	}
}

// reachable checks that the server's address accepts connections, before go-redis dials it:
// go-redis logs every failed dial, and this package never prints.
func reachable(ctx context.Context, ro *redis.Options) error {
	timeout := ro.DialTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	network := ro.Network
	if network == "" {
		network = "tcp"
	}
	dial := (&net.Dialer{}).DialContext
	if ro.Dialer != nil {
		dial = ro.Dialer
	}
	conn, err := dial(ctx, network, ro.Addr)
	if err != nil {
		return fmt.Errorf("connect to redis at %s: %w", ro.Addr, err)
	}
	return conn.Close()
}
