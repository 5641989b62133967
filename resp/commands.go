// Package resp turns records into Redis commands: the commands a client sends to put the
// same data into a live server that an RDB file written by rdbgen holds.
//
// [Commands] is a record.Sink that hands each command to a function (the loaders send
// them to a server); [Writer] is a record.Sink that writes them as a RESP stream, which
// `redis-cli --pipe < data.resp` loads.
//
// A string is SET key value, with PXAT (or, for a server before 6.2, a PEXPIREAT after
// it) when it expires. A collection is first deleted, so that loading twice gives the
// same data, then filled with HSET (HMSET before 4.0), RPUSH, SADD or ZADD commands of
// bounded size, then given its expiry with PEXPIREAT. A stream is rebuilt with XADD of
// each entry under its own id, XSETID, XGROUP CREATE, XGROUP CREATECONSUMER and XCLAIM …
// FORCE JUSTID for the pending entries; a stream these cannot rebuild (a pending entry
// whose entry was deleted; before 6.2, a consumer without pending entries) is sent as
// RESTORE of a DUMP payload instead. Hash field TTLs are set with HPEXPIREAT (7.4+). A
// module value is RESTORE of its payload, and module AUX data has no command (module.go).
// Each database starts with SELECT.
package resp

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// Expiry chooses how an expiry is sent.
type Expiry string

// The expiry modes.
const (
	// ExpiryAbsolute sends the record's absolute expiry in Unix ms (SET … PXAT,
	// PEXPIREAT): the key gets exactly the expiry the RDB file would hold.
	ExpiryAbsolute Expiry = "pxat"
	// ExpiryRelative sends the milliseconds left until the expiry, computed when the
	// command is made (SET … PX, PEXPIRE); an expiry already past is sent as 1 ms, so
	// the key expires at once, as Redis drops an expired key when it loads a file.
	ExpiryRelative Expiry = "px"
)

// Defaults of [Options].
const (
	// DefaultMaxMembers bounds the members (hash fields, elements) of one command.
	DefaultMaxMembers = 1000
	// DefaultMaxBytes bounds the bytes of members of one command; a command holds at
	// least one member, however large.
	DefaultMaxBytes = 1 << 20
)

// ErrInvalidOption is wrapped by the errors of constructors given bad options.
var ErrInvalidOption = errors.New("invalid resp option")

// ErrServerTooOld is wrapped by the errors for records the server cannot hold, such as
// a hash field TTL for a server before 7.4.
var ErrServerTooOld = errors.New("not supported by the server")

