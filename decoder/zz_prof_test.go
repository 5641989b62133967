package decoder

import (
	"context"
	"hash/maphash"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

func TestZZProf(t *testing.T) {
	for _, on := range []record.OnDuplicate{"", "error", "", "error"} {
		t0 := time.Now()
		_, err := File{Path: "/tmp/d10m.rdb", Options: Options{OnDuplicate: on}}.Read(context.Background(), record.Discard{})
		t.Logf("%q %v %v", on, time.Since(t0), err)
	}
	seed := maphash.MakeSeed()
	var k [16]byte
	t0 := time.Now()
	l := newHashLog()
	for i := range 10_000_000 {
		k[0], k[1], k[2] = byte(i), byte(i>>8), byte(i>>16)
		l.add(keyHash(seed, 0, k[:]))
	}
	t1 := time.Now()
	l.end()
	t2 := time.Now()
	rep, err := l.repeated(context.Background())
	t.Logf("add %v end %v repeated %v %d %v", t1.Sub(t0), t2.Sub(t1), time.Since(t2), len(rep), err)
	l.close()
}
