// Package export writes records as JSON, JSON Lines or CSV: a Writer is a record.Sink, so
// that any source (a dump, a generated dataset, an import) can be exported.
//
// # JSON and JSON Lines
//
// Each key is one object, with the field names of github.com/hdt3213/rdb's `rdb -c json`
// (its model package, v1.1.0), so that tools that read that output read this one:
//
//	{"db":0,"key":"k","expiration":"2100-01-01T00:00:00.123Z","type":"string","value":"v","encoding":"string","size":56}
//	{"db":0,"key":"l","type":"list","values":["a","b"]}
//	{"db":0,"key":"s","type":"set","members":["a","b"]}
//	{"db":0,"key":"h","type":"hash","hash":{"f":"v"},"fieldExpirations":{"f":"2100-01-01T00:00:00Z"}}
//	{"db":0,"key":"z","type":"zset","entries":[{"member":"a","score":1.5},{"member":"b","score":"inf"}]}
//	{"db":0,"key":"x","type":"stream","version":3,"entries":[{"firstMsgId":"1-1","fields":["f"],"msgs":[{"id":"1-1","fields":{"f":"v"},"deleted":false}]}],"groups":[...],"len":1,"lastId":"1-1",...}
//	{"type":"function","name":"mylib","code":"#!lua name=mylib\n..."}
//	{"db":0,"key":"m","type":"module","moduleType":"ReJSON-RL","encodingVersion":3,"serialized":"AgUA"}
//	{"type":"module-aux","moduleType":"ft-index0","encodingVersion":1,"serialized":"BQNpZHgA","when":"before"}
//
// FormatJSON writes one array of them, as that tool does; FormatJSONL one object a line,
// which a reader can take one line at a time. Either is written as the records come: a
// Writer holds no record, only its output buffer (and, for a hash whose fields expire, the
// field expiries until the hash's end), whatever the size of the dump or of its keys.
//
// What this output adds to the tool's, where the tool's cannot hold the data:
//
//   - Bytes that are not valid UTF-8, in keys, values, members, field names, group and
//     consumer names, are written as lone low surrogates, byte 0xXX as \udcXX (0x80 to
//     0xff; Python's "surrogateescape"): valid JSON, and valid UTF-8, that no text can
//     produce, since valid UTF-8 never holds a surrogate. rdbgen's import turns each back
//     into its byte, so every key round-trips exactly; Python's json.loads followed by
//     .encode("utf-8", "surrogateescape") gives the bytes back too; a reader that knows
//     nothing of it (Go's encoding/json, jq) reads U+FFFD, as it reads the tool's raw bytes.
//     The tool writes such bytes raw, which is not valid JSON.
//   - Scores that are infinite (JSON numbers cannot be) are the strings "inf" and "-inf";
//     the tool fails on them and leaves the key out.
//   - Expirations are RFC 3339 in UTC with millisecond precision at most, as the tool
//     writes them when its zone is UTC; an expiration in the year 10000 or later is a
//     number of Unix ms.
//   - "fieldExpirations": the expiries of a hash's fields (Redis 7.4+), field to time, for
//     the fields that have one.
//   - Streams carry what the tool's model holds (entries, groups with their pending entries
//     and consumers, length, last, first and max-deleted ids, entries added), with
//     "version" 3 (RDB 11's stream layout, whose consumers have an active time) unless the
//     source tells the RDB type (Detail). Entries are grouped into nodes of consecutive
//     entries with the same field names; deleted entries, which are not data, are not
//     written, and a message's fields repeat a name when its entry does.
//   - Function libraries (Redis 7.0+) are objects of type "function" with their code.
//   - Module values (RDB type 7), which the tool cannot read without a parser of each
//     module, are objects of type "module" holding what the file holds, byte for byte:
//     "moduleType" (the 9-character module type name, the tool's name for it),
//     "encodingVersion" (0 to 1023) and "serialized", the module's opcode stream through
//     its EOF opcode in standard base64 (padded), as the file held it (LZF strings stay
//     compressed). A server with the module reads it back; rdbgen cannot look inside.
//   - Module AUX data (opcode 247), which belongs to no key, is an object of type
//     "module-aux" with the same three fields and "when": "before" or "after" the keyspace.
//
// "encoding" and "size" come from Detail: the RDB encoding as the tool names it, and the
// key's estimated used_memory (rdbgen's memory package; the tool's "size" is its own
// estimate of the same); without a Detail they are left out.
//
// # CSV
//
// FormatCSV writes one row a key for a spreadsheet, under a header row: db, key, type,
// encoding, bytes (the key's bytes in the source file), members (of a collection, entries
// of a stream, 0 for a string), expiry (RFC 3339, empty for none), memory (estimated
// used_memory). The key is written as the inside of its JSON string (without the quotes,
// escaped as above, so "\\" is a backslash); columns the source does not tell are empty.
// The CSV does not hold values: `rdbgen import` reads JSON back, not this.
package export

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// Format is an output format.
type Format string

