package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/rdbgen/rdbgen/record"
)

// JSON records are the objects that `rdb -c json` of github.com/hdt3213/rdb v1.1.0 prints
// (model.BaseObject and the MarshalJSON methods of its objects), one per key:
//
//	{"db":0,"key":"k","expiration":"2025-01-02T15:04:05.123+08:00","type":"string","value":"v"}
//	{"db":0,"key":"l","type":"list","values":["a","b"]}
//	{"db":0,"key":"s","type":"set","members":["a","b"]}
//	{"db":0,"key":"h","type":"hash","hash":{"f":"v"}}
//	{"db":0,"key":"z","type":"zset","entries":[{"member":"a","score":1.5}]}
//	{"db":0,"key":"x","type":"stream","entries":[{"msgs":[{"id":"1-1","fields":{"f":"v"}}]}]}
//
// size and encoding are ignored; db defaults to 0; a missing type is inferred from the field
// that holds the value. Strings keep any bytes that are not valid UTF-8 as they are, since
// the tool writes binary values raw. Scores may also be the strings "inf", "+inf", "-inf".
// The input is one JSON array of such objects (what the tool writes) or a stream of them
// (JSON Lines); either way it is read one object at a time.

// A JSONReader reads records from JSON.
type JSONReader struct {
	dec    *json.Decoder
	lines  *lineCounter
	array  bool // inside the top-level array
	done   bool
	line   int64
	raw    json.RawMessage
	rec    record.Record
	failed error // a syntax error: the input cannot go on
}

// NewJSONReader returns a reader of the JSON array or JSON Lines in r.
func NewJSONReader(r io.Reader) *JSONReader {
	lc := newLineCounter(r)
	j := &JSONReader{lines: lc, dec: json.NewDecoder(lc)}
	j.dec.UseNumber()
	return j
}

// Line returns the line on which the record last returned starts.
func (j *JSONReader) Line() int64 { return j.line }

// Read returns the next record.
func (j *JSONReader) Read() (*record.Record, error) {
	if j.done || j.failed != nil {
		return nil, io.EOF
	}
	if j.lines.total == 0 && !j.array {
		// The first value decides: an array, or a stream of objects.
		tok, err := j.peekDelim()
		if err != nil {
			return nil, err
		}
		if tok == '[' {
			if _, err := j.dec.Token(); err != nil {
				return nil, j.syntax(err)
			}
			j.array = true
		}
	}
	if j.array && !j.dec.More() {
		if _, err := j.dec.Token(); err != nil { // the closing ]
			return nil, j.syntax(err)
		}
		if _, err := j.dec.Token(); err != io.EOF {
			j.failed = &LineError{Line: j.lines.lineAt(j.dec.InputOffset()), Err: errors.New("JSON: more after the closing ]"), Fatal: true}
			return nil, j.failed
		}
		j.done = true
		return nil, io.EOF
	}
	j.raw = j.raw[:0]
	if err := j.dec.Decode(&j.raw); err != nil {
		if err == io.EOF && !j.array {
			j.done = true
			return nil, io.EOF
		}
		return nil, j.syntax(err)
	}
	end := j.dec.InputOffset()
	j.line = j.lines.lineAt(end - int64(len(j.raw)))
	if err := parseJSONRecord(j.raw, &j.rec); err != nil {
		return nil, &LineError{Line: j.line, Err: err}
	}
	return &j.rec, nil
}

// peekDelim returns the first byte of the input that is not white space, or 0 for none.
func (j *JSONReader) peekDelim() (byte, error) {
	b, err := j.lines.peekNonSpace()
	if err == io.EOF {
		return 0, nil
	}
	return b, err
}

// syntax makes a decoder error a LineError that ends the input.
func (j *JSONReader) syntax(err error) error {
	line := j.lines.lineAt(j.dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line = j.lines.lineAt(se.Offset)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = errors.New("unexpected end of input")
	}
	j.failed = &LineError{Line: line, Err: fmt.Errorf("JSON: %v", err), Fatal: true}
	return j.failed
}

