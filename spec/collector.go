package spec

import (
	"strconv"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A collector is a record.Sink that keeps the one record written to it.
type collector struct{ rec record.Record }

func (c *collector) BeginDB(int, encoder.DBInfo) error { return nil }

func (c *collector) WriteString(key, value []byte, exp int64) error {
	c.rec = record.Record{Key: clone(key), Type: record.String, Value: clone(value), ExpireAtMS: exp}
	return nil
}

func (c *collector) begin(t record.Type, key []byte, n uint64, exp int64) error {
	c.rec = record.Record{Key: clone(key), Type: t, ExpireAtMS: exp, Members: make([]record.Member, 0, min(n, 1<<16))}
	return nil
}

func (c *collector) BeginHash(key []byte, n uint64, exp int64) error {
	return c.begin(record.Hash, key, n, exp)
}
func (c *collector) BeginList(key []byte, n uint64, exp int64) error {
	return c.begin(record.List, key, n, exp)
}
func (c *collector) BeginSet(key []byte, n uint64, exp int64) error {
	return c.begin(record.Set, key, n, exp)
}
func (c *collector) BeginZSet(key []byte, n uint64, exp int64) error {
	return c.begin(record.ZSet, key, n, exp)
}

func (c *collector) AddField(field, value []byte) error {
	c.rec.Members = append(c.rec.Members, record.Member{Name: clone(field), Value: clone(value)})
	return nil
}

func (c *collector) AddElement(e []byte) error {
	c.rec.Members = append(c.rec.Members, record.Member{Name: clone(e)})
	return nil
}

func (c *collector) AddMember(m []byte) error { return c.AddElement(m) }

func (c *collector) AddScoredMember(m []byte, score float64) error {
	c.rec.Members = append(c.rec.Members, record.Member{Name: clone(m), Score: score})
	return nil
}

func (c *collector) EndCollection() error { return nil }

func clone(b []byte) []byte { return append([]byte{}, b...) }

// parseScore reads a numeric generator's output.
func parseScore(b []byte) (float64, error) { return strconv.ParseFloat(string(b), 64) }
