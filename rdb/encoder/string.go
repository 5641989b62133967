package encoder

import "encoding/binary"

// Special string encodings (the 11xxxxxx length forms of rdbSaveLen).
const (
	encInt8  = 0xc0
	encInt16 = 0xc1
	encInt32 = 0xc2
	encLZF   = 0xc3
)

// minCompressLen is the shortest string Redis tries to compress (rdbSaveRawString: len > 20).
const minCompressLen = 21

// maxIntLen is the longest string that can be an int32's canonical form: "-2147483648".
const maxIntLen = 11

// appendString appends s the way Redis's rdbSaveRawString does: as an 8, 16 or 32-bit integer
// when s is the canonical form of one, LZF-compressed when compression is on, s is longer than
// 20 bytes and compression saves at least 4 bytes, and as a length-prefixed string otherwise.
// Its common case, a string too long to be an integer and too short to compress (12 to 20
// bytes: a 1-byte length and the bytes), is inlined into the caller.
func (w *Writer) appendString(b, s []byte) []byte {
	if uint(len(s)-maxIntLen-1) < minCompressLen-maxIntLen-1 { // maxIntLen < len(s) < minCompressLen
		return append(append(b, byte(len(s))), s...)
	}
	return w.appendStringSlow(b, s)
}

// isShort reports whether s is 12 to 16 bytes long: too long to be an integer, too short to
// compress, and as long as the keys of the default dataset.
func isShort(s []byte) bool { return uint(len(s)-maxIntLen-1) < 16-maxIntLen }

// appendShort appends a short string (isShort) to b, which has room for it: a 1-byte length
// and the bytes, copied as two overlapping 8-byte words rather than by a call to memmove,
// which cost a tenth of the default dataset's time (BenchmarkDefaultDatasetCPU).
func appendShort(b, s []byte) []byte {
	n := len(b)
	b = b[:n+1+len(s)]
	b[n] = byte(len(s))
	binary.LittleEndian.PutUint64(b[n+1:], binary.LittleEndian.Uint64(s))
	binary.LittleEndian.PutUint64(b[len(b)-8:], binary.LittleEndian.Uint64(s[len(s)-8:]))
	return b
}

// appendStringSlow is appendString for every length.
func (w *Writer) appendStringSlow(b, s []byte) []byte {
	if len(s) <= maxIntLen {
		if v, ok := parseInt32(s); ok {
			return appendInt(b, v)
		}
	}
	if w.lzf != nil && len(s) >= minCompressLen {
		if out, ok := w.appendLZF(b, s); ok {
			return out
		}
	}
	b = appendLength(b, uint64(len(s)))
	return append(b, s...)
}

// appendLZF appends s as an LZF string if that takes at least 4 bytes less than s itself.
func (w *Writer) appendLZF(b, s []byte) ([]byte, bool) {
	// The compressed bytes go after room for the header, then the header is filled in: both
	// lengths take at most 5 bytes each for the sizes Redis accepts (under 4 GiB).
	if uint64(len(s)) > 1<<32-1 {
		return b, false
	}
	const room = 1 + 5 + 5
	start := len(b)
	b = append(b, make([]byte, room)...)
	out, ok := w.lzf.Compress(b, s, len(s)-4)
	if !ok {
		return b[:start], false
	}
	clen := len(out) - start - room
	hdr := appendLength(appendLength(append(w.scratch[:0], encLZF), uint64(clen)), uint64(len(s)))
	// Move the compressed bytes down next to the real header.
	n := copy(out[start:], hdr)
	copy(out[start+n:], out[start+room:])
	return out[:start+n+clen], true
}

// appendInt appends v in the smallest integer string encoding; v must fit in int32.
func appendInt(b []byte, v int64) []byte {
	switch {
	case v >= -1<<7 && v <= 1<<7-1:
		return append(b, encInt8, byte(v))
	case v >= -1<<15 && v <= 1<<15-1:
		return append(b, encInt16, byte(v), byte(v>>8))
	default:
		return append(b, encInt32, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
}

// parseInt32 reports whether s is the canonical decimal form of an int32 (no sign other than a
// leading '-', no leading zeros, not "-0"), the strings Redis stores as integers.
func parseInt32(s []byte) (int64, bool) {
	if len(s) == 0 || len(s) > maxIntLen {
		return 0, false
	}
	neg := s[0] == '-'
	d := s
	if neg {
		d = s[1:]
	}
	if len(d) == 0 || len(d) > 10 || (d[0] == '0' && (len(d) > 1 || neg)) {
		return 0, false
	}
	var v int64
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, false
	}
	return v, true
}
