package memory

import "testing"

func TestSizeClass(t *testing.T) {
	cases := []struct{ n, want int64 }{
		{0, 0}, {1, 8}, {8, 8}, {9, 16}, {16, 16}, {17, 32}, {24, 32}, {33, 48}, {128, 128},
		{129, 160}, {160, 160}, {161, 192}, {256, 256}, {257, 320}, {513, 640}, {4096, 4096},
		{4097, 5120}, {14337, 16384}, {16385, 20480}, {1 << 27, 1 << 27}, {1<<27 + 1, 1<<27 + 1<<25},
	}
	for _, c := range cases {
		if got := sizeClass(c.n); got != c.want {
			t.Errorf("sizeClass(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestSDSSize(t *testing.T) {
	cases := []struct {
		n    int
		want int64
	}{
		{0, 8},     // sdshdr8, 3+0+1
		{12, 16},   // sdshdr5, 1+12+1
		{31, 48},   // sdshdr5, 33
		{32, 48},   // sdshdr8, 36
		{255, 320}, // sdshdr8, 259
		{256, 320}, // sdshdr16, 262
		{65535, 81920},
		{65536, 81920}, // sdshdr32
	}
	for _, c := range cases {
		if got := sdsSize(c.n); got != c.want {
			t.Errorf("sdsSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	for n := range len(sdsSmall) + 1 { // the table and the sum agree
		if got, want := sdsSize(n), sdsAlloc(n); got != want {
			t.Errorf("sdsSize(%d) = %d, sdsAlloc %d", n, got, want)
		}
	}
}

func TestBuckets(t *testing.T) {
	cases := []struct{ n, want uint64 }{
		{0, 4}, {1, 4}, {4, 4}, {5, 8}, {1000, 1024}, {1024, 1024}, {1025, 2048}, {10_000_000, 1 << 24},
	}
	for _, c := range cases {
		if got := buckets(c.n); got != c.want {
			t.Errorf("buckets(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// The expected skiplist node lies between the smallest node (level 1: 40 bytes, class 48)
// and a level-2 node (64).
func TestZslNodeMean(t *testing.T) {
	if zslNodeMean < 48 || zslNodeMean > 64 {
		t.Errorf("zslNodeMean = %v, want 48 to 64", zslNodeMean)
	}
	if zslHeader != 640 {
		t.Errorf("zslHeader = %d, want 640 (536 bytes)", zslHeader)
	}
}
