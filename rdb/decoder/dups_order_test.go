package decoder_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestRepeatedKeysInOrder reads files whose keys come in increasing order in each db up to
// some record, or to their end, with dbs left and taken up again, under DupError: a File
// logs no key while they are in order, and finds a key that comes again whether it breaks
// the order (equal to the last) or comes after the first out of order (a key of the part
// read again); a Reader read once agrees.
func TestRepeatedKeysInOrder(t *testing.T) {
	cases := []struct {
		name    string
		objects [][]byte
		dup     string // the key that comes again, "" none
		db      int
		ordered bool // in order to the end: no key logged
	}{
		{"in order", [][]byte{str("a", "1"), str("b", "1"), str("c", "1")}, "", 0, true},
		{"dbs taken up again in order", [][]byte{str("a", "1"), str("b", "1"), selectDB(1), str("a", "1"), str("b", "1"),
			selectDB(0), str("c", "1"), selectDB(1), str("c", "1")}, "", 0, true},
		{"empty collection first", [][]byte{str("a", "1"), plainSet("b"), str("b", "1")}, "", 0, true},
		{"one key", [][]byte{str("a", "1")}, "", 0, true},
		{"out of order, distinct", [][]byte{str("b", "1"), str("a", "1"), str("c", "1")}, "", 0, false},
		{"equal to the last", [][]byte{str("a", "1"), str("b", "1"), str("b", "2")}, "b", 0, false},
		{"the first again last", [][]byte{str("a", "1"), str("b", "1"), str("c", "1"), str("a", "2")}, "a", 0, false},
		{"before the break", [][]byte{str("a", "1"), str("b", "1"), str("c", "1"), str("a0", "1"), str("d", "1"), str("b", "2")}, "b", 0, false},
		{"a db taken up again out of order", [][]byte{str("a", "1"), str("b", "1"), selectDB(1), str("a", "1"),
			selectDB(0), str("a", "2")}, "a", 0, false},
		{"in the db taken up again", [][]byte{str("a", "1"), selectDB(1), str("b", "1"), str("c", "1"),
			selectDB(0), str("b", "1"), selectDB(1), str("c", "2")}, "c", 1, false},
		// Keys of 8 to 16 bytes, compared in words (keyOrder.takeWords).
		{"words in order", [][]byte{str("key:00000001", "1"), str("key:00000002", "1"), str("key:00000010", "1"),
			str("key:10000000", "1")}, "", 0, true},
		{"words equal to the last", [][]byte{str("key:00000001", "1"), str("key:00000002", "1"), str("key:00000002", "2")},
			"key:00000002", 0, false},
		{"words differing in the middle", [][]byte{str("key:0000000001", "1"), str("key:0000100001", "1"),
			str("key:0000000002", "1")}, "", 0, false},
		{"words at 8 and 16 bytes", [][]byte{str("k0000001", "1"), str("k0000002", "1"), str("k000000300000000", "1"),
			str("k000000300000001", "1"), str("k0000003000000010", "1"), str("k0000004", "1"), str("k0000004", "2")}, "k0000004", 0, false},
		{"words kept over a db switch", [][]byte{str("key:00000001", "1"), str("key:00000005", "1"), selectDB(1), str("a", "1"),
			selectDB(0), str("key:00000005", "2")}, "key:00000005", 0, false},
		{"words over a db switch, in order", [][]byte{str("key:00000001", "1"), str("key:00000005", "1"), selectDB(1),
			str("key:00000001", "1"), selectDB(0), str("key:00000006", "1"), selectDB(1), str("key:00000002", "1")}, "", 0, true},
		{"words then a shorter key", [][]byte{str("key:00000001", "1"), str("key:00000005", "1"), str("key:0000001", "1"),
			str("key:00000001", "2")}, "key:00000001", 0, false},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dump.rdb")
			if err := os.WriteFile(path, rdbFile("0010", tc.objects...), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, r := range []dupRead{dupReads[0], dupReads[1]} {
				rd, err := r.read(ctx, path, &recorder{})
				if tc.dup == "" {
					if err != nil {
						t.Fatalf("%s: %v", r.name, err)
					}
				} else {
					var de *decoder.Error
					want := fmt.Sprintf("duplicate key in db %d", tc.db)
					if !errors.As(err, &de) || !errors.Is(err, record.ErrDuplicateKey) || string(de.Key) != tc.dup || !strings.Contains(err.Error(), want) {
						t.Fatalf("%s: got %v, want record.ErrDuplicateKey naming %q and saying %q", r.name, err, tc.dup, want)
					}
				}
				if !r.once && rd != nil && rd.LoggedKeys() == tc.ordered {
					t.Errorf("%s: keys logged %v, want %v", r.name, rd.LoggedKeys(), !tc.ordered)
				}
			}
		})
	}
}
