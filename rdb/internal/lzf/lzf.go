// Package lzf compresses and expands LZF data as Redis stores long strings in RDB files: a
// compressor whose output liblzf's lzf_decompress (the one Redis links) reads back, for the
// writer, and a decompressor, for the reader.
//
// The format is a sequence of runs, each opened by a control byte:
//   - 000LLLLL: L+1 literal bytes follow (1 to 32);
//   - LLLooooo oooooooo: a back reference of length L+2 (L 1 to 6) at distance o+1 (up to 8192);
//   - 111ooooo LLLLLLLL oooooooo: a back reference of length L+9 (up to 264).
//
// The compressor is greedy over a hash table of 3-byte prefixes, like liblzf's. The table keeps
// positions offset by a running base, so that entries from earlier calls are recognised as stale
// without clearing the table for every value.
package lzf

const (
	hashLog    = 14
	maxLiteral = 1 << 5
	maxOffset  = 1 << 13
	maxRef     = (1 << 8) + (1 << 3) // 264: 7 + 255 + 2
)

// A Compressor compresses one input at a time, keeping its hash table from one to the next.
// The zero value is ready to use.
type Compressor struct {
	table [1 << hashLog]uint32
	base  uint32 // table entries below base belong to earlier inputs
}

func hash(v uint32) uint32 { return (v * 2654435761) >> (32 - hashLog) }

// Compress appends the LZF form of in to dst if it takes at most limit bytes, and reports
// whether it did; dst is returned unchanged when it did not fit.
func (c *Compressor) Compress(dst, in []byte, limit int) ([]byte, bool) {
	if len(in) < 4 || limit <= 0 {
		return dst, false
	}
	if uint64(c.base)+uint64(len(in))+1 >= 1<<32-1 {
		c.table = [1 << hashLog]uint32{}
		c.base = 0
	}
	base := c.base + 1 // entries are base+position, so 0 and older bases are never valid
	c.base = base + uint32(len(in))

	start := len(dst)
	max := start + limit
	out := dst
	litStart := 0 // first input byte of the pending literal run
	ip := 0
	n := len(in)
	for ip+2 < n {
		v := uint32(in[ip])<<16 | uint32(in[ip+1])<<8 | uint32(in[ip+2])
		h := hash(v)
		entry := c.table[h]
		c.table[h] = base + uint32(ip)
		if entry < base {
			ip++
			continue
		}
		ref := int(entry - base)
		off := ip - ref - 1
		if off >= maxOffset || in[ref] != in[ip] || in[ref+1] != in[ip+1] || in[ref+2] != in[ip+2] {
			ip++
			continue
		}
		// A match of at least 3 bytes: extend it.
		maxLen := n - ip
		if maxLen > maxRef {
			maxLen = maxRef
		}
		l := 3
		for l < maxLen && in[ref+l] == in[ip+l] {
			l++
		}
		// Flush the pending literals, then the back reference.
		var ok bool
		if out, ok = appendLiterals(out, in[litStart:ip], max); !ok {
			return dst[:start], false
		}
		if len(out)+3 > max {
			return dst[:start], false
		}
		code := l - 2
		if code < 7 {
			out = append(out, byte(code<<5|off>>8), byte(off))
		} else {
			out = append(out, byte(7<<5|off>>8), byte(code-7), byte(off))
		}
		// Index the positions inside the match so later data can refer to them.
		end := ip + l
		for p := ip + 1; p < end && p+2 < n; p++ {
			c.table[hash(uint32(in[p])<<16|uint32(in[p+1])<<8|uint32(in[p+2]))] = base + uint32(p)
		}
		ip = end
		litStart = ip
	}
	out, ok := appendLiterals(out, in[litStart:], max)
	if !ok {
		return dst[:start], false
	}
	return out, true
}

// appendLiterals appends lit as literal runs, failing if the result would pass max bytes.
func appendLiterals(out, lit []byte, max int) ([]byte, bool) {
	for len(lit) > 0 {
		k := min(len(lit), maxLiteral)
		if len(out)+1+k > max {
			return out, false
		}
		out = append(out, byte(k-1))
		out = append(out, lit[:k]...)
		lit = lit[k:]
	}
	return out, true
}
