package export

import "strconv"

// endCSV writes the row of the key just read: db, key, type, encoding, bytes, members,
// expiry, memory.
func (w *Writer) endCSV() error {
	d := w.detail()
	b := strconv.AppendInt(w.buf, int64(w.db), 10)
	b = append(b, ',')
	b = appendCSVField(b, w.key)
	b = append(b, ',')
	b = append(b, w.typ...)
	b = append(b, ',')
	b = appendCSVField(b, d.Encoding)
	b = append(b, ',')
	if d.Bytes > 0 {
		b = strconv.AppendInt(b, d.Bytes, 10)
	}
	b = append(b, ',')
	b = strconv.AppendUint(b, w.members, 10)
	b = append(b, ',')
	if w.expire > 0 {
		t := appendTime(nil, w.expire)
		if t[0] == '"' {
			t = t[1 : len(t)-1]
		}
		b = append(b, t...)
	}
	b = append(b, ',')
	if d.Memory > 0 {
		b = strconv.AppendInt(b, d.Memory, 10)
	}
	w.buf = append(b, '\n')
	w.keys++
	w.maybeFlush()
	return w.err
}

// appendCSVField appends s as a CSV field: the inside of its JSON string (see the package
// doc), in double quotes, doubled inside, when it holds a comma, a quote or starts with a
// space (RFC 4180; the JSON escaping leaves no line break).
func appendCSVField[S []byte | string](b []byte, s S) []byte {
	start := len(b)
	b = appendString(b, s)
	inner := b[start+1 : len(b)-1]
	quote := len(inner) > 0 && inner[0] == ' '
	for _, c := range inner {
		if c == ',' || c == '"' {
			quote = true
			break
		}
	}
	if !quote {
		copy(b[start:], inner)
		return b[:start+len(inner)]
	}
	field := append([]byte(nil), inner...)
	b = append(b[:start], '"')
	for _, c := range field {
		if c == '"' {
			b = append(b, '"')
		}
		b = append(b, c)
	}
	return append(b, '"')
}
