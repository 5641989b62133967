package rdbsink

import (
	"io"

	"github.com/rdbgen/rdbgen/internal/version"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A Writer is a record.Sink that writes an RDB file: an encoder.Writer, whose other calls
// (Stats, Capabilities, Header, ...) it has, taking records.
type Writer struct {
	*encoder.Writer
	k keys
}

// NewWriter returns a Writer that writes an RDB file to dst; see encoder.NewWriter. The file
// names rdbgen's release (version.Release) in its rdbgen-ver AUX field unless
// opts.ToolVersion names another.
func NewWriter(dst io.Writer, opts encoder.Options) (*Writer, error) {
	if opts.ToolVersion == "" {
		opts.ToolVersion = version.Release()
	}
	w, err := encoder.NewWriter(dst, opts)
	if err != nil {
		return nil, err
	}
	return Wrap(w), nil
}

// Wrap returns a Writer that writes records through w.
func Wrap(w *encoder.Writer) *Writer { return &Writer{Writer: w, k: newKeys(w)} }

// BeginDB opens database db; see encoder.Writer.BeginDB.
func (w *Writer) BeginDB(db int, c record.Counts) error {
	return mapErr(w.Writer.BeginDB(db, encoder.DBInfo(c)))
}

// Begin writes a string or a module value, or opens any other key, by its type. An unknown
// type is an error wrapping record.ErrBadType.
func (w *Writer) Begin(h *record.Header) error {
	if h.Type == record.String { // the hot path
		if err := w.Writer.WriteString(h.Key, h.Value, h.ExpireAtMS); err != nil {
			return mapErr(err)
		}
		return nil
	}
	return w.k.begin(h)
}

// WriteString writes a string key, as Begin does a string's Header, for a caller that has
// no Header at hand.
func (w *Writer) WriteString(key, value []byte, expireAtMS int64) error {
	if err := w.Writer.WriteString(key, value, expireAtMS); err != nil {
		return mapErr(err)
	}
	return nil
}

// Add adds a member to the open key.
func (w *Writer) Add(m *record.Member) error { return w.k.add(m) }

// End closes the open key; t is a stream's tail, nil for other types.
func (w *Writer) End(t *record.StreamTail) error { return w.k.end(t) }

// WriteFunction writes a function library; code whose first line names no library is an
// error wrapping record.ErrLibraryCode.
func (w *Writer) WriteFunction(code []byte) error { return w.k.writeFunction(code) }

// WriteModuleAux writes a module's AUX data.
func (w *Writer) WriteModuleAux(a *record.ModuleAux) error { return w.k.writeModuleAux(a) }

// Close ends the file; see encoder.Writer.Close.
func (w *Writer) Close() error { return mapErr(w.Writer.Close()) }

// DBs returns the keys, and keys with an expiry, written so far in each database that
// holds some; complete after Close.
func (w *Writer) DBs() map[int]record.Counts {
	dbs := w.Writer.DBs()
	out := make(map[int]record.Counts, len(dbs))
	for db, c := range dbs {
		out[db] = record.Counts(c)
	}
	return out
}

// HeaderLen returns the length of the header of a file whose first database is db with
// c's counts; see encoder.Writer.HeaderLen.
func (w *Writer) HeaderLen(db int, c record.Counts) int {
	return w.Writer.HeaderLen(db, encoder.DBInfo(c))
}

// A PayloadWriter is a record.Sink that writes each key as a DUMP payload, for RESTORE: an
// encoder.PayloadWriter taking records. BeginDB does nothing; function libraries and
// module AUX data are refused with the record errors.
type PayloadWriter struct {
	*encoder.PayloadWriter
	k keys
}

// NewPayloadWriter returns a PayloadWriter; see encoder.NewPayloadWriter.
func NewPayloadWriter(opts encoder.Options, maxBytes int64) (*PayloadWriter, error) {
	p, err := encoder.NewPayloadWriter(opts, maxBytes)
	if err != nil {
		return nil, err
	}
	return &PayloadWriter{PayloadWriter: p, k: newKeys(p.Writer)}, nil
}

// BeginDB does nothing: a payload belongs to no database.
func (p *PayloadWriter) BeginDB(db int, c record.Counts) error {
	return mapErr(p.PayloadWriter.BeginDB(db, encoder.DBInfo(c)))
}

// Begin writes a string or a module value, or opens any other key; a string's payload is
// then ready.
func (p *PayloadWriter) Begin(h *record.Header) error { return p.k.begin(h) }

// Add adds a member to the open key.
func (p *PayloadWriter) Add(m *record.Member) error { return p.k.add(m) }

// End closes the open key; its payload is then ready.
func (p *PayloadWriter) End(t *record.StreamTail) error { return p.k.end(t) }

// WriteFunction refuses the library: RESTORE carries one key; libraries go by FUNCTION LOAD.
func (p *PayloadWriter) WriteFunction(code []byte) error {
	return record.RefuseFunctions{}.WriteFunction(code)
}

// WriteModuleAux refuses the data: no command carries it.
func (p *PayloadWriter) WriteModuleAux(a *record.ModuleAux) error {
	return record.RefuseModuleAux{}.WriteModuleAux(a)
}

// Writers and payload writers are sinks.
var (
	_ record.Sink = (*Writer)(nil)
	_ record.Sink = (*PayloadWriter)(nil)
)
