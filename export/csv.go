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
	if n := len(b); w.expire > 0 {
		if b = appendTime(b, w.expire); b[n] == '"' { // the time without its quotes
			copy(b[n:], b[n+1:len(b)-1])
			b = b[:len(b)-2]
		}
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
	// Quote it: room for the quotes around it and one more for each inside, then the bytes
	// moved from the end.
	quotes := 0
	for _, c := range inner {
		if c == '"' {
			quotes++
		}
	}
	n := len(inner)
	b = append(b, make([]byte, quotes)...) // the two quotes around it take those of the JSON string
	out := b[start:]
	out[len(out)-1] = '"'
	j := len(out) - 2
	for i := n - 1; i >= 0; i-- {
		c := out[1+i]
		out[j] = c
		j--
		if c == '"' {
			out[j] = '"'
			j--
		}
	}
	out[0] = '"'
	return b
}
