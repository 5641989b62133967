package decoder_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// fuzzNewer reads file with DropNewer off and on: neither panics; whatever reads without
// DropNewer reads the same with it, dropping nothing; what DropNewer reads passes
// record.Check; a refusal without DropNewer is ErrNewerType or damage.
func fuzzNewer(t *testing.T, file []byte) {
	strict, _, errStrict := readNewer(t, file, false)
	loose, rd, errLoose := readNewer(t, file, true)
	if errLoose == nil {
		for i := range loose {
			if err := loose[i].Check(); err != nil {
				t.Fatalf("record %s: %v", canon(&loose[i]), err)
			}
		}
	}
	switch {
	case errStrict == nil && errLoose != nil:
		t.Fatalf("read without DropNewer, not with it: %v", errLoose)
	case errStrict == nil && (len(rd.Stats().NewerDropped) > 0 || !slices.Equal(canonAll(strict), canonAll(loose))):
		t.Fatalf("DropNewer changed a file read whole: dropped %v", rd.Stats().NewerDropped)
	case errStrict != nil && !errors.Is(errStrict, decoder.ErrNewerType) && errLoose == nil:
		t.Fatalf("refused without DropNewer for another reason than ErrNewerType, read with it: %v", errStrict)
	}
}

// FuzzNewerStream reads the value of a stream of type 26 or 27 (stream_v4.go).
func FuzzNewerStream(f *testing.F) {
	used := rdbfixture.IDMP{Duration: 100, MaxSize: 100, Producers: map[string][]uint64{"p": {0}}, Added: 1}
	for _, st := range []rdbfixture.NewerStream{
		{Type: 26, Entries: 2, Pending: []uint64{1}, Owned: []uint64{1}, IDMP: rdbfixture.DefaultIDMP},
		{Type: 26, Entries: 1, IDMP: used},
		{Type: 27, Entries: 3, Pending: []uint64{0, 1}, Owned: []uint64{0}, Nacked: []uint64{1}, IDMP: rdbfixture.DefaultIDMP},
		{Type: 27, Entries: 2, IDMP: used},
	} {
		rec := st.Record("s")
		f.Add(st.Type, rec[3:]) // the value, after the type byte and the key "s"
	}
	f.Fuzz(func(t *testing.T, typ byte, value []byte) {
		if typ != 26 && typ != 27 {
			return
		}
		fuzzNewer(t, rdbfixture.File(14, rdbfixture.Record(typ, "s", value)))
	})
}

// FuzzKeyMeta reads opcode 243's body before a string key (keymeta.go).
func FuzzKeyMeta(f *testing.F) {
	f.Add(rdbfixture.KeyMeta("KMT1")[1:])
	f.Add(rdbfixture.KeyMeta("KMT1", "ab_-")[1:])
	f.Add([]byte{1, 0, 0, 0, 0, 5, 1, 'x', 0})
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzNewer(t, rdbfixture.File(13, rdbfixture.Cat([]byte{243}, body), rdbfixture.Record(0, "k", rdbfixture.Str("v"))))
	})
}
