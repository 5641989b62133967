package loader

import (
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// Method names a way of sending the commands.
type Method string

// The methods.
const (
	// Sequential sends one command per round trip on one connection: the classic
	// single-client loop.
	Sequential Method = "sequential"
	// Parallel runs Workers goroutines, each with its own connection, sending
	// one command per round trip each; they share the records.
	Parallel Method = "parallel"
	// Pipeline sends Batch commands per round trip, on Workers connections that
	// share the key range.
	Pipeline Method = "pipeline"
	// Mass writes one raw RESP stream as fast as the socket takes it, while
	// the replies are read and counted concurrently, the way redis-cli --pipe
	// does. It uses one connection and no go-redis.
	Mass Method = "mass"
	// Restore sends each record as one RESTORE of its value serialized in the server's RDB
	// version (resp.Options.Restore), streamed as Mass streams its commands, on Workers
	// connections that take whole records in turn. A record larger than the server's
	// proto-max-bulk-len goes as Mass's commands. Without Options.Replace, a key the server
	// holds already stops the load.
	Restore Method = "restore"
	// Auto sends each record the way the server takes it fastest, on the raw connections of
	// Restore (auto.go): strings without an expiry as MSET of Batch keys (of one slot, into
	// a cluster), strings with one as SET … PXAT, every other record as RESTORE … REPLACE,
	// and as commands where RESTORE cannot go: a payload over the server's
	// proto-max-bulk-len, or a server that refuses RESTORE (or MSET) when probed.
	// Result.Auto counts the choices. Like the methods other than Restore, it replaces the
	// keys the server holds.
	Auto Method = "auto"
)

// Methods returns the methods, slowest first.
func Methods() []Method { return []Method{Sequential, Parallel, Pipeline, Mass, Restore, Auto} }

// Defaults of [Options].
const (
	DefaultAddr   = "127.0.0.1:6379"
	DefaultMethod = Auto
	DefaultBatch  = 1000
	// DefaultAutoBatch is Auto's keys per MSET.
	DefaultAutoBatch       = 1000
	DefaultParallelWorkers = 50
	DefaultDialTimeout     = 5 * time.Second
	DefaultTimeout         = 30 * time.Second
	// MaxWorkers bounds Workers: each worker holds a connection.
	MaxWorkers = 10000
	// MaxBatch bounds Batch: a batch's commands are held in memory.
	MaxBatch = 1 << 20
)

// ErrInvalidOption is wrapped by the errors [Load] returns for bad options.
var ErrInvalidOption = errors.New("invalid loader option")

// Options configures [Load]. The zero value loads into 127.0.0.1:6379 with
// the auto method.
type Options struct {
	// Addr is the server's "host:port". Default: "127.0.0.1:6379".
	Addr string
	// Cluster makes Addr a seed of a Redis Cluster: each record goes to the primary that
	// owns its key's slot, as CLUSTER SLOTS tells. Default: false.
	Cluster bool
	// Shard, when not nil, makes a load into a cluster load one shard alone, as one process
	// of many that each load their own (a pod of a Kubernetes Indexed Job): the records
	// whose keys the primary numbered *Shard owns, primaries numbered by their first slot
	// as cluster.ParseLayout numbers them, sent to that primary; the others are read and
	// left out, and Result counts the shard's keys. Default: nil, every record.
	Shard *int
	// Shards is the number of shards, and so of processes, the job that loads Shard has: a
	// cluster with another number of primaries is an error, since the primaries no process
	// is numbered for would get nothing. It goes with Shard, which needs it.
	Shards int
	// Username and Password authenticate with AUTH (or HELLO) when Password
	// is set. Default: none.
	Username, Password string
	// TLSConfig, when not nil, makes every connection TLS. Default: nil.
	TLSConfig *tls.Config

	// Method chooses how the commands are sent. Default: Auto.
	Method Method
	// Workers is the number of connections, each driven by its own
	// goroutine. Default: 50 for Parallel, 1 otherwise. Sequential and Mass
	// use exactly one.
	Workers int
	// Batch is the number of commands per round trip of Pipeline (default 1000), or the
	// keys per MSET of Auto (default DefaultAutoBatch). Other methods take no batch.
	Batch int
	// Expiry chooses PXAT or PX for records with an expiry.
	// Default: resp.ExpiryAbsolute.
	Expiry resp.Expiry
	// DropLostPending rebuilds every stream with commands, without the pending entries
	// whose entry was deleted (and, before Redis 6.2, the consumers without pending
	// entries), counted in Result.Streams. Default: false, such a stream is sent as
	// RESTORE, and one whose payload passes the server's proto-max-bulk-len stops the load
	// with an error wrapping resp.ErrLostPending.
	DropLostPending bool
	// DropFieldTTL loads, into a server before 7.4, the hashes whose fields expire without
	// the field TTLs (resp.Options.DropFieldTTL); the input's fields already expired are
	// left out (OpenInput's dropFieldTTL). Default off: such a hash is an error.
	DropFieldTTL bool
	// SkipUnsupported leaves out the keys the server cannot hold (streams and module values
	// before Redis 5.0, hashes with field TTLs before 7.4 unless DropFieldTTL), counted in
	// Result.Unsupported. Default: false, such a key is an error naming it.
	SkipUnsupported bool

	// DialTimeout bounds connecting and authenticating. Default: 5 s.
	DialTimeout time.Duration
	// Timeout bounds each wait for the server: a reply, or room in the
	// socket to write. Default: 30 s.
	Timeout time.Duration

	// ReplaceFunctions loads function libraries with FUNCTION LOAD REPLACE, replacing a
	// library of the same name the server has. Default: false, such a library is an error
	// naming it.
	ReplaceFunctions bool

	// Replace makes Restore replace the keys the server holds (RESTORE … REPLACE). Default:
	// false, a key the server holds stops the load with an error naming it. The other
	// methods always replace.
	Replace bool

	// DropModuleAux leaves module AUX data (a module's data beside the keys) out, counted in
	// Result.ModuleAuxDropped: no command puts it into a server. Default: false, such data
	// is an error naming its module.
	DropModuleAux bool

	// MapDB, if not nil, gives the database that each database of the source loads into
	// (into a cluster: 0). It is called as each one begins, before any of its keys is
	// sent; its error stops the load there. Default: nil, each database loads into itself.
	MapDB func(db int) (int, error)

	// Progress, if not nil, is called about ten times a second while keys
	// are being sent, and once at the end, never concurrently.
	// Default: nil.
	Progress func(record.Progress)
}

// withDefaults returns o with its zero fields set to their defaults, or an
// error naming the first field out of range.
func (o Options) withDefaults() (Options, error) {
	bad := func(format string, args ...any) (Options, error) {
		return o, fmt.Errorf("%w: %s", ErrInvalidOption, fmt.Sprintf(format, args...))
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.Method == "" {
		o.Method = DefaultMethod
	}
	if o.Expiry == "" {
		o.Expiry = resp.ExpiryAbsolute
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return bad("workers %d out of range (1 to %d)", o.Workers, MaxWorkers)
	}
	if o.Batch < 0 || o.Batch > MaxBatch {
		return bad("batch %d out of range (1 to %d)", o.Batch, MaxBatch)
	}
	if o.Shard != nil && (!o.Cluster || *o.Shard < 0) {
		return bad("shard %d: one shard of a cluster's primaries, numbered from 0, goes with Cluster", *o.Shard)
	}
	if (o.Shard == nil) != (o.Shards == 0) || o.Shards < 0 || o.Shard != nil && *o.Shard >= o.Shards {
		return bad("shard %v of %d shards: a shard index goes with a count of shards above it", o.Shard, o.Shards)
	}
	switch o.Method {
	case Sequential, Mass:
		if o.Workers > 1 {
			return bad("%s uses one connection, not %d workers (use parallel or pipeline)", o.Method, o.Workers)
		}
		o.Workers = 1
	case Parallel:
		if o.Workers == 0 {
			o.Workers = DefaultParallelWorkers
		}
	case Pipeline:
		if o.Workers == 0 {
			o.Workers = 1
		}
		if o.Batch == 0 {
			o.Batch = DefaultBatch
		}
	case Restore:
		if o.Workers == 0 {
			o.Workers = 1
		}
	case Auto:
		if o.Workers == 0 {
			o.Workers = 1
		}
		if o.Batch == 0 {
			o.Batch = DefaultAutoBatch
		}
	default:
		return bad("method %q (known: sequential, parallel, pipeline, mass, restore, auto)", o.Method)
	}
	if o.Replace && o.Method != Restore {
		return bad("replace goes with restore; %s replaces keys always", o.Method)
	}
	if o.Method != Pipeline && o.Method != Auto {
		if o.Batch > 1 {
			return bad("%s sends no batches (batch %d goes with pipeline or auto)", o.Method, o.Batch)
		}
		o.Batch = 1
	}
	switch o.Expiry {
	case resp.ExpiryAbsolute, resp.ExpiryRelative:
	default:
		return bad("expiry %q (known: pxat, px)", o.Expiry)
	}
	return o, nil
}
