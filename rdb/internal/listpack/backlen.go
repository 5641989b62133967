package listpack

// BacklenSize returns the bytes of the back-length of an entry of l bytes (its encoding and
// data), as lpEncodeBacklen counts them, with its boundaries: an entry of 16383 bytes takes
// 3, though 2 would hold it, and so do 2097151 and 268435455 take one byte more than they need.
func BacklenSize(l int) int {
	switch {
	case l <= 127:
		return 1
	case l < 16383:
		return 2
	case l < 2097151:
		return 3
	case l < 268435455:
		return 4
	}
	return 5
}

// AppendBacklen appends the size l of an entry's encoding and data: 7 bits a byte, most
// significant first, every byte but the first flagged with the high bit (lpEncodeBacklen,
// including its boundaries).
func AppendBacklen(b []byte, l uint64) []byte {
	switch {
	case l <= 127:
		return append(b, byte(l))
	case l < 16383:
		return append(b, byte(l>>7), byte(l&127)|128)
	case l < 2097151:
		return append(b, byte(l>>14), byte(l>>7&127)|128, byte(l&127)|128)
	case l < 268435455:
		return append(b, byte(l>>21), byte(l>>14&127)|128, byte(l>>7&127)|128, byte(l&127)|128)
	default:
		return append(b, byte(l>>28), byte(l>>21&127)|128, byte(l>>14&127)|128, byte(l>>7&127)|128, byte(l&127)|128)
	}
}

// BacklenIs tells whether bl is the back-length of an entry of l bytes, as lpEncodeBacklen
// writes it: 7-bit groups, the most significant first, all but the first with the high bit.
func BacklenIs(bl []byte, l int) bool {
	if len(bl) == 1 {
		return bl[0] == byte(l)
	}
	for i := len(bl) - 1; i >= 0; i-- {
		want := byte(l & 127)
		if i > 0 {
			want |= 128
		}
		if bl[i] != want {
			return false
		}
		l >>= 7
	}
	return l == 0
}
