package crc64

import (
	"math/rand/v2"
	"testing"
)

func TestXPowModP(t *testing.T) {
	tests := []struct {
		e    uint64
		want uint64
	}{
		{0, 1 << 63},         // 1
		{1, 1 << 62},         // x
		{63, 1},              // x^63
		{64, jonesReflected}, // x^64 = P - x^64
	}
	for _, tt := range tests {
		if got := xPowModP(tt.e); got != tt.want {
			t.Errorf("x^%d mod P = %#x, want %#x", tt.e, got, tt.want)
		}
	}
	for _, ab := range [][2]uint64{{1, 1}, {63, 64}, {127, 64}, {511, 65}, {1000, 24}} {
		a, b := ab[0], ab[1]
		if got, want := xPowModP(a+b), multModP(xPowModP(a), xPowModP(b)); got != want {
			t.Errorf("x^%d = %#x, x^%d·x^%d = %#x", a+b, got, a, b, want)
		}
	}
	// Multiplying by x^(8n) appends n zero bytes to what a checksum covers.
	p := []byte("123456789")
	zeros := make([]byte, 100)
	if got, want := multModP(xPowModP(8*100), Checksum(p)), Checksum(append(p, zeros...)); got != want {
		t.Errorf("shifted %#x, want %#x", got, want)
	}
}

func TestCombine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for _, cut := range []int{0, 1, 7, 8, 15, 16, 63, 64, 1000, 4999, 5000} {
		a, b := data[:cut], data[cut:]
		if got, want := Combine(Checksum(a), Checksum(b), uint64(len(b))), Checksum(data); got != want {
			t.Errorf("cut at %d: combined %#x, want %#x", cut, got, want)
		}
	}
}
