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
