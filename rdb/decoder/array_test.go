package decoder_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// TestArray: an array (type 28, RDB 14) is refused naming the key, or, under DropNewer,
// read through and left out, counted; the keys around it read.
func TestArray(t *testing.T) {
	arr := rdbfixture.Array(5, rdbfixture.ArrayElement{Index: 0, Value: int64(-7)}, rdbfixture.ArrayElement{Index: 3, Value: 1.5},
		rdbfixture.ArrayElement{Index: 9, Value: "short"}, rdbfixture.ArrayElement{Index: 1 << 40, Value: strings.Repeat("long", 10)})
	file := rdbfixture.File(14, rdbfixture.Record(0, "a", rdbfixture.Str("1")), rdbfixture.Record(28, "arr", arr),
		rdbfixture.Record(28, "arr2", rdbfixture.Array(-1, rdbfixture.ArrayElement{Index: 2, Value: int64(1)})), rdbfixture.Record(0, "b", rdbfixture.Str("2")))
	_, _, err := readNewer(t, file, false)
	if want := `key "arr": decoder: a value of a newer format that rdbgen cannot carry: an array of 4 elements (RDB type 28, Redis 8.8)`; !errors.Is(err, decoder.ErrNewerType) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	recs, rd, err := readNewer(t, file, true)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, canonAll(recs), []string{`db0 "a" string exp=0 "1"`, `db0 "b" string exp=0 "2"`})
	if want := map[string]uint64{"array": 2}; !maps.Equal(rd.Stats().NewerDropped, want) || rd.Stats().Keys != 2 {
		t.Errorf("NewerDropped %v, Keys %d; want %v, 2", rd.Stats().NewerDropped, rd.Stats().Keys, want)
	}
	for _, tc := range []struct {
		name  string
		value []byte
		want  string
	}{
		{"no elements", rdbfixture.Len(0), "array of no elements"},
		{"insert flag", append(rdbfixture.Len(1), rdbfixture.Len(2)...), "insert index flag 2"},
		{"tag", rdbfixture.Cat(rdbfixture.Len(1), rdbfixture.Len(0), rdbfixture.Len(0), rdbfixture.Len(4)), "element tag 4"},
		{"small string", rdbfixture.Cat(rdbfixture.Len(1), rdbfixture.Len(0), rdbfixture.Len(0), rdbfixture.Len(3), rdbfixture.Str("12345678")), "small string of 8 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readNewer(t, rdbfixture.File(14, rdbfixture.Record(28, "k", tc.value)), true)
			if !errors.Is(err, decoder.ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrCorrupt containing %q", err, tc.want)
			}
		})
	}
}

// FuzzArray reads the value of an array (type 28).
func FuzzArray(f *testing.F) {
	f.Add(rdbfixture.Array(-1, rdbfixture.ArrayElement{Index: 0, Value: int64(3)}))
	f.Add(rdbfixture.Array(2, rdbfixture.ArrayElement{Index: 1, Value: 2.5}, rdbfixture.ArrayElement{Index: 7, Value: "a longer string"}))
	f.Fuzz(func(t *testing.T, value []byte) {
		fuzzNewer(t, rdbfixture.File(14, rdbfixture.Record(28, "a", value), rdbfixture.Record(0, "k", rdbfixture.Str("v"))))
	})
}