// The formats.
const (
	FormatJSON  Format = "json"  // one JSON array of objects, as `rdb -c json` writes
	FormatJSONL Format = "jsonl" // one JSON object a line
	FormatCSV   Format = "csv"   // one row a key, no values
)

// Formats lists the formats, for messages.
var Formats = []Format{FormatJSON, FormatJSONL, FormatCSV}

// ErrFormat is the error of an unknown format.
var ErrFormat = errors.New("export: unknown format")

// Options configure a Writer.
type Options struct {
	// Format is the output format; default FormatJSON.
	Format Format
	// Detail, if set, is called once each key is whole (at Begin for a string, at End
	// otherwise; the source has read it) to fill in what the source knows beyond the
	// records. A Writer behind a Tee whose other sink is a memory estimator sees the key's
	// estimate there.
	Detail func(d *Detail)
	// BufferSize is the size of the output buffer; default 1 MiB.
	BufferSize int
}

// A Detail is what a source knows of how a key is stored; a zero field is unknown.
type Detail struct {
	// Encoding is the key's RDB encoding, as hdt3213's converter names it (see RDBEncoding).
	Encoding string
	// StreamVersion is the RDB layout of a stream: 1 (RDB 5 to 9), 2 (RDB 10), 3 (RDB 11+).
	StreamVersion int
	// Bytes is the size of the key's record in the source file.
	Bytes int64
	// Memory is the key's estimated used_memory on a server.
	Memory int64
}

// A Writer is a record.Sink that writes the records it receives to an io.Writer in one of
// the Formats. Close ends the output. Errors of the io.Writer end the writing: every later
// call returns the first.
type Writer struct {
	w    io.Writer
	opts Options
	buf  []byte
	err  error
	n    int64 // bytes written to w

	db      int
	keys    uint64 // keys written
	started bool   // FormatJSON: the array is open
	closed  bool

	// The open key.
	typ     record.Type
	expire  int64
	members uint64
	key     []byte // FormatCSV: the key, kept to its End
	ttls    []byte // a hash's "fieldExpirations" so far, fields without the braces
	stream  streamState
	d       Detail // the Detail of the key just read, kept here: not allocated per key
}

// NewWriter returns a Writer to w, or an error wrapping ErrFormat.
func NewWriter(w io.Writer, opts Options) (*Writer, error) {
	if opts.Format == "" {
		opts.Format = FormatJSON
	}
	switch opts.Format {
	case FormatJSON, FormatJSONL, FormatCSV:
	default:
		return nil, fmt.Errorf("%w %q (known: json, jsonl, csv)", ErrFormat, opts.Format)
	}
	if opts.BufferSize <= 0 {
		opts.BufferSize = 1 << 20
	}
	ew := &Writer{w: w, opts: opts, buf: make([]byte, 0, opts.BufferSize+opts.BufferSize/4)}
	if opts.Format == FormatCSV {
		ew.buf = append(ew.buf, "db,key,type,encoding,bytes,members,expiry,memory\n"...)
	}
	return ew, nil
}

// Keys returns the number of keys written so far.
func (w *Writer) Keys() uint64 { return w.keys }

// Written returns the bytes written to the io.Writer so far, and those in the buffer.
func (w *Writer) Written() int64 { return w.n + int64(len(w.buf)) }

// Close ends the output (the closing bracket of FormatJSON) and writes out the buffer. It
// does not close the io.Writer.
func (w *Writer) Close() error {
	if w.err != nil || w.closed {
		return w.err
	}
	w.closed = true
	if w.opts.Format == FormatJSON {
		if !w.started {
			w.buf = append(w.buf, '[')
		}
		w.buf = append(w.buf, "\n]\n"...)
	}
	w.flush()
	return w.err
}

