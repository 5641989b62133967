package verify

import (
	"bytes"
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// moduleCheck reads a module value with DUMP and compares its serialized form, without
// the payload's version and checksum, with the record's: the module id and the opcode
// stream. A module whose rdb_save writes what its rdb_load read gives the same bytes.
type moduleCheck struct{}

// payloadTrailer is the size of a DUMP payload's version and checksum (rdb.CheckPayload
// checks them).
const payloadTrailer = 10

func (moduleCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	cmd := p.Dump(ctx, string(r.Key))
	return func() *diff {
		v, err := cmd.Result()
		if err != nil {
			return &diff{"value", "error " + err.Error(), "a module value"}
		}
		got := []byte(v)
		if _, err := rdb.CheckPayload(got, 1<<16-1); err != nil {
			return &diff{"value", err.Error(), "a module value"}
		}
		want := encoder.AppendModuleObject([]byte{7}, r.ModuleID, r.Value)
		if got = got[:len(got)-payloadTrailer]; !bytes.Equal(got, want) {
			return &diff{"serialized module value (DUMP)", fmt.Sprintf("%d bytes %x", len(got), head(got)), fmt.Sprintf("%d bytes %x", len(want), head(want))}
		}
		return nil
	}
}

// head returns the first bytes of b, for messages.
func head(b []byte) []byte { return b[:min(len(b), 32)] }
