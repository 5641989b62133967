package encoder

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
)

// hexBytes decodes hex written with spaces and line breaks, as xxd prints it.
func hexBytes(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordBytes writes one record with write in a file of RDB version v and returns the
// record's bytes: what lies between the database selector and the EOF marker.
func recordBytes(t testing.TB, v int, opts Options, write func(w *Writer) error) []byte {
	t.Helper()
	file := func(write func(w *Writer) error) []byte {
		var buf bytes.Buffer
		opts.RDBVersion, opts.CreatedAt = v, fixedTime
		w, err := NewWriter(&buf, opts)
		must(t, err)
		must(t, w.BeginDB(0, DBInfo{}))
		if write != nil {
			if err := write(w); err != nil {
				t.Fatalf("write: %v", err)
			}
		}
		must(t, w.Close())
		return buf.Bytes()
	}
	empty := file(nil)
	full := file(write)
	return full[len(empty)-9 : len(full)-9]
}

// strs turns strings into the [][]byte of a stream entry.
func strs(s ...string) [][]byte {
	b := make([][]byte, len(s))
	for i, x := range s {
		b[i] = []byte(x)
	}
	return b
}

// notesStream writes the stream of the notes' §1.5 (Redis: XADD s 1-1 a 1 b x, 2-1 a 2 b y,
// 3-1 a 3 b z, XGROUP CREATE s g 0, XREADGROUP GROUP g c COUNT 1 STREAMS s >) with the
// times the notes' server recorded.
func notesStream(ms int64) func(w *Writer) error {
	return func(w *Writer) error {
		must := func(err error) {
			if err != nil {
				panic(err)
			}
		}
		must(sinkStream(w, []byte("s"), 0))
		must(sinkEntry(w, StreamID{Ms: 1, Seq: 1}, strs("a", "1", "b", "x")))
		must(sinkEntry(w, StreamID{Ms: 2, Seq: 1}, strs("a", "2", "b", "y")))
		must(sinkEntry(w, StreamID{Ms: 3, Seq: 1}, strs("a", "3", "b", "z")))
		return sinkEndStream(w, StreamMeta{}, StreamGroup{
			Name: []byte("g"), LastID: StreamID{Ms: 1, Seq: 1}, EntriesRead: 1,
			Pending:   []StreamPending{{ID: StreamID{Ms: 1, Seq: 1}, DeliveryTimeMS: ms, DeliveryCount: 1}},
			Consumers: []StreamConsumer{{Name: []byte("c"), SeenTimeMS: ms, ActiveTimeMS: ms, Pending: []StreamID{{Ms: 1, Seq: 1}}}},
		})
	}
}

// The objects of /work/shared/notes/rdb-streams-field-ttl.md §1.5 to §1.7, as Redis 7.4.1,
// 7.0.15 and 5.0.14 wrote them (object bytes 0 to 0x4f are the same but for the type byte).
const (
	notesStreamHead = `
	1501 7301 1000 0000 0000 0000 0100 0000
	0000 0000 013c 3c00 0000 1800 0301 0001
	0201 8161 0281 6202 0001 0201 0001 0001
	0101 8178 0205 0102 0101 0100 0102 0181
	7902 0501 0201 0201 0001 0301 817a 0205`
	notesStream21Tail = `
	01ff 0303 0101 0100 0003 0101 6701 0101
	0100 0000 0000 0000 0100 0000 0000 0000
	01e4 c5d0 31a2 0100 0001 0101 63e4 c5d0
	31a2 0100 00e4 c5d0 31a2 0100 0001 0000
	0000 0000 0001 0000 0000 0000 0001`
	notesStream19Tail = `
	01ff 0303 0101 0100 0003 0101 6701 0101
	0100 0000 0000 0000 0100 0000 0000 0000
	0163 a6d1 31a2 0100 0001 0101 6363 a6d1
	31a2 0100 0001 0000 0000 0000 0001 0000
	0000 0000 0001`
	notesStream15Tail = `
	01ff 0303 0101 0167 0101 0100 0000 0000
	0000 0100 0000 0000 0000 01a8 a1d1 31a2
	0100 0001 0101 63a8 a1d1 31a2 0100 0001
	0000 0000 0000 0001 0000 0000 0000 0001`
)

func TestStreamBytesLikeRedis(t *testing.T) {
	tests := []struct {
		name string
		v    int
		typ  byte
		ms   int64
		tail string
	}{
		{"type 21, Redis 7.4.1", 12, 21, 0x1a231d0c5e4, notesStream21Tail},
		{"type 21 at RDB 11", 11, 21, 0x1a231d0c5e4, notesStream21Tail},
		{"type 19, Redis 7.0.15", 10, 19, 0x1a231d1a663, notesStream19Tail},
		{"type 15, Redis 5.0.14", 9, 15, 0x1a231d1a1a8, notesStream15Tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := append(hexBytes(t, notesStreamHead), hexBytes(t, tt.tail)...)
			want[0] = tt.typ
			// The servers' liblzf does not shrink the 60-byte node by 4 bytes; rdbgen's LZF
			// does (by 5), so the comparison is without compression.
			got := recordBytes(t, tt.v, Options{DisableCompression: true}, notesStream(tt.ms))
			if !bytes.Equal(got, want) {
				t.Fatalf("got\n%x\nwant\n%x", got, want)
			}
		})
	}
}

