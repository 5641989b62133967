package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rdbgen/rdbgen/record"
)

// CSV input has a header row naming its columns. Strings take a key and a value column
// (key,value[,ttl]); hashes a key, a field and a value column (key,field,value[,ttl]), one
// row per field, and the rows of one hash must be consecutive: a reader holds one hash at a
// time, and a key that comes back after other keys is a duplicate. The ttl column holds a
// duration (30m, 1h30m) or whole seconds, counted from CSVOptions.BaseTime; empty means no
// expiry. Every row of a hash must give the same ttl, or leave it empty after the first.

// CSVOptions configure a CSVReader. The zero value reads key,value[,ttl] strings or, when
// the header has a field column, key,field,value[,ttl] hashes, into db 0.
type CSVOptions struct {
	// Type is record.String or record.Hash; empty: Hash when the header has the field
	// column, String otherwise.
	Type record.Type
	// The names of the columns; defaults "key", "value", "field" and "ttl". A TTL column
	// named here must exist; the default one is optional.
	Key, Value, Field, TTL string
	// DB is the database of every record; default 0.
	DB int
	// BaseTime is the time TTLs count from; default the time of NewCSVReader.
	BaseTime time.Time
	// Comma is the field delimiter; default ','.
	Comma rune
}

// A CSVReader reads records from CSV.
type CSVReader struct {
	r       *csv.Reader
	opts    CSVOptions
	key     int // column indexes; -1 for none
	value   int
	field   int
	ttl     int
	header  error // a bad header, returned by every Read
	line    int64
	rec     record.Record
	pending []string // the row read past the end of a hash
	pline   int64    // its line
	fields  map[string]int64
	eof     bool
}

// NewCSVReader returns a reader of the CSV in r. It reads the header when first asked for a
// record.
func NewCSVReader(r io.Reader, opts CSVOptions) *CSVReader {
	if opts.Key == "" {
		opts.Key = "key"
	}
	if opts.Value == "" {
		opts.Value = "value"
	}
	if opts.Field == "" {
		opts.Field = "field"
	}
	if opts.BaseTime.IsZero() {
		opts.BaseTime = time.Now()
	}
	comma := opts.Comma
	if comma == 0 {
		comma = ','
	}
	cr := csv.NewReader(newCRLFGuard(r, comma))
	cr.Comma = comma
	cr.ReuseRecord = true
	return &CSVReader{r: cr, opts: opts, key: -2}
}

// Line returns the line on which the record last returned starts.
func (c *CSVReader) Line() int64 { return c.line }

// readHeader finds the columns.
func (c *CSVReader) readHeader() error {
	row, err := c.r.Read()
	if err == io.EOF {
		return &LineError{Line: 1, Err: errors.New("CSV: empty input: want a header row such as key,value"), Fatal: true}
	}
	if err != nil {
		return csvError(err, 1)
	}
	find := func(name string) int {
		for i, h := range row {
			if strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) == name {
				return i
			}
		}
		return -1
	}
	c.key, c.value, c.field = find(c.opts.Key), find(c.opts.Value), find(c.opts.Field)
	ttlName := c.opts.TTL
	if ttlName == "" {
		ttlName = "ttl"
	}
	c.ttl = find(ttlName)
	if c.opts.Type == "" {
		c.opts.Type = record.String
		if c.field >= 0 {
			c.opts.Type = record.Hash
		}
	}
	missing := func(what, name string) error {
		return &LineError{Line: 1, Err: fmt.Errorf("CSV header has no %s column %q (columns: %s)", what, name, columns(row)), Fatal: true}
	}
	switch {
	case c.opts.Type != record.String && c.opts.Type != record.Hash:
		return fmt.Errorf("CSV holds strings or hashes, not %s", c.opts.Type)
	case c.key < 0:
		return missing("key", c.opts.Key)
	case c.value < 0:
		return missing("value", c.opts.Value)
	case c.opts.Type == record.Hash && c.field < 0:
		return missing("field", c.opts.Field)
	case c.opts.TTL != "" && c.ttl < 0:
		return missing("ttl", c.opts.TTL)
	}
	if c.opts.Type == record.String {
		c.field = -1
	}
	return nil
}

// columns renders the cells of a header row for a message, on one line: a cell that holds
// a control character or a comma is quoted.
func columns(row []string) string {
	cells := make([]string, len(row))
	for i, h := range row {
		cells[i] = h
		if strings.ContainsFunc(h, func(r rune) bool { return r < ' ' || r == 0x7f || r == ',' }) {
			cells[i] = strconv.Quote(h)
		}
	}
	return strings.Join(cells, ",")
}

// csvError makes a csv.ParseError a LineError, and an error reading the input (such as
// compressed input that is cut short) a fatal LineError at line, the last one read.
func csvError(err error, line int64) error {
	var pe *csv.ParseError
	var le *LineError
	switch {
	case errors.As(err, &pe):
		return &LineError{Line: int64(pe.StartLine), Err: fmt.Errorf("CSV: %v", pe.Err)}
	case err == io.EOF || errors.As(err, &le):
		return err
	}
	return &LineError{Line: max(line, 1), Err: err, Fatal: true}
}

// row reads the next row: its fields and line.
func (c *CSVReader) row() ([]string, int64, error) {
	if c.pending != nil {
		row, line := c.pending, c.pline
		c.pending = nil
		return row, line, nil
	}
	row, err := c.r.Read()
	if err != nil {
		return nil, 0, csvError(err, c.line)
	}
	line, _ := c.r.FieldPos(0)
	return row, int64(line), nil
}

