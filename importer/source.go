package importer

import (
	"context"

	"github.com/rdbgen/rdbgen/record"
)

// A Source is a record.Source over the records that Open's Reader yields, copied as Copy
// does under Options. Stats holds the counts of the last WriteTo.
type Source struct {
	// Open opens the input; with DupLast it is called twice and must yield the same records.
	Open    func() (Reader, error)
	Options Options
	// Stats are the counts of the last WriteTo, complete once it returns.
	Stats Stats
}

// WriteTo copies every record into sink (see Copy).
func (s *Source) WriteTo(ctx context.Context, sink record.Sink) error {
	var err error
	s.Stats, err = Copy(ctx, sink, s.Open, s.Options)
	return err
}
