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
		if got := jemalloc.sds(c.n); got != c.want {
			t.Errorf("sdsSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	for _, a := range []*allocator{jemalloc, libc} {
		for n := range len(a.sdsSmall) + 1 { // the table and the sum agree
			if got, want := a.sds(n), a.sdsAlloc(n); got != want {
				t.Errorf("%s: sds(%d) = %d, sdsAlloc %d", a.name, n, got, want)
			}
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
	if m := jemalloc.zslNodeMean; m < 48 || m > 64 {
		t.Errorf("zslNodeMean = %v, want 48 to 64", m)
	}
	if h := jemalloc.zslHeader; h != 640 {
		t.Errorf("zslHeader = %d, want 640 (536 bytes)", h)
	}
}

// glibc's malloc_usable_size on 64-bit Linux: (n + 8) rounded up to 16, at least 32, less 8.
func TestGlibcUsable(t *testing.T) {
	cases := []struct{ n, want int64 }{
		{0, 24}, {1, 24}, {16, 24}, {24, 24}, {25, 40}, {40, 40}, {41, 56}, {100, 104}, {1000, 1000}, {1001, 1016},
	}
	for _, c := range cases {
		if got := glibcUsable(c.n); got != c.want {
			t.Errorf("glibcUsable(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
