package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// rlen is an RDB length of up to 16383.
func rlen(n int) []byte {
	if n < 64 {
		return []byte{byte(n)}
	}
	return []byte{0x40 | byte(n>>8), byte(n)}
}

// bigCollection is a collection of type t (2 set, 4 hash, 5 zset, 24 field-TTL hash) of key
// "big" holding members, in plain encoding.
func bigCollection(t byte, members []string) []byte { return keyedCollection(t, "big", members) }

// keyedCollection is bigCollection of key.
func keyedCollection(t byte, key string, members []string) []byte {
	b := []byte{t}
	b = append(b, rstr(key)...)
	if t == 24 {
		b = append(b, le64(0)...)
	}
	b = append(b, rlen(len(members))...)
	for _, m := range members {
		switch t {
		case 2:
			b = append(b, rstr(m)...)
		case 4:
			b = cat(b, rstr(m), rstr("v"))
		case 5:
			b = cat(b, rstr(m), le64(0))
		case 24:
			b = cat(b, []byte{0}, rstr(m), rstr("v"))
		}
	}
	return b
}

// readOnce hides a source's ReadAt and Seek: a Reader cannot read it again.
type readOnce struct{ io.Reader }

// TestRepeatedMembersLogged checks collections past the members held in memory (a tiny
// threshold, and a hash log that spills and checks in rounds), members sharing hashes
// (all, half, or none): a member that comes again near the start, in the middle or at the
// end is an error naming the key and, from a file, the member; distinct members pass, from
// a file even when all share a hash; the log's temporary file is gone afterwards.
func TestRepeatedMembersLogged(t *testing.T) {
	defer decoder.SetLoggedMembers(16)()
	defer decoder.SetLogSizes(2, 4)()
	const n = 300
	members := setMembers(n)
	cases := []struct {
		name   string
		extra  []string // appended to m0 to m{n-1}
		at     int      // or inserted at, with extra[0]
		member string   // the repeated member, "" for none
	}{
		{"distinct", nil, 0, ""},
		{"repeat near the start", nil, 2, "m1"},
		{"repeat just past the threshold", nil, 17, "m3"},
		{"repeat in the middle", nil, n / 2, "m100"},
		{"repeat at the end", []string{"m299"}, 0, "m299"},
		{"repeat of the first at the end", []string{"m0"}, 0, "m0"},
	}
	types := []struct {
		name string
		t    byte
	}{{"set", 2}, {"hash", 4}, {"zset", 5}, {"field-ttl hash", 24}}
	for _, mask := range []uint64{0, 1, ^uint64(0)} {
		for _, ty := range types {
			for _, once := range []bool{false, true} {
				for _, tc := range cases {
					t.Run(fmt.Sprintf("mask %x/%s/once %v/%s", mask, ty.name, once, tc.name), func(t *testing.T) {
						defer decoder.SetKeyMask(mask)()
						m := append([]string{}, members...)
						switch {
						case tc.at > 0:
							m = append(m[:tc.at:tc.at], append([]string{tc.member}, m[tc.at:]...)...)
						case tc.member != "":
							m = append(m, tc.member)
						}
						version := "0009"
						if ty.t == 24 {
							version = "0012"
						}
						file := rdbFile(version, bigCollection(ty.t, m)) // one key: keys share hashes too
						dir := t.TempDir()
						t.Setenv("TMPDIR", dir)
						var src io.Reader = bytes.NewReader(file)
						if once {
							src = readOnce{src}
						}
						rd, err := decoder.NewReader(src, decoder.Options{OnDuplicate: record.DupError})
						if err != nil {
							t.Fatal(err)
						}
						err = rd.WriteTo(context.Background(), &nopSink{})
						if left, _ := os.ReadDir(dir); len(left) != 0 {
							t.Errorf("left in $TMPDIR: %v", left)
						}
						sharing := once && mask != ^uint64(0) // hashes repeat, and cannot be compared
						if tc.member == "" && !sharing {
							if err != nil {
								t.Fatalf("distinct members: %v", err)
							}
							return
						}
						var de *decoder.Error
						if !errors.As(err, &de) || !errors.Is(err, record.ErrDuplicateMember) || string(de.Key) != "big" {
							t.Fatalf("got %v, want record.ErrDuplicateMember naming key \"big\"", err)
						}
						if once && strings.Contains(err.Error(), "share the 64-bit hash") {
							return // past the threshold, read once: the hash named
						}
						if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.member)) {
							t.Fatalf("got %v, want the member %q named", err, tc.member)
						}
					})
				}
			}
		}
	}
}

// TestLoggedMembersOfSeveralCollections checks that the hash logs of collections read one
// after the other (the second taking the first's buffers) start empty: distinct members of
// sets that share members are no error, and a member repeated in the last set is.
func TestLoggedMembersOfSeveralCollections(t *testing.T) {
	defer decoder.SetLoggedMembers(16)()
	defer decoder.SetLogSizes(2, 4)()
	m := setMembers(300)
	for _, tc := range []struct {
		name   string
		last   []string
		member string
	}{
		{"distinct", m, ""},
		{"repeated", append(append([]string{}, m...), "m150"), "m150"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := rdbFile("0009", keyedCollection(2, "a", m), keyedCollection(4, "b", m), keyedCollection(2, "c", tc.last))
			readRepeatedMember(t, file, "c", tc.member)
		})
	}
}
