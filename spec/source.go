package spec

import (
	"context"

	"github.com/rdbgen/rdbgen/record"
)

// A spec file is a record.Source that can list its keys and knows its size.
var _ interface {
	record.KeyLister
	record.Sizer
} = (*Spec)(nil)

// Len returns the number of records, Keys().
func (s *Spec) Len() uint64 { return s.Keys() }

// WriteTo writes every record of s into sink, as Generate does.
func (s *Spec) WriteTo(ctx context.Context, sink record.Sink) error {
	return s.Generate(ctx, sink, nil)
}

// ListKeys calls fn with every key of every family, database by database, without
// computing values.
func (s *Spec) ListKeys(ctx context.Context, fn func(db int, key []byte, expires bool)) error {
	dbs, by := s.DBs()
	var key []byte
	var n uint64
	for _, db := range dbs {
		for _, f := range by[db] {
			for i := range f.Keys() {
				key = f.AppendKey(key[:0], i)
				fn(db, key, f.ExpireAtMS(i) > 0)
				if n++; n%progressEvery == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
			}
		}
	}
	return ctx.Err()
}
