package chart

import (
	"bytes"
	"image"
	_ "image/png"
	"testing"
)

func TestWritePNG(t *testing.T) {
	tests := []struct {
		name string
		bars []Bar
	}{
		{"one bar", []Bar{{Label: "a", Value: 1, Note: "1 keys/s"}}},
		{"several", []Bar{{Label: "sequential", Value: 20e3, Note: "20k"}, {Label: "failed", Note: "failed"}, {Label: "snapshot", Value: 4e6, Note: "4M", Highlight: true}}},
		{"all zero", []Bar{{Label: "x", Note: "failed"}, {Label: "y", Note: "failed", Highlight: true}}},
	}
	heights := map[int]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			c := &Chart{Title: "t", XLabel: "keys/s", Bars: tt.bars}
			if err := c.WritePNG(&buf); err != nil {
				t.Fatal(err)
			}
			img, format, err := image.Decode(&buf)
			if err != nil || format != "png" {
				t.Fatalf("decode: %v, format %q", err, format)
			}
			b := img.Bounds()
			if b.Dx() < 500 || b.Dy() < 100 {
				t.Fatalf("image is %v", b)
			}
			heights[b.Dy()] = true
		})
	}
	if len(heights) != 3 { // 1, 3 and 2 bars
		t.Fatalf("heights %v: the height does not follow the number of bars", heights)
	}
	if err := (&Chart{}).WritePNG(new(bytes.Buffer)); err == nil {
		t.Fatal("a chart without bars was drawn")
	}
}

func TestShort(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 0.5: "0.5", 12.34: "12.3", 950: "950", 999.4: "999", 999.9: "1k", 1000: "1k", 12345: "12.3k",
		99960: "100k", 4.56e6: "4.56M", 2.5e6: "2.5M", 3e9: "3G", 4e12: "4000G",
	} {
		if got := Short(v); got != want {
			t.Errorf("Short(%v) = %q, want %q", v, got, want)
		}
	}
}