// TestStreamNodeEncodings checks the node listpacks of the cases the notes' §1.8 shows: an
// entry whose fields are not the master's, and a negative seq difference.
func TestStreamNodeEncodings(t *testing.T) {
	got := recordBytes(t, 11, Options{DisableCompression: true}, func(w *Writer) error {
		must(t, sinkStream(w, []byte("s2"), 0))
		must(t, sinkEntry(w, StreamID{Ms: 1, Seq: 1}, strs("a", "1", "b", "x")))
		must(t, sinkEntry(w, StreamID{Ms: 1, Seq: 2}, strs("c", "9")))
		must(t, sinkEntry(w, StreamID{Ms: 2, Seq: 0}, strs("a", "1", "b", "2")))
		return sinkEnd(w)
	})
	lp := hexBytes(t, `
		3e00 0000 1900
		03 01  00 01  02 01  8161 02  8162 02  00 01
		02 01  00 01  00 01  01 01  8178 02  05 01
		00 01  00 01  01 01  01 01  8163 02  09 01  06 01
		02 01  01 01  dfff 02  01 01  02 01  05 01
		ff`)
	want := append(hexBytes(t, "15 02 7332 01 10 00000000000000010000000000000001"), 0x3e)
	want = append(append(want, lp...), hexBytes(t, "03 0200 0101 0000 03 00")...)
	if !bytes.Equal(got, want) {
		t.Fatalf("got\n%x\nwant\n%x", got, want)
	}
}

// streamNodes returns the entries per node of a stream record written with limits.
func streamNodes(t *testing.T, limits rdb.Thresholds, entries int, value string) []int {
	t.Helper()
	rec := recordBytes(t, 11, Options{DisableCompression: true, Thresholds: &limits}, func(w *Writer) error {
		must(t, sinkStream(w, []byte("k"), 0))
		for i := 1; i <= entries; i++ {
			must(t, sinkEntry(w, StreamID{Ms: uint64(i), Seq: 0}, strs("f", value)))
		}
		return sinkEnd(w)
	})
	b := rec[3:]
	n, b := decodeLength(t, b)
	counts := make([]int, n)
	for i := range counts {
		_, b = decodeLength(t, b) // node key: 16
		b = b[16:]
		size, rest := decodeLength(t, b)
		lp := rest[:size]
		b = rest[size:]
		counts[i] = int(lp[6]) // master count: a 7-bit listpack integer here
	}
	return counts
}

