// Package readback reads back for tests what was written, and checks it against the records:
// an RDB file with an independent parser, github.com/hdt3213/rdb (Parse; a dataset's strings,
// a record's collection, the CRC-64 trailer the parser does not check), and the keys a real
// server loaded (SpotCheck). The tests of several packages (dataset, cluster, importer, spec)
// share it.
package readback

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"testing"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// File is what github.com/hdt3213/rdb reads from an RDB file.
type File struct {
	Version string                                // the header's RDB version, as its four digits
	Aux     map[string]string                     // the AUX fields
	Sizes   map[int][2]uint64                     // RESIZEDB per db: keys, keys with an expiry
	Keys    map[int]map[string]parser.RedisObject // the keys of each db
}

// Parse reads file with github.com/hdt3213/rdb; a file it cannot parse, or a key that comes
// twice in a database, fails t.
func Parse(t testing.TB, file []byte) File {
	t.Helper()
	p := File{
		Version: string(file[5:9]),
		Aux:     map[string]string{},
		Sizes:   map[int][2]uint64{},
		Keys:    map[int]map[string]parser.RedisObject{},
	}
	dec := parser.NewDecoder(bytes.NewReader(file)).WithSpecialOpCode()
	err := dec.Parse(func(o parser.RedisObject) bool {
		switch o := o.(type) {
		case *parser.AuxObject:
			p.Aux[o.Key] = o.Value
		case *parser.DBSizeObject:
			p.Sizes[o.DB] = [2]uint64{o.KeyCount, o.TTLCount}
		default:
			db := o.GetDBIndex()
			if p.Keys[db] == nil {
				p.Keys[db] = map[string]parser.RedisObject{}
			}
			if _, dup := p.Keys[db][o.GetKey()]; dup {
				t.Errorf("duplicate key %q in db %d", o.GetKey(), db)
			}
			p.Keys[db][o.GetKey()] = o
		}
		return true
	})
	if err != nil {
		t.Fatalf("hdt3213/rdb cannot parse the file: %v", err)
	}
	return p
}

// CheckTrailer checks the CRC-64 trailer of file, which the parser does not check: the
// checksum of the rest, or 0 without checksum.
func CheckTrailer(t testing.TB, file []byte, checksum bool) {
	t.Helper()
	got := binary.LittleEndian.Uint64(file[len(file)-8:])
	want := rdb.Checksum(file[:len(file)-8])
	if !checksum {
		want = 0
	}
	if got != want {
		t.Fatalf("trailer %#x, want %#x", got, want)
	}
}

// CheckString checks that keys holds record i of d, with its value and expiry.
func CheckString(t testing.TB, keys map[string]parser.RedisObject, d *dataset.Config, i uint64) {
	t.Helper()
	key := string(d.AppendKey(nil, i))
	o, ok := keys[key].(*parser.StringObject)
	if !ok {
		t.Fatalf("key %q missing or not a string: %T", key, keys[key])
	}
	if want := d.AppendValue(nil, i); !bytes.Equal(o.Value, want) {
		t.Fatalf("key %q = %q, want %q", key, o.Value, want)
	}
	exp := o.GetExpiration()
	switch want := d.ExpireAtMS(i); {
	case want == 0 && exp != nil:
		t.Fatalf("key %q expires at %v, want none", key, exp)
	case want != 0 && (exp == nil || exp.UnixMilli() != want):
		t.Fatalf("key %q expires at %v, want %d", key, exp, want)
	}
}

// CheckCollection compares a parsed collection with the record the dataset describes: a
// list in order, the members of the other types in any order.
func CheckCollection(t testing.TB, o parser.RedisObject, want record.Record) {
	t.Helper()
	var got, exp []string
	switch o := o.(type) {
	case *parser.HashObject:
		for f, v := range o.Hash {
			got = append(got, f+"="+string(v))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name)+"="+string(m.Value))
		}
	case *parser.ListObject:
		for _, v := range o.Values {
			got = append(got, string(v))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
		if !slices.Equal(got, exp) {
			t.Fatalf("key %q: list differs", want.Key)
		}
	case *parser.SetObject:
		for _, v := range o.Members {
			got = append(got, string(v))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name))
		}
	case *parser.ZSetObject:
		for _, e := range o.Entries {
			got = append(got, e.Member+"="+formatScore(e.Score))
		}
		for _, m := range want.Members {
			exp = append(exp, string(m.Name)+"="+formatScore(m.Score))
		}
	default:
		t.Fatalf("key %q: unexpected %T", want.Key, o)
	}
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		t.Fatalf("key %q (%s): content differs: %d members, want %d", want.Key, o.GetEncoding(), len(got), len(exp))
	}
}

// formatScore formats a score as the parser's and the record's are compared.
func formatScore(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
