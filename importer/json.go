package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rdbgen/rdbgen/internal/gz"
	"io"
	"math"
	"slices"
	"strconv"

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
// size is ignored, and so is encoding but for a sorted set's skiplist (see
// skiplistEncodings); db defaults to 0; a missing type is inferred from the field that
// holds the value. Strings keep any bytes that are not valid UTF-8 as they are, since
// the tool writes binary values raw. Scores may also be the strings "inf", "+inf", "-inf".
// What rdbgen's export adds to these objects is read too (see json_export.go). The input is
// one JSON array of such objects (what the tool writes) or a stream of them (JSON Lines);
// either way it is read one object at a time.

// A JSONReader reads records from JSON.
type JSONReader struct {
	s         *jsonScanner
	started   bool // the first value was looked at
	array     bool // inside the top-level array
	needComma bool // an element of the array was read: a comma or ] comes next
	done      bool
	line      int64
	raw       []byte
	rec       record.Record
	failed    error  // a syntax error: the input cannot go on
	elements  []byte // the JSON array of a long list whose elements stay in raw
	streamed  uint64 // their number; 0 when the record holds its members
}

// StreamListsOver is the number of elements above which a list's elements stay in the
// input instead of the record (see MemberStreamer): a record.Member takes several times the
// bytes of a short element.
const StreamListsOver = 1 << 16

// NewJSONReader returns a reader of the JSON array or JSON Lines in r. It holds one record
// at a time, as the bytes of its JSON text; the strings of the record returned are parts of
// them when they hold no escapes. A list of more than StreamListsOver elements comes with
// no Members: write them with WriteMembers (the reader is a MemberStreamer; Copy does so).
func NewJSONReader(r io.Reader) *JSONReader {
	return &JSONReader{s: newJSONScanner(r)}
}

// Line returns the line on which the record last returned starts.
func (j *JSONReader) Line() int64 { return j.line }

// Read returns the next record.
func (j *JSONReader) Read() (*record.Record, error) {
	if j.done || j.failed != nil {
		return nil, io.EOF
	}
	c, ok := j.s.next()
	if !j.started {
		// The first value decides: an array, or a stream of objects.
		j.started = true
		if ok && c == '[' {
			j.s.consume()
			j.array = true
			c, ok = j.s.next()
		}
	}
	if j.array {
		if ok && c == ']' {
			j.s.consume()
			if _, more := j.s.next(); more {
				return nil, j.fail(j.s.line, errors.New("JSON: more after the closing ]"))
			}
			if j.s.err != nil {
				return nil, j.fail(j.s.line, j.readError())
			}
			j.done = true
			return nil, io.EOF
		}
		if ok && j.needComma {
			if c != ',' {
				return nil, j.fail(j.s.line, fmt.Errorf("JSON: invalid character %q after array element", c))
			}
			j.s.consume()
			c, ok = j.s.next()
		}
		if ok && c == ']' {
			return nil, j.fail(j.s.line, errors.New("JSON: invalid character ']' looking for beginning of value"))
		}
		if !ok {
			if j.s.err != nil {
				return nil, j.fail(j.s.line, j.readError())
			}
			return nil, j.fail(j.s.lastLine, errCutShort)
		}
	} else if !ok {
		if j.s.err != nil {
			return nil, j.fail(j.s.line, j.readError())
		}
		j.done = true
		return nil, io.EOF
	}
	start := j.s.line
	var complete bool
	j.raw, complete = j.s.value(j.raw[:0])
	switch {
	case j.s.err != nil:
		return nil, j.fail(j.s.line, j.readError())
	case !complete:
		return nil, j.fail(start, errCutShort)
	case !json.Valid(j.raw):
		return nil, j.fail(syntaxError(j.raw, start))
	}
	j.needComma = true
	j.line = start
	j.elements, j.streamed = nil, 0
	if err := parseJSONRecord(j.raw, &j.rec, j); err != nil {
		return nil, &LineError{Line: j.line, Err: err}
	}
	return &j.rec, nil
}

// errCutShort is the problem of input that ends inside a record or the array.
var errCutShort = errors.New("JSON: unexpected end of input (the input is cut short)")

// fail ends the input with err at line.
func (j *JSONReader) fail(line int64, err error) error {
	j.failed = &LineError{Line: line, Err: err, Fatal: true}
	return j.failed
}

// readError is the read error of the input, as it is when it says what went wrong with
// compressed input.
func (j *JSONReader) readError() error {
	if errors.Is(j.s.err, gz.ErrDamaged) {
		return j.s.err
	}
	return fmt.Errorf("read: %w", j.s.err)
}

