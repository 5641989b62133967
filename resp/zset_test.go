package resp

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// TestZSetNegativeZero checks which sorted sets with a -0 score go as RESTORE: one read from
// a listpack or ziplist, for Redis 7.0+, whose ZADD would store 0; not one read from a
// skiplist, whose -0 members are scored again last (1, then -0), nor for Redis 6.2, whose
// ZADD keeps "-0", nor one without -0. Where RESTORE cannot carry it, the error names the key.
func TestZSetNegativeZero(t *testing.T) {
	negZero := math.Copysign(0, -1)
	scores := []float64{1, negZero, 2.5}
	for _, c := range []struct {
		name    string
		o       Options
		doubles bool
		scores  []float64
		exp     int64
		want    string // the commands, payloads as *
		err     error
	}{
		{"listpack on 7.0", Options{Server: Version{7, 0}}, false, scores, 0, "DEL z\nRESTORE z 0 * REPLACE .", nil},
		{"newest server", Options{}, false, scores, 0, "DEL z\nRESTORE z 0 * REPLACE .", nil},
		{"expiry", Options{Server: Version{7, 0}}, false, scores, 4102444800000, "DEL z\nRESTORE z 4102444800000 * REPLACE ABSTTL .", nil},
		{"ZADD sent before", Options{Server: Version{7, 0}, MaxMembers: 1}, false, scores, 0, "DEL z\nZADD z 1 m0\nZADD z -0 m1\nRESTORE z 0 * REPLACE .", nil},
		{"skiplist on 7.0", Options{Server: Version{7, 0}}, true, scores, 0, "DEL z\nZADD z 1 m0 -0 m1 2.5 m2 1 m1\nZADD z -0 m1 .", nil},
		{"skiplist with expiry", Options{Server: Version{7, 0}, MaxMembers: 2}, true, scores, 9, "DEL z\nZADD z 1 m0 -0 m1\nZADD z 2.5 m2 1 m1\nZADD z -0 m1\nPEXPIREAT z 9 .", nil},
		{"skiplist on 6.2", Options{Server: Version{6, 2}}, true, scores, 0, "DEL z\nZADD z 1 m0 -0 m1 2.5 m2 .", nil},
		{"listpack on 6.2", Options{Server: Version{6, 2}}, false, scores, 0, "DEL z\nZADD z 1 m0 -0 m1 2.5 m2 .", nil},
		{"no -0", Options{Server: Version{7, 0}}, false, []float64{1, 0}, 0, "DEL z\nZADD z 1 m0 0 m1 .", nil},
		{"payload too large", Options{Server: Version{7, 0}, MaxPayload: 20}, false, scores, 0, "DEL z\nDEL z", ErrNegativeZero},
		{"restore too large", Options{Server: Version{7, 0}, Restore: true, MaxPayload: 20}, false, scores, 0, "DEL z", ErrNegativeZero},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out []string
			var payloads [][]byte
			cmds, err := NewCommands(restoreLines(&out, &payloads, false), c.o)
			if err != nil {
				t.Fatal(err)
			}
			defer cmds.Close()
			err = cmds.Begin(&record.Header{Key: []byte("z"), Type: record.ZSet, Len: uint64(len(c.scores)), ExpireAtMS: c.exp, DoubleScores: c.doubles})
			for i, s := range c.scores {
				if err == nil {
					err = cmds.Add(&record.Member{Name: []byte{'m', byte('0' + i)}, Score: s})
				}
			}
			if err == nil {
				err = cmds.End(nil)
			}
			if !errors.Is(err, c.err) || (err == nil) != (c.err == nil) {
				t.Fatalf("error %v, want %v", err, c.err)
			}
			if err != nil && !strings.Contains(err.Error(), `write key "z"`) {
				t.Errorf("error %v names no key", err)
			}
			if got := strings.Join(out, "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			for _, p := range payloads {
				if _, err := rdb.CheckPayload(p, c.o.Server.RDBVersion()); err != nil {
					t.Errorf("payload: %v", err)
				}
			}
		})
	}
}
