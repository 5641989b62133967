package record_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestLibraryRule: a library of one name comes at places 0, 1, 2 with the codes given;
// each rule keeps the places it should, counts the others with other code, and DupError
// names both places.
func TestLibraryRule(t *testing.T) {
	const x, y = "#!lua name=l\nx", "#!lua name=l\ny"
	where := func(at int64) string { return fmt.Sprintf("input %d", at) }
	for _, tt := range []struct {
		on      record.OnDuplicate
		codes   []string
		kept    []int64
		dropped uint64
		err     string
	}{
		{record.DupError, []string{x, x, x}, []int64{0}, 0, ""},
		{record.DupFirst, []string{x, x}, []int64{0}, 0, ""},
		{record.DupLast, []string{x, x}, []int64{1}, 0, ""},
		{record.DupError, []string{x, y}, []int64{0}, 0, `record: duplicate function library: function library "l" comes twice with different code, in input 0 and in input 1`},
		{record.DupFirst, []string{x, y, x}, []int64{0}, 1, ""},
		{record.DupLast, []string{x, y, x}, []int64{2}, 1, ""},
		{record.DupLast, []string{x, x, y}, []int64{2}, 2, ""},
		{record.DupError, []string{"no name", "no name"}, []int64{0}, 0, ""},
	} {
		t.Run(fmt.Sprint(tt.on, tt.codes), func(t *testing.T) {
			r := record.NewLibraryRule(tt.on)
			if tt.on == record.DupLast {
				for i, c := range tt.codes {
					r.Note([]byte(c), int64(i))
				}
			}
			var kept []int64
			var err error
			for i, c := range tt.codes {
				var keep bool
				if keep, err = r.Keep([]byte(c), int64(i), where); err != nil {
					break
				}
				if keep {
					kept = append(kept, int64(i))
				}
			}
			if tt.err != "" {
				if !errors.Is(err, record.ErrDuplicateLibrary) || err.Error() != tt.err+" (--on-duplicate first or last keeps one)" {
					t.Fatalf("error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil || fmt.Sprint(kept) != fmt.Sprint(tt.kept) || r.Dropped != tt.dropped {
				t.Errorf("kept %v, dropped %d, %v; want %v, %d", kept, r.Dropped, err, tt.kept, tt.dropped)
			}
		})
	}
}
