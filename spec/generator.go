package spec

import (
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/rdbgen/rdbgen/internal/draw"
)

// A generator makes one value of a record: a string value, a hash field or value, a member
// or a score.
type generator interface {
	// appendTo appends the value for the record and member that c describes.
	appendTo(dst []byte, c *evalCtx) []byte
	// numeric reports whether every value is a number (a JSON number, a usable score).
	numeric() bool
	// unique reports whether distinct member numbers always give distinct values.
	unique() bool
}

// evalCtx is what a generator may depend on: the family, the record and member numbers, and
// a random stream seeded from (seed, family, field, record, member) by the caller.
type evalCtx struct {
	f      *Family
	i      uint64 // record index
	j      uint64 // member index, within a collection
	member bool   // the value belongs to a collection member (sequence counts j, not i)
	rnd    *source
	faker  *gofakeit.Faker // draws from rnd
}

// constGen is a literal.
type constGen struct {
	text []byte
	num  bool
}

func (g *constGen) appendTo(dst []byte, _ *evalCtx) []byte { return append(dst, g.text...) }
func (g *constGen) numeric() bool                          { return g.num }
func (g *constGen) unique() bool                           { return false }

// idGen is the text that replaced the placeholder in the record's key.
type idGen struct{ f *Family }

func (g *idGen) appendTo(dst []byte, c *evalCtx) []byte { return c.f.appendID(dst, c.i) }
func (g *idGen) numeric() bool                          { return g.f.key.slot == slotID }
func (g *idGen) unique() bool                           { return false }

// keyGen is the record's key.
type keyGen struct{}

func (keyGen) appendTo(dst []byte, c *evalCtx) []byte { return c.f.AppendKey(dst, c.i) }
func (keyGen) numeric() bool                          { return false }
func (keyGen) unique() bool                           { return false }

// seqGen counts: start + step·k, where k is the member number inside a collection and the
// record number elsewhere.
type seqGen struct{ start, step int64 }

func (g *seqGen) appendTo(dst []byte, c *evalCtx) []byte {
	k := c.i
	if c.member {
		k = c.j
	}
	if v, ok := seqValue(g.start, g.step, k); ok {
		return strconv.AppendInt(dst, v, 10)
	}
	// Past the int64 range: the exact number, so that values never wrap around and repeat.
	var v big.Int
	v.SetUint64(k)
	v.Mul(&v, big.NewInt(g.step))
	v.Add(&v, big.NewInt(g.start))
	return v.Append(dst, 10)
}

// seqValue returns start + step·k, and false when it does not fit an int64.
func seqValue(start, step int64, k uint64) (int64, bool) {
	if k > math.MaxInt64 {
		return start, step == 0
	}
	ki := int64(k)
	p := step * ki
	if ki != 0 && p/ki != step {
		return 0, false
	}
	v := start + p
	if (p > 0 && v < start) || (p < 0 && v > start) {
		return 0, false
	}
	return v, true
}
func (g *seqGen) numeric() bool { return true }
func (g *seqGen) unique() bool  { return g.step != 0 }

// intGen draws an integer in [min, max].
type intGen struct{ min, max int64 }

func (g *intGen) appendTo(dst []byte, c *evalCtx) []byte {
	span := uint64(g.max - g.min)
	if span == math.MaxUint64 {
		return strconv.AppendInt(dst, int64(c.rnd.Uint64()), 10)
	}
	return strconv.AppendInt(dst, g.min+int64(c.rnd.below(span+1)), 10)
}
func (g *intGen) numeric() bool { return true }
func (g *intGen) unique() bool  { return false }

// floatGen draws a number in [min, max) with a fixed number of decimals.
type floatGen struct {
	min, max float64
	decimals int
}

func (g *floatGen) appendTo(dst []byte, c *evalCtx) []byte {
	v := g.min + (g.max-g.min)*c.rnd.float()
	return strconv.AppendFloat(dst, v, 'f', g.decimals, 64)
}
func (g *floatGen) numeric() bool { return true }
func (g *floatGen) unique() bool  { return false }

