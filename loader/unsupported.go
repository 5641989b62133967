package loader

import (
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// skipUnsupported returns sink behind a gate that, under Options.SkipUnsupported, leaves out
// the keys a server of version cannot hold, counted in l.unsupported: streams and module
// values before Redis 5.0, hashes with field TTLs before 7.4 (unless Options.DropFieldTTL
// loads them without). Without the option it returns sink.
func (l *load) skipUnsupported(sink record.Sink, version resp.Version) record.Sink {
	if !l.o.SkipUnsupported {
		return sink
	}
	g := &record.Gate{Pass: record.Pass{Next: sink}}
	g.Keep = func(h *record.Header) (bool, error) {
		f := rdbsink.Needs(h)
		if f == 0 || version.Has(f) || f == rdb.HashFieldTTL && l.o.DropFieldTTL {
			return true, nil
		}
		l.unsupported++
		return false, nil
	}
	return g
}
