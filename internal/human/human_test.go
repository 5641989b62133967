package human

import (
	"testing"
	"time"
)

func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"},
		{1<<20 - 1, "1024.0 KiB"}, {1 << 20, "1.0 MiB"}, {5 << 30, "5.0 GiB"}, {1 << 60, "1.0 EiB"},
	} {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestPerSecond(t *testing.T) {
	if got := PerSecond(10, 0); got != 0 {
		t.Errorf("PerSecond over 0s = %v, want 0", got)
	}
	if got := PerSecond(10, 2*time.Second); got != 5 {
		t.Errorf("PerSecond(10, 2s) = %v, want 5", got)
	}
}

func TestSecondsAndTimes(t *testing.T) {
	if got := Seconds(0.0021); got != "2ms" {
		t.Errorf("Seconds(0.0021) = %q", got)
	}
	if got := Seconds(3.4); got != "3.4s" {
		t.Errorf("Seconds(3.4) = %q", got)
	}
	if got := MSTime(0); got != "1970-01-01T00:00:00Z" {
		t.Errorf("MSTime(0) = %q", got)
	}
	if Plural(1, "library", "libraries") != "library" || Plural(2, "library", "libraries") != "libraries" {
		t.Error("Plural")
	}
}
