package lzf

import "errors"

// ErrCorrupt is returned by Decompress for data that is not LZF or does not expand to the
// stated size.
var ErrCorrupt = errors.New("lzf: invalid compressed data")

// MaxRatio bounds how many times its own size LZF data can expand (a 3-byte back
// reference yields 264 bytes): a reader can refuse a stated size beyond it before allocating.
const MaxRatio = 88

// Decompress appends the expansion of LZF data, which must yield exactly size bytes as
// Redis demands, to dst[:0] and returns it.
func Decompress(dst, in []byte, size int) ([]byte, error) {
	if size < 0 || size > len(in)*MaxRatio {
		return dst[:0], ErrCorrupt
	}
	out := dst[:0]
	if cap(out) < size {
		out = make([]byte, 0, size)
	}
	for ip := 0; ip < len(in); {
		ctrl := int(in[ip])
		ip++
		if ctrl < maxLiteral {
			k := ctrl + 1
			if ip+k > len(in) || len(out)+k > size {
				return out[:0], ErrCorrupt
			}
			out = append(out, in[ip:ip+k]...)
			ip += k
			continue
		}
		l := ctrl >> 5
		if l == 7 {
			if ip >= len(in) {
				return out[:0], ErrCorrupt
			}
			l += int(in[ip])
			ip++
		}
		if ip >= len(in) {
			return out[:0], ErrCorrupt
		}
		ref := len(out) - (ctrl&0x1f)<<8 - int(in[ip]) - 1
		ip++
		l += 2
		if ref < 0 || len(out)+l > size {
			return out[:0], ErrCorrupt
		}
		if ref+l <= len(out) {
			out = append(out, out[ref:ref+l]...)
			continue
		}
		for k := range l {
			out = append(out, out[ref+k])
		}
	}
	if len(out) != size {
		return out[:0], ErrCorrupt
	}
	return out, nil
}
