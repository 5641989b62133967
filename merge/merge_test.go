package merge_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/merge"
	"github.com/rdbgen/rdbgen/record"
)

// inputs returns three inputs of n keys each: most keys are one input's own; with shared,
// every 97th of input 1 is also in input 0, every 89th of input 2 in input 1, and the same
// names in db 1 are other keys. Input 2 holds one key twice, a repeat its reader would judge.
func inputs(n int, shared bool) []merge.Input {
	var ins []merge.Input
	for i := range 3 {
		var recs record.Records
		for k := range n {
			key := fmt.Sprintf("in%d:%d", i, k)
			switch {
			case !shared:
			case i == 1 && k%97 == 0:
				key = fmt.Sprintf("in0:%d", k)
			case i == 2 && k%89 == 0:
				key = fmt.Sprintf("in1:%d", k)
			}
			recs = append(recs, record.Record{DB: k % 2, Key: []byte(key), Type: record.String, Value: fmt.Appendf(nil, "%d", i)})
		}
		if i == 2 {
			recs = append(recs, record.Record{Key: []byte("in2:0"), Type: record.String, Value: []byte("again")})
		}
		ins = append(ins, merge.Input{Name: fmt.Sprintf("input%d.rdb", i), Source: recs})
	}
	return ins
}

// expected applies on to ins as the rule says, key by key in a map: the records kept, the
// records left out, or the error's key and inputs.
func expected(ins []merge.Input, on record.OnDuplicate) (kept []string, dropped uint64, dupErr string) {
	type place struct{ first, last int }
	seen := map[string]*place{}
	for i, in := range ins {
		for _, r := range in.Source.(record.Records) {
			id := fmt.Sprintf("%d/%s", r.DB, r.Key)
			p := seen[id]
			if p == nil {
				seen[id] = &place{i, i}
				continue
			}
			if p.first != i && on == record.DupError && dupErr == "" {
				dupErr = fmt.Sprintf("db %d key %q is in %s and %s", r.DB, r.Key, ins[p.first].Name, in.Name)
			}
			p.last = i
		}
	}
	for i, in := range ins {
		for _, r := range in.Source.(record.Records) {
			p := seen[fmt.Sprintf("%d/%s", r.DB, r.Key)]
			if on == record.DupFirst && p.first != i || on == record.DupLast && p.last != i {
				dropped++
				continue
			}
			kept = append(kept, fmt.Sprintf("%d/%s=%s", r.DB, r.Key, r.Value))
		}
	}
	return kept, dropped, dupErr
}

// TestSource: each rule keeps the records a map of every key keeps, in the inputs' order,
// and counts those left out; under DupError the first key two inputs hold is the error,
// naming both; a key repeated inside one input passes (its reader judges it); Describe
// names the inputs and the count.
func TestSource(t *testing.T) {
	for _, c := range []struct {
		on     record.OnDuplicate
		shared bool
	}{{record.DupError, false}, {record.DupError, true}, {record.DupFirst, true}, {record.DupLast, true}, {record.DupLast, false}} {
		on := c.on
		t.Run(fmt.Sprintf("%s/shared=%v", on, c.shared), func(t *testing.T) {
			ins := inputs(5000, c.shared)
			wantKept, wantDropped, wantErr := expected(ins, on)
			src := &merge.Source{Inputs: ins, OnDuplicate: on}
			var out record.Recorder
			err := src.WriteTo(context.Background(), &out)
			if wantErr != "" {
				if !errors.Is(err, merge.ErrDuplicateKey) || !strings.Contains(err.Error(), wantErr) {
					t.Fatalf("error %v, want one with %q", err, wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var kept []string
			for _, r := range out.Records {
				kept = append(kept, fmt.Sprintf("%d/%s=%s", r.DB, r.Key, r.Value))
			}
			if !reflect.DeepEqual(kept, wantKept) || src.Duplicates != wantDropped {
				t.Errorf("%d records kept, %d left out; want %d and %d", len(kept), src.Duplicates, len(wantKept), wantDropped)
			}
			var m manifest.Manifest
			src.Describe(&m)
			want := manifest.Import{Inputs: []string{"input0.rdb", "input1.rdb", "input2.rdb"}, Format: "rdb", Duplicates: wantDropped, OnDup: string(on)}
			if m.Import == nil || !reflect.DeepEqual(*m.Import, want) {
				t.Errorf("manifest import %+v, want %+v", m.Import, want)
			}
		})
	}
}

// failing is an input whose reading fails after its records.
type failing struct{ record.Records }

var errLater = errors.New("later trouble")

func (f failing) WriteTo(ctx context.Context, sink record.Sink) error {
	if err := f.Records.WriteTo(ctx, sink); err != nil {
		return err
	}
	return errLater
}

// TestSourceErrorAfterRepeat: under DupError a key two inputs hold is the error even when
// a later input fails after it (the repeat came first); without the repeat, the failure.
func TestSourceErrorAfterRepeat(t *testing.T) {
	k := record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v")}
	other := record.Record{Key: []byte("other"), Type: record.String, Value: []byte("v")}
	for _, c := range []struct {
		second record.Record
		want   error
	}{{k, merge.ErrDuplicateKey}, {other, errLater}} {
		src := &merge.Source{OnDuplicate: record.DupError, Inputs: []merge.Input{
			{Name: "a.rdb", Source: record.Records{k}},
			{Name: "b.rdb", Source: failing{record.Records{c.second}}},
		}}
		if err := src.WriteTo(context.Background(), &record.Recorder{}); !errors.Is(err, c.want) {
			t.Errorf("second input holding %q: error %v, want %v", c.second.Key, err, c.want)
		}
	}
}
