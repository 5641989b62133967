package verify

import "github.com/rdbgen/rdbgen/record"

// lapseSeconds is how far past the offline check the expiries of a file are counted second
// by second; later ones are counted together.
const lapseSeconds = 3600

// expiryClock counts the expiries of one database second by second from base, the time the
// offline check began, so that the keys a server that loaded the file holds later are known
// within a second: Redis drops the keys already expired as it loads a file, and the others
// as they expire. bins[0] counts the expiries at or before base, bins[i] those in
// (base+i-1 s, base+i s], and the last one those after the horizon.
type expiryClock struct {
	base int64
	bins [lapseSeconds + 2]uint64
}

// add counts an expiry at exp (Unix ms).
func (c *expiryClock) add(exp int64) {
	i := int64(0)
	if exp > c.base {
		i = min((exp-c.base+999)/1000, lapseSeconds+1)
	}
	c.bins[i]++
}

// bounds returns the Unix ms bounds (lo, hi] of the expiries of bin i; lo is math.MinInt64
// for the first and hi math.MaxInt64 for the last.
func (c *expiryClock) bounds(i int) (lo, hi int64) {
	lo, hi = c.base+int64(i-1)*1000, c.base+int64(i)*1000
	if i == 0 {
		lo = -1 << 63
	}
	if i == lapseSeconds+1 {
		hi = 1<<63 - 1
	}
	return lo, hi
}

// gone returns the keys that a server which began loading the file at loadMS has surely
// dropped (those expired before it), and those it may have dropped by untilMS.
func (c *expiryClock) gone(loadMS, untilMS int64) (surely, maybe uint64) {
	for i, n := range c.bins {
		lo, hi := c.bounds(i)
		if hi < loadMS {
			surely += n
		}
		if lo < untilMS {
			maybe += n
		}
	}
	return surely, maybe
}

// liveExpectation is what a server that loaded a file holds at a given time: the file's
// counts, less the keys whose TTL has lapsed.
type liveExpectation struct {
	dbs    map[int]DBCounts
	clocks map[int]*expiryClock
	loadMS int64 // when the server began loading the file (Unix ms)
}

// at returns the counts that a server holds at most, by database, and how many fewer it may
// hold, when it is read up to untilMS: the keys expired before the load are gone, and those
// expiring between the load and untilMS may be.
func (l liveExpectation) at(untilMS int64) (map[int]record.Counts, map[int]uint64) {
	dbs := make(map[int]record.Counts, len(l.dbs))
	lapse := map[int]uint64{}
	for db, c := range l.dbs {
		want := record.Counts{Keys: c.Keys, Expires: c.Expires}
		if clock := l.clocks[db]; clock != nil {
			surely, maybe := clock.gone(l.loadMS, untilMS)
			want.Keys -= surely
			want.Expires -= surely
			if maybe > surely {
				lapse[db] = maybe - surely
			}
		}
		if want.Keys > 0 {
			dbs[db] = want
		}
	}
	return dbs, lapse
}