// Options configures [NewCommands] and [NewWriter]. The zero value makes commands for the
// newest server, with absolute expiries and commands of at most 1000 members or 1 MiB.
type Options struct {
	// Server is the version of the server that will run the commands: before 4.0 hashes
	// use HMSET, before 6.2 a string's expiry is a PEXPIREAT after the SET, before 7.0
	// XSETID and XGROUP CREATE take no ENTRIESADDED, MAXDELETEDID or ENTRIESREAD. Default:
	// the zero Version, the newest server.
	Server Version
	// Expiry chooses absolute or relative expiries. Default: ExpiryAbsolute.
	Expiry Expiry
	// ReplaceFunctions sends function libraries with FUNCTION LOAD REPLACE, which replaces
	// a library of the same name the server has. Default: FUNCTION LOAD, which the server
	// refuses for a name it has.
	ReplaceFunctions bool
	// MaxMembers bounds the members of one command. Default: DefaultMaxMembers.
	MaxMembers int
	// MaxBytes bounds the bytes of the members of one command. Default: DefaultMaxBytes.
	MaxBytes int
	// Now, if not nil, gives the time relative expiries count from. Default: time.Now.
	Now func() time.Time
	// RDBVersion is the version of the RESTORE payloads of the streams that commands cannot
	// rebuild (stream_restore.go). Default: Server's (Version.RDBVersion).
	RDBVersion int
	// MaxPayload bounds a RESTORE payload, as the server's proto-max-bulk-len bounds an
	// argument; a stream that needs a larger one is an error wrapping ErrLostPending.
	// Default: DefaultMaxPayload.
	MaxPayload int64
	// DropLostPending rebuilds every stream with commands, without what they cannot
	// rebuild (pending entries whose entry was deleted; before 6.2, consumers without
	// pending entries), counted in StreamCounts. Default: false, such streams go as
	// RESTORE.
	DropLostPending bool
	// DropFieldTTL writes, for a server before 7.4, a hash whose fields expire as a plain
	// hash, without the field TTLs (drop the fields already expired before: see
	// filter.Options.DropExpiredFields); default off: such a hash is an error wrapping
	// ErrServerTooOld naming the key.
	DropFieldTTL bool
	// Atomic builds each record that takes more than one command under a temporary name
	// in the key's slot and renames it onto the key last (see [Command.Temp]), so that no
	// reader sees it half built and loading again still replaces the key; a record whose
	// expiry has passed is sent as DEL key. Default: false, each command names the key.
	Atomic bool
	// Restore sends every record as one RESTORE key ttl payload [ABSTTL] of a payload in
	// RDBVersion (restore.go), where the server needs no command per member; a record whose
	// payload would pass MaxPayload is sent as commands. It needs a server of Redis 5.0 or
	// later. Default: false, records go as commands.
	Restore bool
	// Replace adds REPLACE to the RESTORE of Options.Restore, which then replaces a key the
	// server holds. Default: false, the server refuses such a key (BUSYKEY).
	Replace bool
	// SetStrings sends, with Options.Restore, each string as SET (with its expiry) rather
	// than as RESTORE: a server takes a small string faster so. SET replaces the key the
	// server holds, so it goes with Replace. Default: false.
	SetStrings bool
	// DropModuleAux leaves module AUX data out, counted in ModuleCounts, where it would be an
	// error: no command carries it. Default: false.
	DropModuleAux bool
}

