// Package live reads the data of a running Redis server as a record.Source, in
// one of two ways:
//
//   - Sync (the default) connects as a replica (REPLCONF, then PSYNC ? -1, or SYNC
//     for servers that know no PSYNC) and streams the RDB snapshot the server sends,
//     in its $<length> form or its diskless $EOF:<mark> form, straight into the RDB
//     reader: no temporary file, memory bounded by the reader's buffers. It is a
//     point-in-time snapshot of every database and the function libraries.
//   - Scan walks each database with SCAN and fetches each key's DUMP payload and
//     expiry, pipelined, and decodes each payload with the RDB reader; function
//     libraries come from FUNCTION LIST WITHCODE. It is not a point-in-time
//     snapshot: a key written during the walk may be read before or after the
//     write, or, if it is created or deleted then, be missing or present. It
//     serves servers that refuse replication (managed services); Sync falls back to
//     it when the server refuses SYNC and PSYNC, and says so through
//     Options.Notice.
//
// Source.Snapshot gives the RDB stream of a sync itself, for readers that take a
// file as a stream (inspect).
//
// A ClusterSource (OpenCluster) reads every primary of a Redis Cluster, several at a time,
// each as a Source does, into one sink.
//
// Connections go through go-redis (AUTH with the URL's user and password, TLS
// for rediss://). The package prints nothing: progress and notices go through
// callbacks.
package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// Via is the way a Source reads a server.
type Via string

// The ways.
const (
	Sync Via = "sync" // as a replica: a point-in-time snapshot
	Scan Via = "scan" // SCAN and DUMP: not a point-in-time snapshot
)

// Options configure a Source. The zero value reads with Sync over plain TCP.
type Options struct {
	// Via is Sync (the default, "") or Scan. Sync falls back to Scan when the
	// server refuses replication, and says so through Notice.
	Via Via
	// TLS names the files of a rediss:// connection.
	TLS TLS
	// Timeout bounds the dial and each wait for the server; default 60 s (the
	// server's own repl-timeout): a server preparing its snapshot sends a newline
	// every second.
	Timeout time.Duration
	// Decoder configures the RDB reader (MaxHeldBytes, say). OnDuplicate does not
	// apply: a server holds each key once.
	Decoder decoder.Options
	// Progress, if set, is called as the reading goes: payload bytes (and the
	// keys so far) for Sync, keys for Scan.
	Progress func(record.Progress)
	// Notice, if set, receives one-line messages for a person: the fallback
	// from Sync to Scan, that a Scan is not a point-in-time snapshot, and that it
	// counted as an access to every key (a server without CLIENT NO-TOUCH), and that
	// the server is a node of a Redis Cluster read alone (not through OpenCluster).
	Notice func(string)
	// Password is the password for AUTH when the URL has none ($REDISCLI_AUTH, a
	// password file); a URL with a password as well is an error wrapping ErrBadOption.
	Password string
	// Match, if set, is the glob a Scan passes to SCAN MATCH: keys outside it are
	// neither listed nor dumped. Sync reads every key regardless. A Scan limits itself
	// to the keys its user may read by itself (ACL GETUSER: Source.KeyPatterns); Match
	// serves a user who may not run ACL GETUSER.
	Match string
	// DropFunctions makes a Scan leave the function libraries out without asking for
	// them (a user without FUNCTION LIST); a Sync's stream holds them regardless.
	DropFunctions bool
}

// A Source is a live server as a record.Source. Each WriteTo reads the server
// afresh; one at a time.
type Source struct {
	addr    Address
	opts    Options
	stats   decoder.Stats
	touched bool // the last Scan counted as an access to every key
	primary bool // one primary of a ClusterSource, which reads the others too
	// patterns are the key patterns the user may read that limited the last Scan, nil
	// for none; outside counts the keys listed outside them.
	patterns []string
	outside  uint64
}

