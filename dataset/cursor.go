package dataset

// A Cursor walks the keys of a dataset in order. It yields the same records as
// AppendKey, AppendValue (for strings) and ExpireAtMS, faster: it counts the key's digits
// up in place.
// The slices it returns are valid until the next call of Next.
type Cursor struct {
	d      *Config
	next   uint64 // number of the record Next moves to
	key    []byte
	digits int // offset of the first digit in key
	value  []byte
	valued bool // value is the current record's
	random bool // values are drawn (ValueRandom), not the keys
}

// Cursor returns a cursor before the first record of d.
func (d *Config) Cursor() *Cursor {
	return &Cursor{d: d, digits: len(d.KeyPrefix), random: d.Value == ValueRandom}
}

// Next moves to the next record and reports whether there was one.
func (c *Cursor) Next() bool {
	if c.next >= c.d.Count {
		return false
	}
	if c.next == 0 {
		c.key = c.d.AppendKey(c.key[:0], 0)
	} else {
		c.increment()
	}
	c.valued = false
	c.next++
	return true
}

// increment adds one to the decimal number at the end of the key.
func (c *Cursor) increment() {
	for i := len(c.key) - 1; i >= c.digits; i-- {
		if c.key[i] != '9' {
			c.key[i]++
			return
		}
		c.key[i] = '0'
	}
	// All nines: one more digit.
	c.key = append(c.key, 0)
	copy(c.key[c.digits+1:], c.key[c.digits:])
	c.key[c.digits] = '1'
}

// Index returns the number of the current record.
func (c *Cursor) Index() uint64 { return c.next - 1 }

// Key returns the key of the current record.
func (c *Cursor) Key() []byte { return c.key }

// Value returns the value of the current record of a string dataset, computed when first
// asked for (a record left out costs no value). Collections have no value: their members
// come from AppendMember and AppendFieldValue.
func (c *Cursor) Value() []byte {
	if !c.random {
		return c.key
	}
	return c.randomValue()
}

// randomValue is Value for a dataset of random values: the value drawn once per record.
// Value keeps only the test, so that it is inlined into the generator's loop.
func (c *Cursor) randomValue() []byte {
	if !c.valued {
		c.value = appendRandom(c.value[:0], c.d.Seed, c.next-1, c.d.ValueSize)
		c.valued = true
	}
	return c.value
}

// ExpireAtMS returns the expiry of the current record in Unix ms, or 0 for none.
func (c *Cursor) ExpireAtMS() int64 { return c.d.ExpireAtMS(c.next - 1) }
