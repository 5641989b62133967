package verify

import "testing"

// TestExpiryClockGone checks the keys surely and maybe gone at the edges of the bins.
func TestExpiryClockGone(t *testing.T) {
	const base = 1_000_000
	c := &expiryClock{base: base}
	for _, exp := range []int64{1, base, base + 1, base + 1000, base + 1001, base + lapseSeconds*1000, base + lapseSeconds*1000 + 1, 1 << 62} {
		c.add(exp)
	}
	tests := []struct {
		name          string
		load, until   int64
		surely, maybe uint64
	}{
		{"at the check", base, base, 0, 2},
		{"just after the check", base + 1, base + 1, 2, 4},
		{"a second later", base + 1001, base + 1001, 4, 5},
		{"load at the check, read an hour later", base, base + lapseSeconds*1000, 0, 6},
		{"past the horizon", base + lapseSeconds*1000 + 1, base + lapseSeconds*1000 + 2, 6, 8},
		{"before the check", 0, 0, 0, 2},
	}
	for _, tt := range tests {
		surely, maybe := c.gone(tt.load, tt.until)
		if surely != tt.surely || maybe != tt.maybe {
			t.Errorf("%s: gone %d surely, %d maybe; want %d, %d", tt.name, surely, maybe, tt.surely, tt.maybe)
		}
	}
}