// jsonRecord is the shape of one object.
type jsonRecord struct {
	DB         *json.Number `json:"db"`
	Key        *binString   `json:"key"`
	Type       *string      `json:"type"`
	Expiration *string      `json:"expiration"`
	Value      *binString   `json:"value"`
	Values     *[]binString `json:"values"`
	Members    *[]binString `json:"members"`
	Hash       *binHash     `json:"hash"`
	Entries    *[]jsonEntry `json:"entries"`
}

type jsonEntry struct {
	Member *binString      `json:"member"`
	Score  json.RawMessage `json:"score"`
}

// parseJSONRecord fills rec from one object.
func parseJSONRecord(raw []byte, rec *record.Record) error {
	var o jsonRecord
	if len(raw) == 0 || raw[0] != '{' {
		return errors.New("want a JSON object for each key")
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %q: want %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		return err
	}
	*rec = record.Record{Members: rec.Members[:0]}
	if o.Key == nil {
		return errors.New(`no "key"`)
	}
	rec.Key = *o.Key
	if o.DB != nil {
		db, err := strconv.ParseInt(o.DB.String(), 10, 64)
		if err != nil || db < 0 || db > record.MaxDB {
			return fmt.Errorf(`"db" %s: want a whole number from 0 to %d`, o.DB, record.MaxDB)
		}
		rec.DB = int(db)
	}
	if o.Expiration != nil {
		t, err := time.Parse(time.RFC3339Nano, *o.Expiration)
		if err != nil {
			return fmt.Errorf(`"expiration" %q: want an RFC 3339 time such as 2025-01-02T15:04:05.123Z`, *o.Expiration)
		}
		if rec.ExpireAtMS = t.UnixMilli(); rec.ExpireAtMS <= 0 {
			return fmt.Errorf(`"expiration" %q: before 1970`, *o.Expiration)
		}
	}
	given := map[record.Type]bool{
		record.String: o.Value != nil,
		record.List:   o.Values != nil,
		record.Set:    o.Members != nil,
		record.Hash:   o.Hash != nil,
		record.ZSet:   o.Entries != nil,
	}
	field := map[record.Type]string{record.String: "value", record.List: "values", record.Set: "members", record.Hash: "hash", record.ZSet: "entries"}
	if o.Type != nil {
		rec.Type = record.Type(*o.Type)
		if !rec.Type.Valid() || rec.Type == "" {
			return fmt.Errorf(`"type" %q is not supported (known: string, list, set, hash, zset, stream)`, *o.Type)
		}
		if rec.Type == record.Stream {
			return parseJSONStream(raw, rec)
		}
	} else {
		for _, t := range record.Types {
			if given[t] && t != record.Stream { // a stream is read by its "type" only
				if rec.Type != "" {
					return fmt.Errorf(`both %q and %q: give one, or a "type"`, field[rec.Type], field[t])
				}
				rec.Type = t
			}
		}
		if rec.Type == "" {
			return errors.New(`no "type", and none of value, values, members, hash, entries`)
		}
	}
	if !given[rec.Type] {
		return fmt.Errorf(`a %s needs %q`, rec.Type, field[rec.Type])
	}
	switch rec.Type {
	case record.String:
		rec.Value = *o.Value
	case record.List, record.Set:
		src := o.Values
		if rec.Type == record.Set {
			src = o.Members
		}
		for _, v := range *src {
			rec.Members = append(rec.Members, record.Member{Name: v})
		}
	case record.Hash:
		rec.Members = append(rec.Members, o.Hash.fields...)
	case record.ZSet:
		for k, e := range *o.Entries {
			if e.Member == nil {
				return fmt.Errorf("entries[%d]: no \"member\"", k)
			}
			score, err := parseJSONScore(e.Score)
			if err != nil {
				return fmt.Errorf("entries[%d] %q: %v", k, *e.Member, err)
			}
			rec.Members = append(rec.Members, record.Member{Name: *e.Member, Score: score})
		}
	}
	return nil
}

// parseJSONScore reads a number, or "inf", "+inf", "-inf".
func parseJSONScore(raw json.RawMessage) (float64, error) {
	if len(raw) == 0 {
		return 0, errors.New(`no "score"`)
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		switch s {
		case "inf", "+inf", "Infinity", "+Infinity":
			return math.Inf(1), nil
		case "-inf", "-Infinity":
			return math.Inf(-1), nil
		}
		return 0, fmt.Errorf("score %s: want a number, or \"inf\" or \"-inf\"", raw)
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, fmt.Errorf("score %s: want a number", raw)
	}
	return v, nil
}

