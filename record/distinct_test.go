package record_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestDistinct: a key that comes again in its db is an error, or its first or last record
// is kept and the others counted; the same name in another db is another key.
func TestDistinct(t *testing.T) {
	recs := record.Records{
		{Key: []byte("k"), Type: record.String, Value: []byte("1")},
		{Key: []byte("x"), Type: record.String, Value: []byte("x")},
		{Key: []byte("k"), Type: record.String, Value: []byte("2")},
		{DB: 1, Key: []byte("k"), Type: record.String, Value: []byte("other db")},
	}
	for _, tt := range []struct {
		on   record.OnDuplicate
		want string
	}{
		{record.DupFirst, "0:k=1 0:x=x 1:k=other db"},
		{record.DupLast, "0:x=x 0:k=2 1:k=other db"},
		{record.DupError, ""},
	} {
		d := &record.Distinct{Src: recs, On: tt.on, What: "a test"}
		var out record.Recorder
		err := d.WriteTo(context.Background(), &out)
		if tt.on == record.DupError {
			if !errors.Is(err, record.ErrDuplicateKey) || err.Error() != `record: duplicate key: a test: db 0 key "k" comes twice (--on-duplicate first or last keeps one)` {
				t.Errorf("error: %v", err)
			}
			continue
		}
		var got string
		for i, r := range out.Records {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%d:%s=%s", r.DB, r.Key, r.Value)
		}
		if err != nil || got != tt.want || d.Duplicates != 1 {
			t.Errorf("%s: %q, %d duplicates, %v; want %q, 1", tt.on, got, d.Duplicates, err, tt.want)
		}
	}
}