// Read returns the next record.
func (c *CSVReader) Read() (*record.Record, error) {
	if c.key == -2 {
		if c.header = c.readHeader(); c.header != nil {
			c.key = -1
		}
	}
	if c.header != nil {
		err := c.header
		c.header, c.eof = nil, true
		return nil, err
	}
	if c.eof {
		return nil, io.EOF
	}
	row, line, err := c.row()
	if err == io.EOF {
		c.eof = true
		return nil, io.EOF
	}
	if err != nil {
		c.line = lineOf(err, c.line)
		return nil, err
	}
	c.line = line
	c.rec = record.Record{DB: c.opts.DB, Type: c.opts.Type, Key: append(c.rec.Key[:0], row[c.key]...), Members: c.rec.Members[:0]}
	if c.rec.ExpireAtMS, err = c.expiry(row); err != nil {
		return nil, &LineError{Line: line, Err: err}
	}
	if c.opts.Type == record.String {
		c.rec.Value = append(c.rec.Value[:0], row[c.value]...)
		return &c.rec, nil
	}
	// A hash: this row and the consecutive rows of the same key.
	if c.fields == nil || len(c.fields) > 4096 {
		c.fields = map[string]int64{}
	} else {
		clear(c.fields)
	}
	for {
		name := row[c.field]
		if first, dup := c.fields[name]; dup {
			return nil, c.skipHash(&LineError{Line: line, Err: fmt.Errorf("hash %q: field %q repeated (first at line %d)", c.rec.Key, name, first)})
		}
		c.fields[name] = line
		c.rec.Members = append(c.rec.Members, record.Member{Name: []byte(name), Value: []byte(row[c.value])})
		row, line, err = c.row()
		if err == io.EOF {
			c.eof = true
			return &c.rec, nil
		}
		if err != nil {
			return nil, c.skipHash(err)
		}
		if row[c.key] != string(c.rec.Key) {
			c.pending, c.pline = append([]string(nil), row...), line
			return &c.rec, nil
		}
		exp, err := c.expiry(row)
		if err != nil {
			return nil, c.skipHash(&LineError{Line: line, Err: err})
		}
		if exp != 0 && exp != c.rec.ExpireAtMS {
			return nil, c.skipHash(&LineError{Line: line, Err: fmt.Errorf("hash %q: ttl %q differs from the one on line %d", c.rec.Key, row[c.ttl], c.line)})
		}
	}
}

// skipHash drops the rest of the rows of the hash being read, so that reading can go on
// with the next key, and returns err.
func (c *CSVReader) skipHash(err error) error {
	key := string(c.rec.Key)
	for {
		row, line, rerr := c.row()
		if rerr == io.EOF {
			c.eof = true
			return err
		}
		if rerr != nil {
			return err
		}
		if row[c.key] != key {
			c.pending, c.pline = append([]string(nil), row...), line
			return err
		}
	}
}

// expiry reads the ttl column of a row.
func (c *CSVReader) expiry(row []string) (int64, error) {
	if c.ttl < 0 {
		return 0, nil
	}
	s := strings.TrimSpace(row[c.ttl])
	if s == "" {
		return 0, nil
	}
	base := c.opts.BaseTime.UnixMilli()
	var ms int64
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		ms = n * 1000
		if n > (math.MaxInt64-base)/1000 {
			return 0, fmt.Errorf("ttl %q: too far in the future: an expiry is at most %d seconds from now", s, (math.MaxInt64-base)/1000)
		}
	} else if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-") {
		return 0, fmt.Errorf("ttl %q: too far in the future: an expiry is at most %d seconds from now", s, (math.MaxInt64-base)/1000)
	} else if d, err := time.ParseDuration(s); err != nil {
		return 0, fmt.Errorf("ttl %q: want a duration (30m, 1h) or whole seconds", s)
	} else {
		ms = d.Milliseconds()
		if d > 0 && ms == 0 {
			ms = 1 // under a millisecond: the next one
		}
	}
	if ms <= 0 {
		return 0, fmt.Errorf("ttl %q: must be positive (leave it empty for no expiry)", s)
	}
	return base + ms, nil
}

// lineOf returns the line of a LineError, or def.
func lineOf(err error, def int64) int64 {
	var le *LineError
	if errors.As(err, &le) {
		return le.Line
	}
	return def
}

// Check refuses options that no CSV input can take: a Type other than string or hash, a DB
// out of 0 to record.MaxDB. Its errors name them by rdbgen's flags (--csv-type, --db).
func (o CSVOptions) Check() error {
	if o.Type != "" && o.Type != record.String && o.Type != record.Hash {
		return fmt.Errorf("--csv-type %q (known: string, hash)", o.Type)
	}
	if o.DB < 0 || o.DB > record.MaxDB {
		return fmt.Errorf("--db %d out of range (0 to %d)", o.DB, record.MaxDB)
	}
	return nil
}

// Delimiter returns the field delimiter d names for the CSV file at path: one character other
// than a quote or a newline, `\t` for a tab; when d is empty (not given), a tab for a .tsv
// file (compressed or not) and a comma for any other.
func Delimiter(d, path string) (rune, error) {
	if d == "" {
		d = ","
		if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".tsv") {
			d = "\t"
		}
	}
	if d == `\t` {
		d = "\t"
	}
	r, size := utf8.DecodeRuneInString(d)
	if size == 0 || size != len(d) || r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
		return 0, fmt.Errorf("%q: want one character other than a quote or newline", d)
	}
	return r, nil
}
