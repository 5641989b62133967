package record

import "context"

// A Source produces records: a generated dataset, a spec file, a JSON or CSV import, an RDB
// file. WriteTo writes every record into a Sink, database by database (BeginDB once per
// database, with that database's exact counts when the source knows them up front, zeros
// otherwise), and stops with ctx's error when ctx is cancelled. A Source that can run more
// than once (every source but a one-shot stream such as standard input) writes the same
// records each time.
type Source interface {
	WriteTo(ctx context.Context, sink Sink) error
}

// A KeyLister is a Source that can list its keys, database by database and without their
// values, much faster than it writes its records. A split by hash slot uses it to count the
// keys of each shard before writing, so that every shard file declares exact counts.
// fn's key is valid only during the call.
type KeyLister interface {
	Source
	ListKeys(ctx context.Context, fn func(db int, key []byte, expires bool)) error
}

// A Sizer is a Source that knows how many records it will write, for progress reports.
type Sizer interface {
	Source
	Len() uint64
}

// Progress reports how far a long operation has come: writing a file, splitting shards,
// reading a dump, a server loading a file, a verification, a bench. Fields that do not apply
// stay zero.
type Progress struct {
	// Stage names the part under way of an operation of several (a verification's stages, a
	// bench's rows and runs); "" for an operation of one.
	Stage      string
	Keys       uint64 // records done so far
	Total      uint64 // records in all, 0 when unknown
	Members    uint64 // collection members and stream entries done so far
	Bytes      int64  // bytes written, read or loaded so far
	TotalBytes int64  // bytes in all, 0 when unknown
}

// Through returns a Source that writes the records of src through a sink wrapper: wrap turns
// the Sink that WriteTo is given into the one src writes to, such as a filter or a rewrite.
// The result is neither a KeyLister nor a Sizer, since the wrapper may change keys and counts.
func Through(src Source, wrap func(Sink) (Sink, error)) Source {
	return &through{src: src, wrap: wrap}
}

type through struct {
	src  Source
	wrap func(Sink) (Sink, error)
}

func (t *through) WriteTo(ctx context.Context, sink Sink) error {
	s, err := t.wrap(sink)
	if err != nil {
		return err
	}
	return t.src.WriteTo(ctx, s)
}

// Records is a Source of the records it holds, in order: each run of records of one
// database becomes that database's section, opened with its counts. The records of a
// database must come together, as in a file.
type Records []Record

// WriteTo writes the records into sink, stopping with ctx's error when ctx is cancelled.
func (rs Records) WriteTo(ctx context.Context, sink Sink) error {
	for i := 0; i < len(rs); {
		db := rs[i].DB
		var c Counts
		j := i
		for ; j < len(rs) && rs[j].DB == db; j++ {
			c.Keys++
			if rs[j].ExpireAtMS > 0 {
				c.Expires++
			}
		}
		if err := sink.BeginDB(db, c); err != nil {
			return err
		}
		for ; i < j; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := rs[i].WriteTo(sink); err != nil {
				return err
			}
		}
	}
	return nil
}
