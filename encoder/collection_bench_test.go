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
		err := w.BeginHash(key, 10, 0)
		for j := range fields {
			err = w.AddField(fields[j], values[j])
		}
		if err = w.EndCollection(); err != nil {
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
	must(b, w.BeginSet([]byte("set"), 1<<62, 0))
	member := []byte("member12345678")
	for b.Loop() {
		if err := w.AddMember(member); err != nil {
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
		err := w.BeginZSet(key, 10, 0)
		for j := range members {
			err = w.AddScoredMember(members[j], float64(10-j)+0.5)
		}
		if err = w.EndCollection(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}
