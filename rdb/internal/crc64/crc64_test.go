package crc64

import (
	stdcrc64 "hash/crc64"
	"math/rand/v2"
	"testing"
)

func TestChecksumCheckValue(t *testing.T) {
	// The check value of CRC-64/Jones as Redis's crc64.c tests it.
	if got, want := Checksum([]byte("123456789")), uint64(0xe9c6d914c4b8d9ca); got != want {
		t.Fatalf("Checksum(123456789) = %#x, want %#x", got, want)
	}
	if got := Checksum(nil); got != 0 {
		t.Fatalf("Checksum(nil) = %#x, want 0", got)
	}
}

func TestChecksumMatchesHashCRC64(t *testing.T) {
	tab := stdcrc64.MakeTable(jonesReflected)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 63, 64, 2047, 2048, 2049, 100000} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		want := ^stdcrc64.Update(^uint64(0), tab, p)
		if got := Checksum(p); got != want {
			t.Errorf("len %d: Checksum = %#x, hash/crc64 = %#x", n, got, want)
		}
		// Written in uneven pieces, the digest agrees.
		var d Digest
		for rest := p; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(300))
			d.Write(rest[:k])
			rest = rest[k:]
		}
		if d.Sum64() != want {
			t.Errorf("len %d: Digest = %#x, want %#x", n, d.Sum64(), want)
		}
	}
}