// stringGen draws characters of an alphabet, its length in [min, max].
type stringGen struct {
	min, max int
	alphabet string
}

func (g *stringGen) appendTo(dst []byte, c *evalCtx) []byte {
	n := g.min
	if g.max > g.min {
		n += int(c.rnd.below(uint64(g.max - g.min + 1)))
	}
	for range n {
		dst = append(dst, g.alphabet[c.rnd.below(uint64(len(g.alphabet)))])
	}
	return dst
}
func (g *stringGen) numeric() bool { return false }
func (g *stringGen) unique() bool  { return false }

// choiceGen picks one of its values, with weights when given.
type choiceGen struct {
	values [][]byte
	cum    []uint64 // cumulative weights, or nil for equal ones
	num    bool
}

func (g *choiceGen) appendTo(dst []byte, c *evalCtx) []byte {
	if g.cum == nil {
		return append(dst, g.values[c.rnd.below(uint64(len(g.values)))]...)
	}
	r := c.rnd.below(g.cum[len(g.cum)-1])
	k := 0
	for g.cum[k] <= r {
		k++
	}
	return append(dst, g.values[k]...)
}
func (g *choiceGen) numeric() bool { return g.num }
func (g *choiceGen) unique() bool  { return false }

// uuidGen draws a random version-4 UUID.
type uuidGen struct{}

func (uuidGen) appendTo(dst []byte, c *evalCtx) []byte {
	var u [16]byte
	putUint64(u[0:8], c.rnd.Uint64())
	putUint64(u[8:16], c.rnd.Uint64())
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return appendUUID(dst, u)
}
func (uuidGen) numeric() bool { return false }
func (uuidGen) unique() bool  { return false }

// Timestamp formats besides Go layouts.
const (
	tsUnix   = "unix"
	tsUnixMS = "unix_ms"
)

// timestampGen draws a time in [from, to], in ms; relative ends count from the base time.
type timestampGen struct {
	from, to       int64 // ms
	fromRel, toRel bool  // relative to the base time
	format         string
}

func (g *timestampGen) appendTo(dst []byte, c *evalCtx) []byte {
	from, to := g.from, g.to
	if g.fromRel {
		from += c.f.base
	}
	if g.toRel {
		to += c.f.base
	}
	ms := from
	if to > from {
		ms += int64(c.rnd.below(uint64(to-from) + 1))
	}
	switch g.format {
	case tsUnix:
		return strconv.AppendInt(dst, floorDiv(ms, 1000), 10)
	case tsUnixMS:
		return strconv.AppendInt(dst, ms, 10)
	}
	return time.UnixMilli(ms).UTC().AppendFormat(dst, g.format)
}
func (g *timestampGen) numeric() bool { return g.format == tsUnix || g.format == tsUnixMS }
func (g *timestampGen) unique() bool  { return false }

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// fakeGen draws realistic text from gofakeit.
type fakeGen struct {
	fn func(*gofakeit.Faker) string
}

func (g *fakeGen) appendTo(dst []byte, c *evalCtx) []byte { return append(dst, g.fn(c.faker)...) }
func (g *fakeGen) numeric() bool                          { return false }
func (g *fakeGen) unique() bool                           { return false }

// concatGen joins the values of its parts. Each part draws from its own stream.
type concatGen struct{ parts []generator }

func (g *concatGen) appendTo(dst []byte, c *evalCtx) []byte {
	base := c.rnd.state
	for k, p := range g.parts {
		c.rnd.state = draw.Mix(base, uint64(k))
		dst = p.appendTo(dst, c)
	}
	return dst
}
func (g *concatGen) numeric() bool { return false }

// unique: one part is unique and the others are literals, so the values differ where it does.
func (g *concatGen) unique() bool {
	uniq := 0
	for _, p := range g.parts {
		switch {
		case p.unique():
			uniq++
		case !isConst(p):
			return false
		}
	}
	return uniq == 1
}

func isConst(g generator) bool {
	_, ok := g.(*constGen)
	return ok
}
