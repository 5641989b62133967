package rdbgen

import (
	"context"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// RESPOptions configure WriteRESP and WriteRESPFile. The zero value works.
type RESPOptions struct {
	// Commands chooses the commands: the server release they are for (resp.TargetVersion
	// turns a target name into one) and the size of each. Default: the newest server.
	Commands resp.Options
	// Progress, if not nil, is called every few thousand records and members. Default nil.
	Progress func(record.Progress)
	// Force lets WriteRESPFile replace an existing file. Default false: an existing file is an
	// error wrapping manifest.ErrExists.
	Force bool
}

// RESPResult summarises a RESP stream written by WriteRESP or WriteRESPFile.
type RESPResult struct {
	// Stats count the keys, expiries and members sent, and the bytes written (no checksum).
	Stats encoder.Stats
	// DBs holds the keys, and keys with an expiry, of each database that has some.
	DBs map[int]record.Counts
	// Commands is the number of commands written.
	Commands uint64
	Duration time.Duration
	// Streams counts the streams written as RESTORE, since commands could not rebuild
	// them, and what resp.Options.DropLostPending left out.
	Streams resp.StreamCounts
}

// WriteRESP writes every record of src to dst as the Redis commands that make it, a RESP
// stream that `redis-cli --pipe` sends to a server: the same data the RDB file of src holds
// (see package resp for the commands). dst is not closed.
func WriteRESP(ctx context.Context, dst io.Writer, src record.Source, opts RESPOptions) (RESPResult, error) {
	start := time.Now()
	cw := &countingWriter{w: dst}
	w, err := resp.NewWriter(cw, opts.Commands)
	if err != nil {
		return RESPResult{}, err
	}
	t := &tally{Sink: w, bytes: func() int64 { return cw.n }}
	sink, done := withProgress(t, src, t.stats, opts.Progress)
	if err := src.WriteTo(ctx, sink); err != nil {
		return RESPResult{}, err
	}
	if err := w.Close(); err != nil {
		return RESPResult{}, err
	}
	done()
	return RESPResult{Stats: t.stats(), DBs: t.dbs, Commands: w.Count(), Duration: time.Since(start), Streams: w.StreamCounts()}, nil
}

// WriteRESPFile writes the RESP stream of src (see WriteRESP) to the file at path, which
// appears only once complete, as WriteFile's files do. It writes no manifest.
func WriteRESPFile(ctx context.Context, path string, src record.Source, opts RESPOptions) (RESPResult, error) {
	f, err := manifest.CreateFile(path, "", opts.Force)
	if err != nil {
		return RESPResult{}, err
	}
	defer f.Abort()
	res, err := WriteRESP(ctx, f, src, opts)
	if err != nil {
		return RESPResult{}, err
	}
	if err := f.Commit(nil); err != nil {
		return RESPResult{}, err
	}
	return res, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// A tally passes every call to its Sink and counts the keys, expiries and members, per
// database, as an encoder's Stats and DBs count them.
type tally struct {
	record.Sink
	bytes   func() int64
	keys    uint64
	expires uint64
	members uint64
	db      int
	dbs     map[int]record.Counts
}

func (t *tally) stats() encoder.Stats {
	return encoder.Stats{Keys: t.keys, Expires: t.expires, Members: t.members, Bytes: t.bytes()}
}

// key counts a key of the open database.
func (t *tally) key(expireAtMS int64) {
	if t.dbs == nil {
		t.dbs = map[int]record.Counts{}
	}
	c := t.dbs[t.db]
	c.Keys++
	t.keys++
	if expireAtMS > 0 {
		c.Expires++
		t.expires++
	}
	t.dbs[t.db] = c
}

func (t *tally) BeginDB(db int, info encoder.DBInfo) error {
	t.db = db
	return t.Sink.BeginDB(db, info)
}

func (t *tally) WriteString(key, value []byte, expireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.WriteString(key, value, expireAtMS)
}

func (t *tally) BeginHash(key []byte, n uint64, expireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.BeginHash(key, n, expireAtMS)
}

func (t *tally) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.BeginHashWithFieldTTL(key, n, expireAtMS, minFieldExpireAtMS)
}

func (t *tally) BeginList(key []byte, n uint64, expireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.BeginList(key, n, expireAtMS)
}

func (t *tally) BeginSet(key []byte, n uint64, expireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.BeginSet(key, n, expireAtMS)
}

func (t *tally) BeginZSet(key []byte, n uint64, expireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.BeginZSet(key, n, expireAtMS)
}

func (t *tally) BeginStream(key []byte, expireAtMS int64) error {
	t.key(expireAtMS)
	return t.Sink.BeginStream(key, expireAtMS)
}

func (t *tally) AddField(field, value []byte) error {
	t.members++
	return t.Sink.AddField(field, value)
}

func (t *tally) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	t.members++
	return t.Sink.AddFieldWithTTL(field, value, expireAtMS)
}

func (t *tally) AddElement(element []byte) error {
	t.members++
	return t.Sink.AddElement(element)
}

func (t *tally) AddMember(member []byte) error {
	t.members++
	return t.Sink.AddMember(member)
}

func (t *tally) AddScoredMember(member []byte, score float64) error {
	t.members++
	return t.Sink.AddScoredMember(member, score)
}

func (t *tally) AddStreamEntry(id record.StreamID, fields [][]byte) error {
	t.members++
	return t.Sink.AddStreamEntry(id, fields)
}

// WriteFunction passes a function library on.
func (t *tally) WriteFunction(code []byte) error { return record.WriteFunction(t.Sink, code) }