// A binString is a JSON string whose bytes are kept as they are: encoding/json would turn
// bytes that are not UTF-8 into U+FFFD.
type binString []byte

// UnmarshalJSON unquotes a JSON string.
func (b *binString) UnmarshalJSON(data []byte) error {
	if len(data) == 0 || data[0] != '"' {
		return fmt.Errorf("want a string, got %s", clip(data))
	}
	s, rest, err := unquote(data)
	if err != nil || len(bytes.TrimSpace(rest)) != 0 {
		return fmt.Errorf("bad string %s", clip(data))
	}
	*b = s
	return nil
}

// A binHash is a JSON object of strings, kept in order and byte for byte.
type binHash struct{ fields []record.Member }

// UnmarshalJSON reads an object whose values are strings.
func (h *binHash) UnmarshalJSON(data []byte) error {
	p := bytes.TrimSpace(data)
	if len(p) == 0 || p[0] != '{' {
		return fmt.Errorf(`"hash": want an object, got %s`, clip(data))
	}
	p = skipSpace(p[1:])
	for len(p) > 0 && p[0] != '}' {
		field, rest, err := unquote(p)
		if err != nil {
			return err
		}
		p = skipSpace(rest)
		if len(p) == 0 || p[0] != ':' {
			return errors.New(`"hash": bad object`)
		}
		p = skipSpace(p[1:])
		if len(p) == 0 || p[0] != '"' {
			return fmt.Errorf(`"hash": field %q: want a string value`, field)
		}
		value, rest, err := unquote(p)
		if err != nil {
			return err
		}
		h.fields = append(h.fields, record.Member{Name: field, Value: value})
		p = skipSpace(rest)
		if len(p) > 0 && p[0] == ',' {
			p = skipSpace(p[1:])
		}
	}
	return nil
}

func skipSpace(p []byte) []byte {
	for len(p) > 0 && (p[0] == ' ' || p[0] == '\t' || p[0] == '\n' || p[0] == '\r') {
		p = p[1:]
	}
	return p
}

// unquote reads the JSON string at the start of p (already checked by the decoder's
// scanner) and returns its bytes and what follows it. Escapes are decoded; other bytes,
// valid UTF-8 or not, are kept.
func unquote(p []byte) (s, rest []byte, err error) {
	if len(p) == 0 || p[0] != '"' {
		return nil, p, errors.New("want a string")
	}
	out := []byte{}
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '"':
			return out, p[i+1:], nil
		case c != '\\':
			out = append(out, c)
			continue
		}
		i++
		if i >= len(p) {
			break
		}
		switch p[i] {
		case '"', '\\', '/':
			out = append(out, p[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, ok := unicodeEscape(p[i-1:])
			if !ok {
				return nil, p, errors.New("bad \\u escape")
			}
			out = utf8.AppendRune(out, r)
			i += n - 2
		default:
			return nil, p, fmt.Errorf("bad escape \\%c", p[i])
		}
	}
	return nil, p, errors.New("unterminated string")
}

// unicodeEscape decodes \uXXXX, or a surrogate pair \uD83D\uDE00, at the start of p, and
// returns the rune and the bytes it took.
func unicodeEscape(p []byte) (rune, int, bool) {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(p)
	if !ok {
		return 0, 0, false
	}
	if r >= 0xd800 && r < 0xdc00 {
		if r2, ok := hex4(p[6:]); ok && r2 >= 0xdc00 && r2 < 0xe000 {
			return (r-0xd800)<<10 + (r2 - 0xdc00) + 0x10000, 12, true
		}
		return 0xfffd, 6, true
	}
	if r >= 0xdc00 && r < 0xe000 {
		return 0xfffd, 6, true
	}
	return r, 6, true
}

// clip shortens data for a message.
func clip(data []byte) string {
	if len(data) > 40 {
		return string(data[:40]) + "…"
	}
	return string(data)
}
