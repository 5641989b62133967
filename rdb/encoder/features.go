package encoder

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
)

// features is a set of features, a bit each: what a Writer holds, asked record by record.
type features uint64

// featureSet returns the features c holds.
func featureSet(c rdb.Capabilities) features {
	var s features
	// rdb.Features leaves out ValkeyFormat, a file's format, which the Writer asks too.
	for _, f := range append(rdb.Features(), rdb.ValkeyFormat) {
		if c.Can(f) {
			s |= 1 << f
		}
	}
	return s
}

// has reports whether f is in s.
func (s features) has(f rdb.Feature) bool { return s&(1<<f) != 0 }

// refuse fails the Writer with the error for key, which needs f.
func (w *Writer) refuse(key []byte, f rdb.Feature) error {
	return w.fail(fmt.Errorf("write key %q: %w", key, w.caps.Refuse(f)))
}
