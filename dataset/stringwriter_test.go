package dataset_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// The RDB writer takes strings without a Header.
var _ dataset.StringWriter = (*rdbsink.Writer)(nil)

// beginOnly hides a sink's WriteString: the dataset writes every string through Begin.
type beginOnly struct{ record.Pass }

// TestStringWriter writes string datasets (with and without expiries, with values drawn)
// through WriteString and through Begin: the files are the same, byte for byte.
func TestStringWriter(t *testing.T) {
	for _, d := range []dataset.Config{
		{Count: 1000, KeyPrefix: "key", KeyStart: 1, Value: dataset.ValueSame},
		{Count: 1000, KeyPrefix: "k:", KeyStart: 7, TTL: time.Hour, TTLJitter: time.Minute, Value: dataset.ValueRandom, ValueSize: 40, Seed: 3, BaseTimeMS: 1893456000000},
	} {
		var files [2][]byte
		for i, hide := range []bool{false, true} {
			var buf bytes.Buffer
			w, err := rdbsink.NewWriter(&buf, encoder.Options{CreatedAt: time.Unix(0, 0), CheckDuplicates: true})
			if err != nil {
				t.Fatal(err)
			}
			var sink record.Sink = w
			if hide {
				sink = beginOnly{record.Pass{Next: w}}
			}
			if err := d.WriteTo(context.Background(), sink); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if w.Stats().Keys != d.Count {
				t.Fatalf("%d keys, want %d", w.Stats().Keys, d.Count)
			}
			files[i] = buf.Bytes()
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Errorf("%+v: WriteString and Begin write different files (%d and %d bytes)", d, len(files[0]), len(files[1]))
		}
	}
}
