package decoder

import (
	"context"
	"testing"
)

// BenchmarkHashLog logs the hashes of 10M distinct keys (-short: 1M), as a File read under
// record.DupError does, and finds that none repeats; it reports ns per key.
func BenchmarkHashLog(b *testing.B) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	seed := newSeed()
	key := []byte("key100000001")
	for b.Loop() {
		l := newHashLog("keys", nil)
		for i := range n {
			key[11], key[10], key[9], key[8] = byte('0'+i%10), byte('0'+i/10%10), byte('0'+i/100%10), byte('0'+i/1000%10)
			key[7], key[6], key[5] = byte('0'+i/10000%10), byte('0'+i/100000%10), byte('0'+i/1000000%10)
			key[4] = byte('0' + i/10000000%10)
			l.add(keyHash(&seed, 0, key))
		}
		rep, err := l.repeated(context.Background())
		l.close()
		if err != nil || len(rep) != 0 {
			b.Fatalf("repeated: %d hashes, %v", len(rep), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
}