// Open checks url and opts and returns a Source for the server; it does not
// connect yet. The URL's database, if any, restricts the records to that
// database (keeping its number); without one, every database is read.
func Open(url string, opts Options) (*Source, error) {
	a, err := ParseURL(url)
	if err != nil {
		return nil, err
	}
	switch opts.Via {
	case "", Sync, Scan:
	default:
		return nil, fmt.Errorf("%w: via %q (known: sync, scan)", ErrBadOption, opts.Via)
	}
	if opts.Decoder.OnDuplicate != "" {
		return nil, fmt.Errorf("%w: OnDuplicate: a server holds each key once", ErrBadOption)
	}
	if opts.Timeout == 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.Password != "" {
		if a.Password != "" {
			return nil, fmt.Errorf("%w: %s has a password in the URL and another is given ($REDISCLI_AUTH or a password file): give one", ErrBadOption, a)
		}
		a.Password = opts.Password
	}
	if _, err := a.clientOptions(0, opts.TLS, opts.Timeout); err != nil {
		return nil, err
	}
	return &Source{addr: a, opts: opts}, nil
}

// Address returns the server's address.
func (s *Source) Address() Address { return s.addr }

// Via returns the way the Source reads the server: Sync, or Scan.
func (s *Source) Via() Via {
	if s.opts.Via == "" {
		return Sync
	}
	return s.opts.Via
}

// Touched reports whether the last WriteTo read the server with SCAN and DUMP without
// CLIENT NO-TOUCH (a server before Redis 7.2, or a user not allowed it): every key's LRU
// idle time was reset, or an access counted in its LFU counter.
func (s *Source) Touched() bool { return s.touched }

// KeyPatterns returns the key patterns of the user (ACL GETUSER) that limited the last
// WriteTo, a Scan, to the keys it may read; nil when it read every key the scan listed.
func (s *Source) KeyPatterns() []string { return s.patterns }

// Outside returns the number of keys the last Scan listed and left out, as the user's key
// patterns do not cover them.
func (s *Source) Outside() uint64 { return s.outside }

// Stats returns what the RDB reader saw in the last WriteTo, as far as it got: the
// records and the module values and AUX data per module (a scan reads each key's payload
// with a reader of its own: its Bytes are not counted).
func (s *Source) Stats() decoder.Stats { return s.stats }

// WriteTo reads the server's records into sink: with Sync, falling back to Scan
// when the server refuses replication.
func (s *Source) WriteTo(ctx context.Context, sink record.Sink) error {
	s.stats, s.touched, s.patterns, s.outside = decoder.Stats{}, false, nil, 0
	s.clusterNotice(ctx)
	if s.addr.DB >= 0 {
		sink = newOneDB(sink, s.addr.DB)
	}
	if s.opts.Via == Scan {
		s.notice("reading %s with SCAN and DUMP: not a point-in-time snapshot", s.addr)
		return s.scan(ctx, sink)
	}
	err := s.sync(ctx, sink)
	if errors.Is(err, ErrRefused) {
		s.notice("%s: %v; reading with SCAN and DUMP instead: not a point-in-time snapshot", s.addr, err)
		return s.scan(ctx, sink)
	}
	return err
}

// clusterNotice says, through Notice, that the server is a node of a Redis Cluster read
// alone: its own keys, not the cluster's (OpenCluster reads every primary). A server that
// does not answer INFO cluster (a user not allowed INFO) gets no notice.
func (s *Source) clusterNotice(ctx context.Context) {
	if s.primary || s.opts.Notice == nil {
		return
	}
	c, err := s.client(0)
	if err != nil {
		return
	}
	defer c.Close()
	info, err := c.Info(ctx, "cluster").Result()
	if err == nil && strings.Contains(info, "cluster_enabled:1") {
		s.notice("%s is a node of a Redis Cluster: reading its own keys alone (--cluster reads every primary)", s.addr)
	}
}

func (s *Source) notice(format string, args ...any) {
	if s.opts.Notice != nil {
		s.opts.Notice(fmt.Sprintf(format, args...))
	}
}

// oneDB passes on the records of one database and drops the others'.
type oneDB struct {
	*record.Gate
	db   int
	here bool // the open database is db
}

func newOneDB(next record.Sink, db int) *oneDB {
	o := &oneDB{db: db}
	o.Gate = &record.Gate{Pass: record.Pass{Next: next}, Keep: func(*record.Header) (bool, error) { return o.here, nil }}
	return o
}

// BeginDB passes db on if it is the one kept.
func (o *oneDB) BeginDB(db int, c record.Counts) error {
	if o.here = db == o.db; !o.here {
		return nil
	}
	return o.Next.BeginDB(db, c)
}

var _ record.Source = (*Source)(nil)