// jsonRecord holds the fields of one object, each the part of the input that holds its
// value; nil when the field is missing or null. The values are read from the input without
// copies (see unquote): encoding/json is not used on records, since its Unmarshal allocates
// several times the size of a large record.
type jsonRecord struct {
	DB, Key, Type, Expiration, Value, Values, Members, Hash, Entries []byte
	FieldExpirations, Encoding                                       []byte
}

// read fills o from the object raw, refusing a field given twice, of which encoding/json
// would silently keep the last.
func (o *jsonRecord) read(raw []byte) error {
	var names [][]byte
	return eachField(raw, func(name, value []byte) error {
		for _, n := range names {
			if bytes.Equal(n, name) {
				return fmt.Errorf("field %q given twice", name)
			}
		}
		names = append(names, name)
		if string(value) == "null" {
			return nil
		}
		switch string(name) {
		case "db":
			o.DB = value
		case "key":
			o.Key = value
		case "type":
			o.Type = value
		case "expiration":
			o.Expiration = value
		case "value":
			o.Value = value
		case "values":
			o.Values = value
		case "members":
			o.Members = value
		case "hash":
			o.Hash = value
		case "entries":
			o.Entries = value
		case "fieldExpirations":
			o.FieldExpirations = value
		case "encoding":
			o.Encoding = value
		}
		return nil
	})
}

// StreamedMembers returns the number of elements of the last record, a list, that are left
// in the input for WriteMembers; 0 when the record holds its members.
func (j *JSONReader) StreamedMembers() uint64 { return j.streamed }

// WriteMembers adds the elements that StreamedMembers counts to the list open in sink.
func (j *JSONReader) WriteMembers(sink record.Sink) error {
	var m record.Member
	return eachElement(j.elements, func(elem []byte) error {
		s, err := str(elem)
		if err != nil {
			return err
		}
		m.Name = s
		return sink.Add(&m)
	})
}

