package decoder

import (
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// Redis 8.10's hash templates (RDB 15): a hash whose field names a template holds once, its
// values alone in the key. FORMATS.md names the source these layouts follow (rdbSaveObject,
// rdbLoadObject, rdbSaveHashTemplates in src/rdb.c). Nothing of a template hash is lost in
// an ordinary hash record: each is read as one, its fields in the template's order.
//
//   - opcode 242 (RDB_OPCODE_HASH_TEMPLATE), before the keyspace, once per template: its id
//     (a length), the number of fields (a length), the field names (strings);
//   - type 29 (TMPL_LP, self-contained, as DUMP writes it): the field names (below), then a
//     listpack whose first entry is the template's id, then one value per field;
//   - type 30 (TMPL_LP_REF, as a save writes it): that listpack alone, its id one of the
//     registry's;
//   - type 31 (TMPL_ARRAY, self-contained): the field names, then one string per field;
//   - type 32 (TMPL_ARRAY_REF): the template's id (a length), then one string per field.
//
// The field names of types 29 and 31: a length, 0 for a listpack of the names, 1 for a
// count then the names as strings.

const (
	hashTmplLP       = 29
	hashTmplLPRef    = 30
	hashTmplArray    = 31
	hashTmplArrayRef = 32

	tmplFieldsLP  = 0
	tmplFieldsRaw = 1
)

var errBadTemplate = fmt.Errorf("%w hash template", ErrCorrupt)

// readHashTemplate reads opcode 242 into the registry.
func (rd *Reader) readHashTemplate() error {
	id, err := rd.in.plainLength()
	if err != nil {
		return err
	}
	if _, ok := rd.templates[id]; ok {
		return fmt.Errorf("%w %d twice", errBadTemplate, id)
	}
	fields, err := rd.templateFieldList()
	if err != nil {
		return fmt.Errorf("template %d: %w", id, err)
	}
	if rd.templates == nil {
		rd.templates = map[uint64][][]byte{}
	}
	rd.templates[id] = fields
	return nil
}

// templateFieldList reads a count and that many distinct field names.
func (rd *Reader) templateFieldList() ([][]byte, error) {
	n, err := rd.in.plainLength()
	if err != nil {
		return nil, err
	}
	if n == 0 || n > 1<<24 {
		return nil, fmt.Errorf("%w of %d fields", errBadTemplate, n)
	}
	fields := make([][]byte, 0, min(n, 1024))
	for range n {
		if rd.a, err = rd.in.str(rd.a, &rd.lzf); err != nil {
			return nil, err
		}
		fields = append(fields, append([]byte(nil), rd.a...))
	}
	return fields, checkTemplateFields(fields)
}

// checkTemplateFields refuses a field name twice: the template would make a hash repeat it.
func checkTemplateFields(fields [][]byte) error {
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[string(f)] {
			return fmt.Errorf("%w: field %q twice", errBadTemplate, f)
		}
		seen[string(f)] = true
	}
	return nil
}

// template returns the registry's template id.
func (rd *Reader) template(id uint64) ([][]byte, error) {
	f, ok := rd.templates[id]
	if !ok {
		return nil, fmt.Errorf("%w %d: not in the file's templates (opcode 242)", errBadTemplate, id)
	}
	return f, nil
}

// templateFields reads the field names of a self-contained template hash (types 29, 31).
func (rd *Reader) templateFields() ([][]byte, error) {
	format, err := rd.in.plainLength()
	if err != nil {
		return nil, err
	}
	switch format {
	case tmplFieldsRaw:
		return rd.templateFieldList()
	case tmplFieldsLP:
	default:
		return nil, fmt.Errorf("%w: field names in format %d (known: 0 listpack, 1 strings)", errBadTemplate, format)
	}
	if rd.b, err = rd.in.str(rd.b, &rd.lzf); err != nil {
		return nil, err
	}
	var it packIter
	if err := it.open(kindListpack, rd.b); err != nil {
		return nil, err
	}
	var fields [][]byte
	for {
		s, v, isInt, ok := it.next()
		if !ok {
			break
		}
		if isInt {
			s = strconv.AppendInt(nil, v, 10)
		}
		fields = append(fields, append([]byte(nil), s...))
	}
	if it.err != nil {
		return nil, it.err
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w of no fields", errBadTemplate)
	}
	return fields, checkTemplateFields(fields)
}

// readTemplateHash reads a hash of type 29 to 32 into an ordinary hash record.
func (rd *Reader) readTemplateHash(t byte, exp int64, sink record.Sink) error {
	var fields [][]byte
	var err error
	switch t {
	case hashTmplLP, hashTmplArray:
		fields, err = rd.templateFields()
	case hashTmplArrayRef:
		var id uint64
		if id, err = rd.in.plainLength(); err == nil {
			fields, err = rd.template(id)
		}
	}
	if err != nil {
		return err
	}
	if t == hashTmplArray || t == hashTmplArrayRef {
		if err := rd.begin(sink, 4, uint64(len(fields)), exp, false); err != nil {
			return err
		}
		for _, f := range fields {
			if rd.b, err = rd.in.str(rd.b, &rd.lzf); err != nil {
				return err
			}
			if err := rd.templateMember(sink, f, rd.b); err != nil {
				return err
			}
		}
		return rd.endCollection(4, sink)
	}
	// Types 29 and 30: a listpack of the template's id, then the values.
	if rd.b, err = rd.in.str(rd.b, &rd.lzf); err != nil {
		return err
	}
	var it packIter
	if err := it.open(kindListpack, rd.b); err != nil {
		return err
	}
	_, id, isInt, ok := it.next()
	switch {
	case !ok && it.err != nil:
		return it.err
	case !ok || !isInt || id < 0:
		return fmt.Errorf("%w: the values' listpack does not start with a template id", errBadTemplate)
	}
	if t == hashTmplLPRef {
		if fields, err = rd.template(uint64(id)); err != nil {
			return err
		}
	}
	if it.count >= 0 && it.count != len(fields)+1 {
		return fmt.Errorf("%w: %d values for %d fields", errBadTemplate, it.count-1, len(fields))
	}
	if err := rd.begin(sink, 4, uint64(len(fields)), exp, false); err != nil {
		return err
	}
	var num []byte
	for i, f := range fields {
		s, v, isInt, ok := it.next()
		if !ok {
			if it.err != nil {
				return it.err
			}
			return fmt.Errorf("%w: %d values for %d fields", errBadTemplate, i, len(fields))
		}
		if isInt {
			num = strconv.AppendInt(num[:0], v, 10)
			s = num
		}
		if err := rd.templateMember(sink, f, s); err != nil {
			return err
		}
	}
	if _, _, _, ok := it.next(); ok || it.err != nil {
		if it.err != nil {
			return it.err
		}
		return fmt.Errorf("%w: more values than the template's %d fields", errBadTemplate, len(fields))
	}
	return rd.endCollection(4, sink)
}

// templateMember passes on one field of a template hash.
func (rd *Reader) templateMember(sink record.Sink, field, value []byte) error {
	if err := rd.checkMember(4, field); err != nil {
		return err
	}
	if err := rd.add(sink, field, value, 0, 0); err != nil {
		return err
	}
	return rd.member()
}
