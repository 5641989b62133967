package decoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// Redis 8.8's arrays (RDB_TYPE_ARRAY, type 28, RDB 14), laid out as rdbSaveObject and
// rdbLoadObject write and read them (FORMATS.md names the source): a count of elements (at
// least 1), an insert index (a length 0 for none, or 1 then the index), then per element its
// index (a length), a tag (a length) and the value: 0 a string, 1 an integer as 8 bytes
// little-endian, 2 a binary double, 3 a string of at most 7 bytes. No record holds an
// array: one is refused naming the key, or, under Options.DropNewer, read through and left
// out, counted in Stats.NewerDropped.

const (
	arrayType = 28

	arrayTagString   = 0 // AR_RDB_TAG_SDS
	arrayTagInt      = 1 // AR_RDB_TAG_INT
	arrayTagFloat    = 2 // AR_RDB_TAG_FLOAT
	arrayTagSmallStr = 3 // AR_RDB_TAG_SMALLSTR
	arraySmallStrMax = 7 // AR_SMALLSTR_MAXLEN on 64-bit hosts
)

var errBadArray = fmt.Errorf("%w array", ErrCorrupt)

// readArray reads an array: refused, or skipped under DropNewer.
func (rd *Reader) readArray(record.Sink) error {
	in := rd.in
	n, err := in.plainLength()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w of no elements", errBadArray)
	}
	if !rd.opts.DropNewer {
		return fmt.Errorf("%w: an array of %d elements (RDB type 28, Redis 8.8); no record holds one: leave it out knowingly with --drop-newer", ErrNewerType, n)
	}
	flag, err := in.plainLength()
	switch {
	case err != nil:
		return err
	case flag > 1:
		return fmt.Errorf("%w: insert index flag %d", errBadArray, flag)
	case flag == 1:
		if _, err := in.plainLength(); err != nil {
			return err
		}
	}
	for range n {
		if _, err := in.plainLength(); err != nil { // the index
			return err
		}
		tag, err := in.plainLength()
		if err != nil {
			return err
		}
		switch tag {
		case arrayTagString, arrayTagSmallStr:
			if rd.a, err = in.str(rd.a, &rd.lzf); err == nil && tag == arrayTagSmallStr && len(rd.a) > arraySmallStrMax {
				err = fmt.Errorf("%w: small string of %d bytes", errBadArray, len(rd.a))
			}
		case arrayTagInt, arrayTagFloat:
			_, err = in.next(8)
		default:
			err = fmt.Errorf("%w: element tag %d (known: 0 string, 1 integer, 2 double, 3 small string)", errBadArray, tag)
		}
		if err != nil {
			return err
		}
	}
	rd.dropNewer("array")
	return nil
}
