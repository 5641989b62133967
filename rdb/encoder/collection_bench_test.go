package encoder

import (
	"strconv"
	"testing"
)

// BenchmarkHashOf10Fields writes hashes of 10 short fields, held and written as listpacks:
// the hot path must not allocate.
func BenchmarkHashOf10Fields(b *testing.B) {
	w, err := NewWriter(discard{}, Options{Target: "redis-7.0"})
	must(b, err)
	must(b, w.BeginDB(0, DBInfo{}))
	key := []byte("key100000001")
	var fields, values [10][]byte
	for j := range fields {
		fields[j] = []byte("field" + strconv.Itoa(j+1))
		values[j] = []byte("value-of-field-" + strconv.Itoa(j+1))
	}
	for b.Loop() {
		err := sinkOpen(w, tHash, key, 10, 0)
		for j := range fields {
			err = sinkField(w, fields[j], values[j])
		}
		if err = sinkEnd(w); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

// BenchmarkLargeSetMember streams members of a set too large for a compact encoding.
func BenchmarkLargeSetMember(b *testing.B) {
	w, err := NewWriter(discard{}, Options{Target: "redis-7.0"})
	must(b, err)
	must(b, w.BeginDB(0, DBInfo{}))
	must(b, sinkOpen(w, tSet, []byte("set"), 1<<62, 0))
	member := []byte("member12345678")
	for b.Loop() {
		if err := sinkAdd(w, member); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "members/s")
}

// BenchmarkSmallZSet writes sorted sets of 10 members, sorted and packed into listpacks.
func BenchmarkSmallZSet(b *testing.B) {
	w, err := NewWriter(discard{}, Options{Target: "redis-7.0"})
	must(b, err)
	must(b, w.BeginDB(0, DBInfo{}))
	var members [10][]byte
	for j := range members {
		members[j] = []byte("member" + strconv.Itoa(j))
	}
	key := []byte("z")
	for b.Loop() {
		err := sinkOpen(w, tZSet, key, 10, 0)
		for j := range members {
			err = sinkScored(w, members[j], float64(10-j)+0.5)
		}
		if err = sinkEnd(w); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

// BenchmarkStreamEntry adds entries of two fields to one long stream, packed into nodes and
// spooled (memory, then a temporary file past 4 MiB): the hot path must not allocate.
func BenchmarkStreamEntry(b *testing.B) {
	w, err := NewWriter(discard{}, Options{Target: "redis-7.2", TempDir: b.TempDir()})
	must(b, err)
	must(b, w.BeginDB(0, DBInfo{}))
	must(b, sinkStream(w, []byte("events"), 0))
	fields := [][]byte{[]byte("type"), []byte("page-view"), []byte("user"), nil}
	var user [16]byte
	ms := uint64(1700000000000)
	for b.Loop() {
		ms++
		fields[3] = strconv.AppendUint(user[:0], ms%100000, 10)
		if err := sinkEntry(w, StreamID{Ms: ms}, fields); err != nil {
			b.Fatal(err)
		}
	}
	must(b, sinkEnd(w))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}

// BenchmarkLongListElement adds elements to one long list, packed into quicklist nodes and
// spooled.
func BenchmarkLongListElement(b *testing.B) {
	w, err := NewWriter(discard{}, Options{Target: "redis-7.2", TempDir: b.TempDir()})
	must(b, err)
	must(b, w.BeginDB(0, DBInfo{}))
	must(b, sinkOpen(w, tList, []byte("list"), uint64(b.N), 0))
	e := []byte("element-0000000000")
	b.ResetTimer()
	for i := range b.N {
		e = strconv.AppendInt(e[:8], int64(i), 10)
		if err := sinkAdd(w, e); err != nil {
			b.Fatal(err)
		}
	}
	must(b, sinkEnd(w))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "elements/s")
}