// withDefaults returns o with its defaults, or an error naming the bad field.
func (o Options) withDefaults() (Options, error) {
	if o.Expiry == "" {
		o.Expiry = ExpiryAbsolute
	}
	if o.Expiry != ExpiryAbsolute && o.Expiry != ExpiryRelative {
		return o, fmt.Errorf("%w: expiry %q (known: pxat, px)", ErrInvalidOption, o.Expiry)
	}
	if o.MaxMembers < 0 || o.MaxBytes < 0 {
		return o, fmt.Errorf("%w: max members %d and max bytes %d must not be negative", ErrInvalidOption, o.MaxMembers, o.MaxBytes)
	}
	if o.MaxMembers == 0 {
		o.MaxMembers = DefaultMaxMembers
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxPayload < 0 || o.RDBVersion < 0 {
		return o, fmt.Errorf("%w: max payload %d and RDB version %d must not be negative", ErrInvalidOption, o.MaxPayload, o.RDBVersion)
	}
	if o.MaxPayload == 0 {
		o.MaxPayload = DefaultMaxPayload
	}
	return o, nil
}

// A Command is one command. Its slices are valid only during the call that receives it.
type Command struct {
	// Args are the command's name and arguments.
	Args [][]byte
	// Key is the record's key; nil for SELECT and FUNCTION LOAD.
	Key []byte
	// DB is the database the command runs in.
	DB int
	// Last marks a record's last command: once it and the ones before succeed, the
	// record is complete. Expires tells, with Last, that the record has an expiry.
	Last, Expires bool
	// ExpireAtMS is, with Last, the record's expiry in Unix ms (0 for none): a record
	// confirmed after it is held by the server no more.
	ExpireAtMS int64
	// Temp is, with Options.Atomic, the temporary name that a record of more than one
	// command is built under: every command of the record writes Temp, the last one is
	// RENAME Temp Key. Until that one succeeds the key is untouched, and Temp may hold a
	// part of the record: the sender removes it if the record is not completed.
	Temp []byte
}

// Commands is a record.Sink that turns each record into commands and hands each to a
// function, in order. Its first error sticks: every later call returns it.
type Commands struct {
	o    Options
	emit func(*Command) error
	err  error

	cmd  Command  // the command being built
	args [][]byte // cmd.Args' backing array
	buf  []byte   // the bytes of the arguments

	// The open record.
	db       int
	key      []byte
	verb     string // the open collection's command, "" when none
	exp      int64
	members  int // members in the command being built
	memBytes int
	added    uint64  // members added to the open collection
	fieldTTL bool    // the open hash has field TTLs
	ttls     []int64 // the field TTLs of the command being built, one per member
	stream   *streamState
	zset     zsetState // the open sorted set's -0 scores (zset.go)

	payload *rdbsink.PayloadWriter // the open stream's payload, for RESTORE
	streams StreamCounts
	modules ModuleCounts
	atomic  atomicState
	rs      restoreState
}

var _ record.Sink = (*Commands)(nil)

// NewCommands returns a Commands that calls emit with each command. An error of emit
// stops the Commands and is returned, unwrapped, by the call that made the command.
func NewCommands(emit func(*Command) error, o Options) (*Commands, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if emit == nil {
		return nil, fmt.Errorf("%w: no function to take the commands", ErrInvalidOption)
	}
	c := &Commands{o: o, emit: emit}
	if o.Restore && !rdb.Can(c.restoreVersion(), rdb.Streams) {
		return nil, fmt.Errorf("%w: RESTORE payloads are written for Redis 5.0 or later, not %s", ErrServerTooOld, o.Server)
	}
	return c, nil
}

// Err returns the first error, if any.
func (c *Commands) Err() error { return c.err }

// start begins a new command of name and args, for the open record.
func (c *Commands) start(name string, args ...[]byte) {
	c.buf = append(c.buf[:0], name...)
	c.args = append(c.args[:0], c.buf[:len(name)])
	for _, a := range args {
		c.arg(a)
	}
}

// arg appends an argument to the command being built. Earlier arguments may point into
// an old array of buf after it grows; nothing writes there any more.
func (c *Commands) arg(a []byte) {
	n := len(c.buf)
	c.buf = append(c.buf, a...)
	c.args = append(c.args, c.buf[n:len(c.buf):len(c.buf)])
}

// argInt appends an integer argument.
func (c *Commands) argInt(i int64) {
	n := len(c.buf)
	c.buf = strconv.AppendInt(c.buf, i, 10)
	c.args = append(c.args, c.buf[n:len(c.buf):len(c.buf)])
}

// argUint appends an unsigned integer argument.
func (c *Commands) argUint(i uint64) {
	n := len(c.buf)
	c.buf = strconv.AppendUint(c.buf, i, 10)
	c.args = append(c.args, c.buf[n:len(c.buf):len(c.buf)])
}

// argScore appends a sorted-set score, formatted so that it parses back to the same
// float64: the shortest exact form, and +inf and -inf as Redis spells them.
func (c *Commands) argScore(f float64) {
	n := len(c.buf)
	c.buf = AppendScore(c.buf, f)
	c.args = append(c.args, c.buf[n:len(c.buf):len(c.buf)])
}

// AppendScore appends f as ZADD takes it: the shortest decimal that parses back to f,
// "+inf" or "-inf".
func AppendScore(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(dst, "+inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// ErrTooLarge is wrapped by the error for a record with a value or member larger than the
// server takes as one argument (Options.MaxPayload, its proto-max-bulk-len).
var ErrTooLarge = errors.New("argument over the server's proto-max-bulk-len")

// send hands the command built to emit; last marks the record's last command. An argument
// over Options.MaxPayload, which the server would refuse by closing the connection, is an
// error naming the key and the bound.
func (c *Commands) send(key []byte, last bool) error {
	for _, a := range c.args {
		if int64(len(a)) > c.o.MaxPayload {
			return c.fail(fmt.Errorf("write key %q: %w: a value of %d bytes, and the server takes %d (raise it: CONFIG SET proto-max-bulk-len %d)",
				key, ErrTooLarge, len(a), c.o.MaxPayload, len(a)))
		}
	}
	c.cmd = Command{Args: c.args, Key: key, DB: c.db, Last: last, Expires: last && c.exp != 0}
	if last {
		c.cmd.ExpireAtMS = c.exp
	}
	if c.o.Atomic && key != nil {
		return c.sendAtomic()
	}
	if err := c.emit(&c.cmd); err != nil {
		c.err = err
		return err
	}
	return nil
}

// fail makes err the sticky error.
func (c *Commands) fail(err error) error {
	c.err = err
	return err
}

// BeginDB sends SELECT db.
func (c *Commands) BeginDB(db int, _ record.Counts) error {
	if c.err != nil {
		return c.err
	}
	if c.verb != "" || c.stream != nil || c.rs.open {
		return c.fail(fmt.Errorf("select db %d: key %q is still open", db, c.key))
	}
	c.db = db
	c.start("SELECT")
	c.argInt(int64(db))
	return c.send(nil, false)
}

// Begin sends a string, or opens a collection or stream: it sends DEL key, and the
// members follow.
func (c *Commands) Begin(h *record.Header) error {
	if c.err != nil {
		return c.err
	}
	if c.verb != "" || c.stream != nil || c.restoring() {
		return c.fail(fmt.Errorf("write key %q: key %q is still open", h.Key, c.key))
	}
	if c.o.Restore && !c.rs.direct {
		return c.beginRestore(h)
	}
	switch h.Type {
	case record.String:
		return c.writeString(h.Key, h.Value, h.ExpireAtMS)
	case record.Hash:
		if h.HasFieldTTLs() {
			return c.beginHashTTL(h.Key, h.ExpireAtMS, h.MinFieldExpireAtMS)
		}
		return c.begin(c.hashVerb(), h.Key, h.ExpireAtMS)
	case record.List:
		return c.begin("RPUSH", h.Key, h.ExpireAtMS)
	case record.Set:
		return c.begin("SADD", h.Key, h.ExpireAtMS)
	case record.ZSet:
		return c.beginZSet(h)
	case record.Stream:
		return c.beginStream(h)
	case record.Module:
		return c.writeModule(h)
	}
	return fmt.Errorf("write key %q: %w %q", h.Key, record.ErrBadType, h.Type)
}

// hashVerb is the command that fills a hash: HSET, or HMSET before 4.0.
func (c *Commands) hashVerb() string {
	if !c.o.Server.AtLeast(4, 0) {
		return "HMSET"
	}
	return "HSET"
}

// writeString sends SET key value, with its expiry.
func (c *Commands) writeString(key, value []byte, expireAtMS int64) error {
	c.exp = expireAtMS
	c.start("SET", key, value)
	if expireAtMS == 0 {
		return c.send(key, true)
	}
	switch {
	case c.o.Expiry == ExpiryRelative:
		c.arg([]byte("PX"))
		c.argInt(c.left(expireAtMS))
	case c.o.Server.AtLeast(6, 2):
		c.arg([]byte("PXAT"))
		c.argInt(expireAtMS)
	default:
		if err := c.send(key, false); err != nil {
			return err
		}
		c.start("PEXPIREAT", key)
		c.argInt(expireAtMS)
	}
	return c.send(key, true)
}

// left returns the milliseconds left until at, at least 1.
func (c *Commands) left(at int64) int64 { return max(at-c.o.Now().UnixMilli(), 1) }

// begin opens a collection filled by verb: it sends DEL key.
func (c *Commands) begin(verb string, key []byte, expireAtMS int64) error {
	c.key = append(c.key[:0], key...)
	c.exp = expireAtMS
	c.start("DEL", key)
	if err := c.send(c.key, false); err != nil {
		return err
	}
	c.verb = verb
	c.members, c.memBytes, c.added, c.fieldTTL = 0, 0, 0, false
	return nil
}

// member starts a command of the open collection if none is being built, and flushes
// it first if adding size bytes would pass a bound.
func (c *Commands) member(verb string, size int) error {
	if c.err != nil {
		return c.err
	}
	if c.verb != verb {
		return c.fail(fmt.Errorf("add to key %q: no %s collection is open", c.key, verb))
	}
	if c.members > 0 && (c.members >= c.o.MaxMembers || c.memBytes+size > c.o.MaxBytes) {
		if err := c.flush(false); err != nil {
			return err
		}
	}
	if c.members == 0 {
		c.start(verb, c.key)
		c.ttls = c.ttls[:0]
	}
	c.members++
	c.added++
	c.memBytes += size
	return nil
}

// flush sends the command being built, if any, and the field TTLs of its members; last
// marks the record's last command.
func (c *Commands) flush(last bool) error {
	if c.members == 0 {
		return nil
	}
	c.members, c.memBytes = 0, 0
	if !c.fieldTTL || !slices.ContainsFunc(c.ttls, func(t int64) bool { return t != 0 }) {
		return c.send(c.key, last)
	}
	// The names of the fields just sent: args are verb, key, field, value, …
	names := make([][]byte, 0, len(c.ttls))
	for i := 2; i < len(c.args); i += 2 {
		names = append(names, bytes.Clone(c.args[i]))
	}
	ttls := slices.Clone(c.ttls)
	if err := c.send(c.key, false); err != nil {
		return err
	}
	return c.fieldExpiries(names, ttls, last)
}

// Add adds a member to the open collection, or sends an entry of the open stream.
func (c *Commands) Add(m *record.Member) error {
	if c.err != nil {
		return c.err
	}
	if c.restoring() {
		return c.addRestore(m)
	}
	if c.stream != nil {
		return c.addStreamEntry(m)
	}
	switch c.verb {
	case "HSET", "HMSET":
		return c.addField(m.Name, m.Value, m.ExpireAtMS)
	case "RPUSH", "SADD":
		if err := c.member(c.verb, len(m.Name)); err != nil {
			return err
		}
		c.arg(m.Name)
		return nil
	case "ZADD":
		if math.IsNaN(m.Score) {
			return c.fail(fmt.Errorf("add to key %q: member %q: %w", c.key, m.Name, record.ErrNaNScore))
		}
		if err := c.member("ZADD", len(m.Name)+24); err != nil {
			return err
		}
		if err := c.addZSetPayload(m); err != nil {
			return err
		}
		c.argScore(m.Score)
		c.arg(m.Name)
		return nil
	}
	return c.fail(errors.New("add a member: no key is open"))
}

// End sends the last command of the open collection or stream (t is a stream's metadata
// and groups), then its expiry.
func (c *Commands) End(t *record.StreamTail) error {
	if c.err != nil {
		return c.err
	}
	if c.restoring() {
		return c.endRestore(t)
	}
	if c.rs.direct {
		defer c.rs.reset()
	}
	if c.stream != nil {
		return c.endStream(t)
	}
	if c.verb == "" {
		return c.fail(errors.New("end collection: none is open"))
	}
	c.verb = ""
	if c.added == 0 {
		return c.fail(fmt.Errorf("write key %q: %w", c.key, record.ErrEmpty))
	}
	if sent, err := c.endZSet(); sent || err != nil {
		return err
	}
	if c.exp == 0 {
		return c.flush(true)
	}
	if err := c.flush(false); err != nil {
		return err
	}
	return c.expire(c.key)
}

// expire sends the open record's expiry, its last command.
func (c *Commands) expire(key []byte) error {
	if c.o.Expiry == ExpiryRelative {
		c.start("PEXPIRE", key)
		c.argInt(c.left(c.exp))
	} else {
		c.start("PEXPIREAT", key)
		c.argInt(c.exp)
	}
	return c.send(key, true)
}