// parseJSONRecord fills rec from one object. A list of more than StreamListsOver elements
// is left in j, when j is not nil, instead of rec.Members.
func parseJSONRecord(raw []byte, rec *record.Record, j *JSONReader) error {
	var o jsonRecord
	if len(raw) == 0 || raw[0] != '{' {
		return errors.New("want a JSON object for each key")
	}
	if err := o.read(raw); err != nil {
		return err
	}
	*rec = record.Record{Members: rec.Members[:0]}
	switch string(o.Type) {
	case `"function"`:
		return parseJSONFunction(raw, rec)
	case `"module-aux"`:
		return parseJSONModule(raw, rec, true)
	}
	if o.Key == nil {
		return errors.New(`no "key"`)
	}
	var err error
	if rec.Key, err = str(o.Key); err != nil {
		return fmt.Errorf(`"key": %v`, err)
	}
	if o.DB != nil {
		db, err := strconv.ParseInt(string(o.DB), 10, 64)
		if err != nil || db < 0 || db > record.MaxDB {
			return fmt.Errorf(`"db" %s: want a whole number from 0 to %d`, clip(o.DB), record.MaxDB)
		}
		rec.DB = int(db)
	}
	if o.Expiration != nil {
		if rec.ExpireAtMS, err = parseExpiration(o.Expiration); err != nil {
			return fmt.Errorf(`"expiration" %v`, err)
		}
	}
	given := map[record.Type][]byte{
		record.String: o.Value,
		record.List:   o.Values,
		record.Set:    o.Members,
		record.Hash:   o.Hash,
		record.ZSet:   o.Entries,
	}
	field := map[record.Type]string{record.String: "value", record.List: "values", record.Set: "members", record.Hash: "hash", record.ZSet: "entries"}
	if o.Type != nil {
		typ, err := str(o.Type)
		if err != nil {
			return fmt.Errorf(`"type": %v`, err)
		}
		rec.Type = record.Type(typ)
		if !rec.Type.Valid() || rec.Type == "" {
			return fmt.Errorf(`"type" %q is not supported (known: string, list, set, hash, zset, stream, module, module-aux, function)`, typ)
		}
		switch rec.Type {
		case record.Stream:
			return parseJSONStream(raw, rec)
		case record.Module:
			return parseJSONModule(raw, rec, false)
		}
	} else {
		for _, t := range record.Types {
			if given[t] != nil { // a stream is read by its "type" only: it has no entry here
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
	value := given[rec.Type]
	if value == nil {
		return fmt.Errorf(`a %s needs %q`, rec.Type, field[rec.Type])
	}
	switch rec.Type {
	case record.String:
		rec.Value, err = str(value)
	case record.List, record.Set:
		if rec.Type == record.List && j != nil {
			n, err := countStrings(value)
			if err != nil {
				return fmt.Errorf("%q: %v", field[rec.Type], err)
			}
			if n > StreamListsOver {
				j.elements, j.streamed = value, n
				return nil
			}
		}
		if rec.Members, err = appendStrings(rec.Members, value); err != nil {
			err = fmt.Errorf("%q: %v", field[rec.Type], err)
		}
	case record.Hash:
		rec.Members, err = appendHash(rec.Members, value)
		if err == nil && o.FieldExpirations != nil {
			err = applyFieldExpirations(rec.Members, o.FieldExpirations)
		}
	case record.ZSet:
		rec.Members, err = appendEntries(rec.Members, value)
		rec.DoubleScores = skiplistEncodings[string(o.Encoding)]
	}
	return err
}

// skiplistEncodings are the "encoding" values (JSON strings as written) of a sorted set
// whose scores its dump held as doubles, a skiplist (RDB types 3 and 5, as export and
// hdt3213's converter name them): a server that packs such a set into a listpack as it
// loads it holds a -0 score as 0 (record.Header.DoubleScores), and so does the import.
var skiplistEncodings = map[string]bool{`"zset"`: true, `"zset2"`: true, `"skiplist"`: true}

// appendEntries appends the members of the "entries" of a sorted set.
func appendEntries(dst []record.Member, entries []byte) ([]record.Member, error) {
	k := 0
	err := eachElement(entries, func(elem []byte) error {
		var member, score []byte
		if err := eachField(elem, func(name, value []byte) error {
			switch string(name) {
			case "member":
				member = value
			case "score":
				score = value
			}
			return nil
		}); err != nil {
			return fmt.Errorf("entries[%d]: %v", k, err)
		}
		if member == nil {
			return fmt.Errorf("entries[%d]: no \"member\"", k)
		}
		m, err := str(member)
		if err != nil {
			return fmt.Errorf("entries[%d] \"member\": %v", k, err)
		}
		s, err := parseJSONScore(score)
		if err != nil {
			return fmt.Errorf("entries[%d] %q: %v", k, m, err)
		}
		dst = append(dst, record.Member{Name: m, Score: s})
		k++
		return nil
	})
	return dst, err
}

// parseJSONScore reads a number, or "inf", "+inf", "-inf".
func parseJSONScore(raw []byte) (float64, error) {
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

// countStrings counts the elements of the JSON array data, which must all be strings.
func countStrings(data []byte) (uint64, error) {
	var n uint64
	err := eachElement(data, func(elem []byte) error {
		if elem[0] != '"' {
			return fmt.Errorf("want a string, got %s", clip(elem))
		}
		n++
		return nil
	})
	return n, err
}

// appendStrings appends a member for each string of the JSON array data, its bytes a part of
// data when they hold no escapes, after growing dst to the number of elements at once.
func appendStrings(dst []record.Member, data []byte) ([]record.Member, error) {
	p := skipSpace(data)
	if len(p) == 0 || p[0] != '[' {
		return dst, fmt.Errorf("want a list of strings, got %s", clip(p))
	}
	dst = slices.Grow(dst, bytes.Count(p, []byte{'"'})/2) // at least one pair of quotes each
	p = skipSpace(p[1:])
	for len(p) > 0 && p[0] != ']' {
		if p[0] != '"' {
			return dst, fmt.Errorf("want a string, got %s", clip(p))
		}
		s, rest, err := unquote(p)
		if err != nil {
			return dst, err
		}
		dst = append(dst, record.Member{Name: s})
		p = skipSpace(rest)
		if len(p) > 0 && p[0] == ',' {
			p = skipSpace(p[1:])
		}
	}
	return dst, nil
}

// appendHash appends the fields of the JSON object of strings "hash", in order and byte
// for byte.
func appendHash(dst []record.Member, hash []byte) ([]record.Member, error) {
	if p := skipSpace(hash); len(p) == 0 || p[0] != '{' {
		return dst, fmt.Errorf(`"hash": want an object, got %s`, clip(hash))
	}
	err := eachField(hash, func(name, value []byte) error {
		if len(value) == 0 || value[0] != '"' {
			return fmt.Errorf(`"hash": field %q: want a string value`, name)
		}
		v, _, err := unquote(value)
		if err != nil {
			return err
		}
		dst = append(dst, record.Member{Name: name, Value: v})
		return nil
	})
	return dst, err
}
