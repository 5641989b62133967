package resp

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/record"
)

// TestAtomic checks the commands of Options.Atomic: records of one command (or DEL and one)
// as they are, others under a temporary name in the key's slot renamed last, expired ones
// as DEL key.
func TestAtomic(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	fixed := func() time.Time { return now }
	later, past := now.UnixMilli()+5000, now.UnixMilli()-1
	v62, _ := ParseVersion("6.0.0")
	hash := func(key string, exp int64, n int) record.Record {
		r := record.Record{Key: []byte(key), Type: record.Hash, ExpireAtMS: exp}
		for i := range n {
			r.Members = append(r.Members, record.Member{Name: []byte{'f', byte('0' + i)}, Value: []byte("v")})
		}
		return r
	}
	tests := []struct {
		name string
		o    Options
		rec  record.Record
		want string // TMP stands for the temporary name
	}{
		{"string", Options{}, record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v")}, "SET k v ."},
		{"string with expiry", Options{}, record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v"), ExpireAtMS: later}, "SET k v PXAT 1005000 ."},
		{"string with expiry before 6.2", Options{Server: v62}, record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v"), ExpireAtMS: later}, "SET TMP v\nPEXPIREAT TMP 1005000\nRENAME TMP k ."},
		{"expired string", Options{}, record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v"), ExpireAtMS: past}, "DEL k ."},
		{"expiry now", Options{}, record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v"), ExpireAtMS: now.UnixMilli()}, "DEL k ."},
		{"small hash", Options{}, hash("h", 0, 2), "DEL h\nHSET h f0 v f1 v ."},
		{"small hash with expiry", Options{}, hash("h", later, 2), "HSET TMP f0 v f1 v\nPEXPIREAT TMP 1005000\nRENAME TMP h ."},
		{"hash of two commands", Options{MaxMembers: 1}, hash("h", 0, 2), "HSET TMP f0 v\nHSET TMP f1 v\nRENAME TMP h ."},
		{"expired hash", Options{MaxMembers: 1}, hash("h", past, 3), "DEL h ."},
		{"key with a hash tag", Options{MaxMembers: 1}, hash("a{user}b", 0, 2), "HSET TMP f0 v\nHSET TMP f1 v\nRENAME TMP a{user}b ."},
		{"stream with a group", Options{}, record.Record{Key: []byte("s"), Type: record.Stream,
			Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
			Stream:  record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g"), LastID: record.StreamID{Ms: 1}, EntriesRead: -1}}}},
			"XADD TMP 1-0 f v\nXSETID TMP 1-0 ENTRIESADDED 1 MAXDELETEDID 0-0\nXGROUP CREATE TMP g 1-0\nRENAME TMP s ."},
	}
	tmp := regexp.MustCompile(`\{[0-9a-z]+\}rdbgen-tmp:[0-9a-f]{16}:[0-9]+`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			o.Atomic, o.Now = true, fixed
			got, err := lines(t, o, tt.rec)
			if err != nil {
				t.Fatal(err)
			}
			names := tmp.FindAllString(got, -1)
			for _, n := range names {
				if n != names[0] {
					t.Fatalf("two temporary names: %q", got)
				}
				if cluster.Slot([]byte(n)) != cluster.Slot(tt.rec.Key) {
					t.Fatalf("%s is not in the slot of %q", n, tt.rec.Key)
				}
			}
			if got = tmp.ReplaceAllString(got, "TMP"); got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	// Two records get two names.
	got, err := lines(t, Options{Atomic: true, MaxMembers: 1}, hash("a", 0, 2), hash("b", 0, 2))
	if err != nil {
		t.Fatal(err)
	}
	if names := tmp.FindAllString(got, -1); len(names) != 6 || names[0] == names[3] {
		t.Fatalf("names %q", names)
	}
	if strings.Contains(got, "DEL") {
		t.Fatalf("RENAME replaces the key, DEL is left out:\n%s", got)
	}
}
