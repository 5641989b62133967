package inspect

import "time"

// Expiry is the spread of the file's expiries, compared with Options.Now.
type Expiry struct {
	NowMS   int64  `json:"now_ms"`  // the time compared with, Unix ms
	Keys    uint64 `json:"keys"`    // keys with an expiry
	Expired uint64 `json:"expired"` // of those, expired at or before NowMS: Redis drops them at load
	// EarliestMS and LatestMS are the first and the last expiry, Unix ms, 0 without any:
	// LatestMS is when the last key expires.
	EarliestMS int64 `json:"earliest_ms"`
	LatestMS   int64 `json:"latest_ms"`
	// Histogram counts the keys by when they expire, in fixed buckets: expired, then within
	// 1m, 1h, 1d, 7d, 30d, 365d of NowMS (each past the one before), then later.
	Histogram []Bucket `json:"histogram"`
}

// A Bucket counts the keys that expire within a span of Expiry.Histogram.
type Bucket struct {
	Within string `json:"within"` // "expired", "1m", "1h", "1d", "7d", "30d", "365d" or "later"
	Keys   uint64 `json:"keys"`
}

const day = 24 * time.Hour

// buckets are the upper bounds of the histogram's spans after "expired"; "later" follows.
var buckets = []struct {
	name string
	d    time.Duration
}{{"1m", time.Minute}, {"1h", time.Hour}, {"1d", day}, {"7d", 7 * day}, {"30d", 30 * day}, {"365d", 365 * day}}

// expirySpread gathers an Expiry.
type expirySpread struct {
	e Expiry
}

func newExpirySpread(nowMS int64) expirySpread {
	h := []Bucket{{Within: "expired"}}
	for _, b := range buckets {
		h = append(h, Bucket{Within: b.name})
	}
	h = append(h, Bucket{Within: "later"})
	return expirySpread{Expiry{NowMS: nowMS, Histogram: h}}
}

// add counts a key that expires at ms.
func (s *expirySpread) add(ms int64) {
	e := &s.e
	if e.Keys == 0 || ms < e.EarliestMS {
		e.EarliestMS = ms
	}
	e.LatestMS = max(e.LatestMS, ms)
	e.Keys++
	left := ms - e.NowMS
	if left <= 0 {
		e.Expired++
		e.Histogram[0].Keys++
		return
	}
	for i, b := range buckets {
		if left <= b.d.Milliseconds() {
			e.Histogram[i+1].Keys++
			return
		}
	}
	e.Histogram[len(e.Histogram)-1].Keys++
}

func (s *expirySpread) result() Expiry { return s.e }
