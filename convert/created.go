package convert

import (
	"context"
	"errors"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rebase"
)

// SetCreated applies the creation-time rule of a conversion of the dump in: the output is
// created when in was (enc.CreatedAt set to its ctime AUX field, else its own manifest's; see
// rebase.InputCreated), unless o.KeepCreated or in tells no creation time, which leave
// enc.CreatedAt as it is. With o.RebaseTo, it sets o.Rebase to the move of the expiries from
// in's creation time to RebaseTo, the output's creation time then. A ctime AUX field that is
// no time is an error wrapping rebase.ErrBadCreationTime; with RebaseTo, so is a missing one.
func (o *Options) SetCreated(ctx context.Context, in *input.Input, enc *encoder.Options) error {
	rebasing := !o.RebaseTo.IsZero()
	if !rebasing && o.KeepCreated {
		return nil
	}
	from, err := rebase.InputCreated(ctx, in)
	switch {
	case rebasing && err != nil:
		return err
	case rebasing:
		s := rebase.NewShift(from, o.RebaseTo)
		o.Rebase, enc.CreatedAt = &s, o.RebaseTo
	case errors.Is(err, rebase.ErrNoCreationTime):
		// The input tells no creation time: the output keeps enc's.
	case err != nil:
		return err
	default:
		enc.CreatedAt = from
	}
	return nil
}
