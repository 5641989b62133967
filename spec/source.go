package spec

import (
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// A spec file is a record.Source that can list its keys and knows its size.
var _ interface {
	record.KeyLister
	record.Sizer
} = (*Spec)(nil)

// Len returns the number of records, Keys().
func (s *Spec) Len() uint64 { return s.Keys() }

// ListKeys calls fn with every key of every family, database by database, without
// computing values.
func (s *Spec) ListKeys(ctx context.Context, fn func(db int, key []byte, expires bool)) error {
	return s.ListKeysPart(ctx, 0, 1, fn)
}

// ListKeysPart calls fn with the keys of part part of parts (0 <= part < parts): a
// contiguous share of each family's records, database by database, without computing
// values. The parts may be listed concurrently; together they list every key once.
func (s *Spec) ListKeysPart(ctx context.Context, part, parts int, fn func(db int, key []byte, expires bool)) error {
	if part < 0 || parts < 1 || part >= parts {
		return fmt.Errorf("list keys: part %d of %d", part, parts)
	}
	dbs, by := s.DBs()
	var key []byte
	var n uint64
	for _, db := range dbs {
		for _, f := range by[db] {
			count := f.Keys()
			lo, hi := count*uint64(part)/uint64(parts), count*uint64(part+1)/uint64(parts)
			for i := lo; i < hi; i++ {
				key = f.AppendKey(key[:0], i)
				fn(db, key, f.ExpireAtMS(i) > 0)
				if n++; n%checkEvery == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
			}
		}
	}
	return ctx.Err()
}