func TestStreamNodeLimits(t *testing.T) {
	def := rdb.DefaultThresholds()
	bytes100 := def
	bytes100.StreamNodeMaxBytes = 100
	noEntries := def
	noEntries.StreamNodeMaxEntries = 0
	tests := []struct {
		name    string
		limits  rdb.Thresholds
		entries int
		value   string
		want    []int
	}{
		// Both seen on Redis 7.4.1 (notes §1.3).
		{"250 small entries", def, 250, "v", []int{100, 100, 50}},
		{"1000-byte values", def, 10, strings.Repeat("x", 1000), []int{4, 4, 2}},
		{"one entry", def, 1, "v", []int{1}},
		{"exactly 100", def, 100, "v", []int{100}},
		{"101", def, 101, "v", []int{100, 1}},
		{"no entries limit", noEntries, 120, "v", []int{120}},
		// 18 bytes of node and 20 per entry: a fourth entry is taken at 78+11 < 100.
		{"100 bytes", bytes100, 12, "0123456789", []int{4, 4, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := streamNodes(t, tt.limits, tt.entries, tt.value)
			if !equalInts(got, tt.want) {
				t.Fatalf("entries per node %v, want %v", got, tt.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStreamErrors(t *testing.T) {
	one := strs("f", "v")
	tests := []struct {
		name  string
		v     int
		write func(w *Writer) error
		want  error
		msg   string
	}{
		{"RDB 8", 8, func(w *Writer) error { return sinkStream(w, []byte("k"), 0) }, rdb.ErrCannotHold, `key "k": a stream needs RDB 9, and the file is written as RDB 8, below redis-5.0's own 9`},
		{"id 0-0", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEntry(w, StreamID{}, one)
		}, ErrStreamID, "entry 0-0 after 0-0"},
		{"falling ids", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			must(t, sinkEntry(w, StreamID{Ms: 5, Seq: 1}, one))
			return sinkEntry(w, StreamID{Ms: 5, Seq: 0}, one)
		}, ErrStreamID, "entry 5-0 after 5-1"},
		{"odd fields", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEntry(w, StreamID{Ms: 1, Seq: 0}, strs("f"))
		}, ErrStreamFields, "1 strings"},
		{"no fields", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEntry(w, StreamID{Ms: 1, Seq: 0}, nil)
		}, ErrStreamFields, "0 strings"},
		{"last id", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			must(t, sinkEntry(w, StreamID{Ms: 7, Seq: 0}, one))
			return sinkEndStream(w, StreamMeta{LastID: StreamID{Ms: 6, Seq: 0}})
		}, ErrStreamMeta, "last id 6-0 before the last entry 7-0"},
		{"pending without consumer", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEndStream(w, StreamMeta{}, StreamGroup{Name: []byte("g"), Pending: []StreamPending{{ID: StreamID{Ms: 1, Seq: 0}}}})
		}, ErrStreamGroup, "pending id 1-0 has no consumer"},
		{"consumer owns unknown id", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEndStream(w, StreamMeta{}, StreamGroup{Name: []byte("g"), Consumers: []StreamConsumer{{Name: []byte("c"), Pending: []StreamID{{Ms: 1, Seq: 0}}}}})
		}, ErrStreamGroup, `consumer "c" owns 1-0`},
		{"owned twice", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEndStream(w, StreamMeta{}, StreamGroup{Name: []byte("g"),
				Pending: []StreamPending{{ID: StreamID{Ms: 1, Seq: 0}}},
				Consumers: []StreamConsumer{
					{Name: []byte("a"), Pending: []StreamID{{Ms: 1, Seq: 0}}},
					{Name: []byte("b"), Pending: []StreamID{{Ms: 1, Seq: 0}}}}})
		}, ErrStreamGroup, "owned twice"},
		{"group twice", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkEndStream(w, StreamMeta{}, StreamGroup{Name: []byte("g")}, StreamGroup{Name: []byte("g")})
		}, ErrStreamGroup, `group "g" twice`},
		{"entry without stream", 9, func(w *Writer) error {
			return sinkEntry(w, StreamID{Ms: 1, Seq: 0}, one)
		}, ErrNoCollection, "add a stream entry while none is open"},
		{"stream left open", 9, func(w *Writer) error {
			must(t, sinkStream(w, []byte("k"), 0))
			return sinkString(w, []byte("x"), nil, 0)
		}, ErrCollectionOpen, `key "k" was not ended`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewWriter(&bytes.Buffer{}, Options{RDBVersion: tt.v})
			must(t, err)
			must(t, w.BeginDB(0, DBInfo{}))
			err = tt.write(w)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("%v, want %v containing %q", err, tt.want, tt.msg)
			}
			if !errors.Is(w.Close(), tt.want) {
				t.Fatalf("Close does not keep the error")
			}
		})
	}
}

// TestStreamSpool writes a stream whose nodes outgrow memory: the bytes are those of the same
// stream held in memory, and the temporary file is gone after Close.
func TestStreamSpool(t *testing.T) {
	write := func(w *Writer) error {
		must(t, sinkStream(w, []byte("big"), 0))
		for i := 1; i <= 3000; i++ {
			must(t, sinkEntry(w, StreamID{Ms: uint64(i), Seq: 0}, strs("f", strings.Repeat("v", i%97), "n", "7")))
		}
		return sinkEnd(w)
	}
	dir := t.TempDir()
	inMemory := recordBytes(t, 11, Options{TempDir: dir}, write)
	defer func(old int) { maxSpoolMem = old }(maxSpoolMem)
	maxSpoolMem = 1000
	spooled := recordBytes(t, 11, Options{TempDir: dir, BufferSize: 4096}, write)
	if !bytes.Equal(spooled, inMemory) {
		t.Fatalf("spooled stream differs (%d bytes, want %d)", len(spooled), len(inMemory))
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left in the temporary directory: %v", left)
	}
	// A Writer closed with the stream open removes its spool too.
	w, err := NewWriter(io.Discard, Options{TempDir: dir})
	must(t, err)
	must(t, w.BeginDB(0, DBInfo{}))
	must(t, sinkStream(w, []byte("k"), 0))
	for i := 1; i <= 3000; i++ {
		must(t, sinkEntry(w, StreamID{Ms: uint64(i), Seq: 0}, strs("f", "value")))
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Fatalf("no spool file in the temporary directory: %v", left)
	}
	if err := w.Close(); !errors.Is(err, ErrCollectionOpen) {
		t.Fatalf("Close: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left in the temporary directory: %v", left)
	}
}
