package encoder

import "errors"

var errCorruptLZF = errors.New("corrupt lzf data")

// lzfDecompress expands LZF data that must yield exactly size bytes, as Redis demands.
func lzfDecompress(in []byte, size int) ([]byte, error) {
	out := make([]byte, 0, size)
	for ip := 0; ip < len(in); {
		ctrl := int(in[ip])
		ip++
		if ctrl < lzfMaxLiteral {
			k := ctrl + 1
			if ip+k > len(in) || len(out)+k > size {
				return nil, errCorruptLZF
			}
			out = append(out, in[ip:ip+k]...)
			ip += k
			continue
		}
		l := ctrl >> 5
		if l == 7 {
			if ip >= len(in) {
				return nil, errCorruptLZF
			}
			l += int(in[ip])
			ip++
		}
		if ip >= len(in) {
			return nil, errCorruptLZF
		}
		ref := len(out) - (ctrl&0x1f)<<8 - int(in[ip]) - 1
		ip++
		l += 2
		if ref < 0 || len(out)+l > size {
			return nil, errCorruptLZF
		}
		for k := range l {
			out = append(out, out[ref+k])
		}
	}
	if len(out) != size {
		return nil, errCorruptLZF
	}
	return out, nil
}
