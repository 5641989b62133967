package spec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/internal/draw"
)

// Key patterns: literal text with at most one placeholder, {id} or {uuid}; "{{" and "}}"
// stand for literal braces (Redis Cluster hash tags).
//
// Both placeholders make distinct keys from distinct record numbers, so a family's keys are
// unique by construction: {id} is the decimal IDStart+i, and {uuid} is a version-4 UUID whose
// low 62 bits are a keyed bijection of i and whose other random bits are drawn from (seed, i).

type slotKind uint8

const (
	slotNone slotKind = iota // a single fixed key
	slotID                   // {id}
	slotUUID                 // {uuid}
)

// A keyPattern is prefix · placeholder · suffix.
type keyPattern struct {
	text           string // as written
	prefix, suffix string
	slot           slotKind
}

// parseKeyPattern reads a key pattern.
func parseKeyPattern(s string) (keyPattern, error) {
	p := keyPattern{text: s}
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{', c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return p, errors.New(`"{" without a closing "}" (write "{{" for a literal brace)`)
			}
			name := s[i+1 : i+end]
			var kind slotKind
			switch name {
			case "id":
				kind = slotID
			case "uuid":
				kind = slotUUID
			default:
				return p, fmt.Errorf(`unknown placeholder {%s} (known: {id}, {uuid}; write "{{" for a literal brace)`, name)
			}
			if p.slot != slotNone {
				return p, errors.New("more than one placeholder: a key takes one {id} or {uuid}")
			}
			p.slot, p.prefix = kind, lit.String()
			lit.Reset()
			i += end
		case c == '}':
			return p, errors.New(`"}" without an opening "{" (write "}}" for a literal brace)`)
		default:
			lit.WriteByte(c)
		}
	}
	if p.slot == slotNone {
		p.prefix = lit.String()
	} else {
		p.suffix = lit.String()
	}
	if p.slot == slotNone && p.prefix == "" {
		return p, errors.New("empty key")
	}
	return p, nil
}

// appendID appends the text that replaces the placeholder in record i's key.
func (f *Family) appendID(dst []byte, i uint64) []byte {
	switch f.key.slot {
	case slotID:
		return strconv.AppendUint(dst, f.IDStart+i, 10)
	case slotUUID:
		return appendUUID(dst, f.uuidKey(i))
	}
	return dst
}

// AppendKey appends the key of record i.
func (f *Family) AppendKey(dst []byte, i uint64) []byte {
	dst = append(dst, f.key.prefix...)
	dst = f.appendID(dst, i)
	return append(dst, f.key.suffix...)
}

// uuidKey returns the 16 bytes of the {uuid} of record i.
func (f *Family) uuidKey(i uint64) (u [16]byte) {
	hi := draw.Mix(f.seed^saltUUIDHi, i)
	lo := perm62(i, draw.Mix(f.seed, saltUUIDKey))
	putUint64(u[0:8], hi)
	putUint64(u[8:16], lo)
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant 10: the top two bits of lo, which perm62 leaves 0
	return u
}

func putUint64(b []byte, v uint64) {
	for k := 7; k >= 0; k-- {
		b[k] = byte(v)
		v >>= 8
	}
}

func getUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// appendUUID appends u in the 8-4-4-4-12 hex form.
func appendUUID(dst []byte, u [16]byte) []byte {
	var buf [36]byte
	hex.Encode(buf[0:8], u[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], u[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], u[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], u[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], u[10:])
	return append(dst, buf[:]...)
}

// Contains reports whether key is one of the family's keys under the current Params. It
// computes the answer from the key alone, in constant time.
func (f *Family) Contains(key []byte) bool {
	k := f.key
	if len(key) < len(k.prefix)+len(k.suffix) || !bytes.HasPrefix(key, []byte(k.prefix)) || !bytes.HasSuffix(key, []byte(k.suffix)) {
		return false
	}
	mid := key[len(k.prefix) : len(key)-len(k.suffix)]
	switch k.slot {
	case slotNone:
		return len(mid) == 0 && f.count > 0
	case slotID:
		n, ok := parseCanonicalUint(mid)
		return ok && n >= f.IDStart && n-f.IDStart < f.count
	case slotUUID:
		var u [16]byte
		if !parseUUID(mid, &u) {
			return false
		}
		i := unperm62(getUint64(u[8:16])&mask62, draw.Mix(f.seed, saltUUIDKey))
		return i < f.count && f.uuidKey(i) == u
	}
	return false
}

// parseCanonicalUint parses a decimal without sign or leading zeros.
func parseCanonicalUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b), 10, 64)
	return n, err == nil
}

// parseUUID parses the lower-case 8-4-4-4-12 form that appendUUID writes.
func parseUUID(b []byte, u *[16]byte) bool {
	if len(b) != 36 || b[8] != '-' || b[13] != '-' || b[18] != '-' || b[23] != '-' {
		return false
	}
	var h [32]byte
	n := 0
	for i, c := range b {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
		h[n] = c
		n++
	}
	_, err := hex.Decode(u[:], h[:])
	return err == nil
}