// flush writes the buffer out.
func (w *Writer) flush() {
	if w.err != nil || len(w.buf) == 0 {
		return
	}
	n, err := w.w.Write(w.buf)
	w.n += int64(n)
	if err == nil && n < len(w.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = fmt.Errorf("export: write: %w", err)
	}
	w.buf = w.buf[:0]
}

// maybeFlush writes the buffer out once it holds BufferSize bytes.
func (w *Writer) maybeFlush() {
	if len(w.buf) >= w.opts.BufferSize {
		w.flush()
	}
}

// BeginDB notes the database of the keys that follow.
func (w *Writer) BeginDB(db int, _ record.Counts) error {
	w.db = db
	return w.err
}

// Begin opens a key; a string is written whole.
func (w *Writer) Begin(h *record.Header) error {
	if w.err != nil {
		return w.err
	}
	w.typ, w.expire, w.members = h.Type, h.ExpireAtMS, 0
	if w.opts.Format == FormatCSV {
		w.key = append(w.key[:0], h.Key...)
		if h.Type.Whole() {
			return w.endCSV()
		}
		return nil
	}
	w.beginObject()
	w.buf = append(w.buf, `{"db":`...)
	w.buf = strconv.AppendInt(w.buf, int64(w.db), 10)
	w.buf = append(w.buf, `,"key":`...)
	w.buf = appendString(w.buf, h.Key)
	if h.ExpireAtMS > 0 {
		w.buf = append(w.buf, `,"expiration":`...)
		w.buf = appendTime(w.buf, h.ExpireAtMS)
	}
	w.buf = append(w.buf, `,"type":"`...)
	w.buf = append(w.buf, h.Type...)
	w.buf = append(w.buf, '"')
	switch h.Type {
	case record.String:
		w.buf = append(w.buf, `,"value":`...)
		w.buf = appendString(w.buf, h.Value)
		return w.finish(w.detail())
	case record.List:
		w.buf = append(w.buf, `,"values":[`...)
	case record.Set:
		w.buf = append(w.buf, `,"members":[`...)
	case record.ZSet:
		w.buf = append(w.buf, `,"entries":[`...)
	case record.Hash:
		w.buf = append(w.buf, `,"hash":{`...)
		w.ttls = w.ttls[:0]
	case record.Stream:
		w.stream.begin()
	case record.Module:
		w.buf = appendModule(w.buf, h.ModuleID, h.Value)
		return w.finish(w.detail())
	default:
		w.err = fmt.Errorf("export: key %q: %w %q", h.Key, record.ErrBadType, h.Type)
	}
	return w.err
}

// beginObject starts an object of FormatJSON or FormatJSONL: after the array's opening
// bracket or the last object's comma.
func (w *Writer) beginObject() {
	if w.opts.Format == FormatJSON {
		if w.started {
			w.buf = append(w.buf, ",\n"...)
		} else {
			w.buf = append(w.buf, "[\n"...)
			w.started = true
		}
	}
}

// Add writes one member of the open key.
func (w *Writer) Add(m *record.Member) error {
	if w.err != nil {
		return w.err
	}
	w.members++
	if w.opts.Format == FormatCSV {
		return nil
	}
	first := w.members == 1
	switch w.typ {
	case record.List, record.Set:
		if !first {
			w.buf = append(w.buf, ',')
		}
		w.buf = appendString(w.buf, m.Name)
	case record.ZSet:
		if !first {
			w.buf = append(w.buf, ',')
		}
		w.buf = append(w.buf, `{"member":`...)
		w.buf = appendString(w.buf, m.Name)
		w.buf = append(w.buf, `,"score":`...)
		w.buf = appendScore(w.buf, m.Score)
		w.buf = append(w.buf, '}')
	case record.Hash:
		if !first {
			w.buf = append(w.buf, ',')
		}
		w.buf = appendString(w.buf, m.Name)
		w.buf = append(w.buf, ':')
		w.buf = appendString(w.buf, m.Value)
		if m.ExpireAtMS > 0 {
			if len(w.ttls) > 0 {
				w.ttls = append(w.ttls, ',')
			}
			w.ttls = appendString(w.ttls, m.Name)
			w.ttls = append(w.ttls, ':')
			w.ttls = appendTime(w.ttls, m.ExpireAtMS)
		}
	case record.Stream:
		w.buf = w.stream.add(w.buf, m)
	}
	w.maybeFlush()
	return w.err
}

