// Package human renders figures for people: byte counts with binary units, rates, durations
// and times, as every command's text report writes them.
package human

import (
	"fmt"
	"time"
)

// Bytes renders a byte count with a binary unit: "512 B", "23.4 KiB", "1.0 MiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// PerSecond returns n per second over d, 0 when d is not positive.
func PerSecond(n uint64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Seconds renders a number of seconds as a duration rounded to the millisecond: "2ms", "3.4s".
func Seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// MSTime renders Unix milliseconds as a UTC time in RFC 3339.
func MSTime(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

// Plural returns one when n is 1, else many.
func Plural(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ParseTime reads a time as people give it: RFC 3339, a duration from now (-48h) or Unix
// seconds. A time before 1970 or after 9999, which the ctime AUX field and a manifest cannot
// hold, is not one.
func ParseTime(s string, now time.Time) (time.Time, bool) {
	t, ok := parseTime(s, now)
	return t, ok && t.Unix() >= 1 && t.Year() <= 9999
}

func parseTime(s string, now time.Time) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(d), true
	}
	var sec int64
	if _, err := fmt.Sscanf(s, "%d", &sec); err == nil && fmt.Sprint(sec) == s && sec > 0 {
		return time.Unix(sec, 0), true
	}
	return time.Time{}, false
}
