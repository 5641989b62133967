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

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-11-29T10:00:00Z", now, true},
		{"2026-11-29T11:00:00.5+01:00", now.Add(500 * time.Millisecond), true},
		{"-48h", now.Add(-48 * time.Hour), true},
		{"90m", now.Add(90 * time.Minute), true},
		{"1", time.Unix(1, 0), true},
		{"1764410400", time.Unix(1764410400, 0), true},
		{"0", now, true},           // a duration of 0
		{"-1", time.Time{}, false}, // not Unix seconds
		{"+5", time.Time{}, false}, // not as Go prints it
		{"1970-01-01T00:00:00Z", time.Time{}, false},
		{"-600000h", time.Time{}, false}, // before 1970
		{"10000-01-01T00:00:00Z", time.Time{}, false},
		{"yesterday", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseTime(tt.in, now)
		if ok != tt.ok || (ok && !got.Equal(tt.want)) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