// End closes the open key.
func (w *Writer) End(t *record.StreamTail) error {
	if w.err != nil {
		return w.err
	}
	if w.opts.Format == FormatCSV {
		return w.endCSV()
	}
	d := w.detail()
	switch w.typ {
	case record.List, record.Set, record.ZSet:
		w.buf = append(w.buf, ']')
	case record.Hash:
		w.buf = append(w.buf, '}')
		if len(w.ttls) > 0 {
			w.buf = append(w.buf, `,"fieldExpirations":{`...)
			w.buf = append(w.buf, w.ttls...)
			w.buf = append(w.buf, '}')
		}
	case record.Stream:
		var tail record.StreamTail
		if t != nil {
			tail = *t
		}
		w.buf = w.stream.end(w.buf, &tail, d.StreamVersion)
	}
	return w.finish(d)
}

// detail returns what Options.Detail tells of the key just read.
func (w *Writer) detail() *Detail {
	w.d = Detail{}
	if w.opts.Detail != nil {
		w.opts.Detail(&w.d)
	}
	return &w.d
}

// finish writes a key's encoding and size, when d knows them, and closes its object.
func (w *Writer) finish(d *Detail) error {
	if d.Encoding != "" {
		w.buf = append(w.buf, `,"encoding":`...)
		w.buf = appendString(w.buf, d.Encoding)
	}
	if d.Memory > 0 {
		w.buf = append(w.buf, `,"size":`...)
		w.buf = strconv.AppendInt(w.buf, d.Memory, 10)
	}
	w.buf = append(w.buf, '}')
	if w.opts.Format == FormatJSONL {
		w.buf = append(w.buf, '\n')
	}
	w.keys++
	w.maybeFlush()
	return w.err
}

// WriteFunction writes a function library as an object of type "function": its name,
// when its first line gives one, and its code.
func (w *Writer) WriteFunction(code []byte) error {
	if w.err != nil || w.opts.Format == FormatCSV {
		return w.err
	}
	w.beginObject()
	w.buf = append(w.buf, `{"type":"function"`...)
	if name, err := record.LibraryName(code); err == nil {
		w.buf = append(w.buf, `,"name":`...)
		w.buf = appendString(w.buf, name)
	}
	w.buf = append(w.buf, `,"code":`...)
	w.buf = appendString(w.buf, code)
	w.buf = append(w.buf, '}')
	if w.opts.Format == FormatJSONL {
		w.buf = append(w.buf, '\n')
	}
	w.maybeFlush()
	return w.err
}

// WriteModuleAux writes a module's AUX data as an object of type "module-aux": its module
// type, encoding version, "when" ("before" or "after" the keyspace) and serialized data.
func (w *Writer) WriteModuleAux(a *record.ModuleAux) error {
	if w.err != nil || w.opts.Format == FormatCSV {
		return w.err
	}
	w.beginObject()
	w.buf = append(w.buf, `{"type":"module-aux"`...)
	w.buf = appendModule(w.buf, a.ModuleID, a.Value)
	switch a.When {
	case record.ModuleAuxBefore:
		w.buf = append(w.buf, `,"when":"before"`...)
	case record.ModuleAuxAfter:
		w.buf = append(w.buf, `,"when":"after"`...)
	default:
		w.buf = append(w.buf, `,"when":`...)
		w.buf = strconv.AppendUint(w.buf, a.When, 10)
	}
	w.buf = append(w.buf, '}')
	if w.opts.Format == FormatJSONL {
		w.buf = append(w.buf, '\n')
	}
	w.maybeFlush()
	return w.err
}

// appendModule appends the fields of a module's data: "moduleType", "encodingVersion" and
// "serialized" (standard base64).
func appendModule(b []byte, id uint64, body []byte) []byte {
	b = append(b, `,"moduleType":`...)
	b = appendString(b, record.ModuleName(id))
	b = append(b, `,"encodingVersion":`...)
	b = strconv.AppendUint(b, record.ModuleEncVer(id), 10)
	b = append(b, `,"serialized":"`...)
	b = base64.StdEncoding.AppendEncode(b, body)
	return append(b, '"')
}

// The Writer is a Sink.
var _ record.Sink = (*Writer)(nil)
