package rebase_test

import (
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/rebase"
)

// A key that had an hour left when the dump was written has an hour left after the rebase;
// one that had expired stays expired.
func ExampleShift_Apply() {
	written := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	start := time.Date(2026, 12, 1, 8, 30, 0, 0, time.UTC)
	s := rebase.NewShift(written, start)
	hour := s.Apply(written.Add(time.Hour).UnixMilli())
	gone := s.Apply(written.Add(-time.Minute).UnixMilli())
	fmt.Println(time.UnixMilli(hour).UTC().Format(time.RFC3339))
	fmt.Println(time.UnixMilli(gone).UTC().Format(time.RFC3339))
	fmt.Println(s.Apply(0)) // no expiry
	// Output:
	// 2026-12-01T09:30:00Z
	// 2026-12-01T08:29:00Z
	// 0
}
