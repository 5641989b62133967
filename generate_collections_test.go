package rdbgen_test

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestGenerateCollections writes every collection type for each target family and checks
// that each key holds what record.Record says, the content verify's spot-check compares.
func TestGenerateCollections(t *testing.T) {
	base := time.Now().Add(time.Hour).UnixMilli()
	for _, typ := range []record.Type{record.Hash, record.List, record.Set, record.ZSet} {
		for _, mode := range []dataset.ValueMode{dataset.ValueSame, dataset.ValueRandom} {
			for _, target := range []string{"redis-5.0", "redis-7.0", "redis-7.2", "redis-7.4"} {
				d := dataset.Spec{Count: 60, KeyPrefix: "c:", KeyStart: 1, Type: typ, Members: dataset.Range{Min: 1, Max: 700},
					Value: mode, Seed: 11, TTL: time.Hour, BaseTimeMS: base, DB: 2}
				if mode == dataset.ValueRandom {
					d.ValueSize = 70 // past the listpack value limit: some collections go plain
				}
				t.Run(string(typ)+"/"+string(mode)+"/"+target, func(t *testing.T) {
					var buf bytes.Buffer
					res, err := rdbgen.Write(context.Background(), &buf, &d, rdbgen.Options{Encoder: encoder.Options{Target: target, CheckDuplicates: true}})
					if err != nil {
						t.Fatal(err)
					}
					p := parse(t, buf.Bytes())
					var members uint64
					for i := range d.Count {
						want := d.Record(i)
						members += uint64(len(want.Members))
						o, ok := p.keys[2][string(want.Key)]
						if !ok {
							t.Fatalf("key %q missing", want.Key)
						}
						if got := o.GetExpiration(); got == nil || got.UnixMilli() != want.ExpireAtMS {
							t.Fatalf("key %q expiry %v, want %d", want.Key, got, want.ExpireAtMS)
						}
						checkCollection(t, o, want)
					}
					if res.Stats.Members != members {
						t.Fatalf("stats count %d members, want %d", res.Stats.Members, members)
					}
				})
			}
		}
	}
}

// checkCollection compares a parsed collection with the record the dataset describes.
func checkCollection(t *testing.T, o parser.RedisObject, want record.Record) {
	t.Helper()
	var got, exp []string
	switch o := o.(type) {
	case *parser.HashObject:
		for f, v := range o.Hash {
			got = append(got, f+"="+string(v))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name)+"="+string(m.Value))
		}
	case *parser.ListObject:
		for _, v := range o.Values {
			got = append(got, string(v))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
		if !slices.Equal(got, exp) {
			t.Fatalf("key %q: list differs", want.Key)
		}
	case *parser.SetObject:
		for _, v := range o.Members {
			got = append(got, string(v))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
	case *parser.ZSetObject:
		for _, e := range o.Entries {
			got = append(got, e.Member+"="+formatScore(e.Score))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name)+"="+formatScore(m.Score))
		}
	default:
		t.Fatalf("key %q: unexpected %T", want.Key, o)
	}
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		t.Fatalf("key %q (%s): content differs: %d members, want %d", want.Key, o.GetEncoding(), len(got), len(exp))
	}
}

func formatScore(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
