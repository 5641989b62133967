package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc64"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// The golden hashes of TestGoldenOutputs are of the outputs with the tool's version left
// out, so that a release does not change them: in an RDB file, the value of the AUX field
// toolVersionAux, which the writer puts in the header; in its manifest, the generator's
// version, and the checksum and the size, which follow from that field and the rest. Nothing
// else is changed; what is left out for following from the rest is checked against it instead.

// toolVersionAux is the AUX field that names the version of rdbgen that wrote a file.
const toolVersionAux = "rdbgen-ver"

// Placeholders of what normalization leaves out.
const (
	toolVersionMark = "<rdbgen-ver>"
	checksumMark    = "<crc64>"
	sizeMark        = "<size>"
	rootMark        = "<root>"
	workMark        = "<work>"
)

// redisCRC is the table of the RDB trailer's CRC-64 (Jones polynomial, reflected), computed
// by hash/crc64 rather than by the writer's own code.
var redisCRC = crc64.MakeTable(0x95ac9329ac4bc9b5)

var errNotNormalizable = errors.New("golden: cannot normalize")

// rdbFacts is what normalizing an RDB file learned: the manifest's normalization needs them.
type rdbFacts struct {
	version  int    // the RDB version of the header
	tool     string // the value of the toolVersionAux field
	checksum uint64 // the trailer, checked against the bytes it covers
	size     int    // the file's
}

// normalizeRDB returns the SHA-256 of the RDB file data with the value of its toolVersionAux
// AUX field replaced by toolVersionMark and without its 8-byte checksum trailer, which must
// be the CRC-64 of the bytes before it (then it follows from them and from the field's value).
func normalizeRDB(data []byte) (string, rdbFacts, error) {
	var f rdbFacts
	if len(data) < 9+1+8 || string(data[:5]) != "REDIS" {
		return "", f, fmt.Errorf("%w: not an RDB file", errNotNormalizable)
	}
	v, err := strconv.Atoi(string(data[5:9]))
	if err != nil {
		return "", f, fmt.Errorf("%w: RDB version %q", errNotNormalizable, data[5:9])
	}
	f.version, f.size = v, len(data)
	body := data[:len(data)-8]
	f.checksum = binary.LittleEndian.Uint64(data[len(data)-8:])
	if want := ^crc64.Update(^uint64(0), redisCRC, body); f.checksum != want {
		return "", f, fmt.Errorf("%w: checksum %016x, the bytes give %016x", errNotNormalizable, f.checksum, want)
	}
	start, end := -1, -1
	for i := 9; i < len(body) && body[i] == 0xfa; { // the header's AUX fields
		key, next, err := rdbString(body, i+1)
		if err != nil {
			return "", f, err
		}
		value, after, err := rdbString(body, next)
		if err != nil {
			return "", f, err
		}
		if key == toolVersionAux {
			if start >= 0 {
				return "", f, fmt.Errorf("%w: two %s fields", errNotNormalizable, toolVersionAux)
			}
			start, end, f.tool = next, after, value
		}
		i = after
	}
	if start < 0 {
		return "", f, fmt.Errorf("%w: no %s AUX field in the header", errNotNormalizable, toolVersionAux)
	}
	h := sha256.New()
	h.Write(body[:start])
	h.Write([]byte(toolVersionMark))
	h.Write(body[end:])
	return hex.EncodeToString(h.Sum(nil)), f, nil
}

// rdbString decodes the RDB string at data[i:] (a length and bytes, or an integer; never LZF
// in a header) and returns it and the offset after it.
func rdbString(data []byte, i int) (string, int, error) {
	short := fmt.Errorf("%w: header string at %d is cut short", errNotNormalizable, i)
	if i >= len(data) {
		return "", 0, short
	}
	b := data[i]
	n, at := 0, i+1
	switch b >> 6 {
	case 0:
		n = int(b & 0x3f)
	case 1:
		if at >= len(data) {
			return "", 0, short
		}
		n, at = int(b&0x3f)<<8|int(data[at]), at+1
	case 3:
		size := map[byte]int{0xc0: 1, 0xc1: 2, 0xc2: 4}[b]
		if size == 0 {
			return "", 0, fmt.Errorf("%w: header string at %d has encoding %#x", errNotNormalizable, i, b)
		}
		if at+size > len(data) {
			return "", 0, short
		}
		var x int64
		switch size {
		case 1:
			x = int64(int8(data[at]))
		case 2:
			x = int64(int16(binary.LittleEndian.Uint16(data[at:])))
		case 4:
			x = int64(int32(binary.LittleEndian.Uint32(data[at:])))
		}
		return strconv.FormatInt(x, 10), at + size, nil
	default:
		return "", 0, fmt.Errorf("%w: header string at %d is longer than 16 KiB", errNotNormalizable, i)
	}
	if at+n > len(data) {
		return "", 0, short
	}
	return string(data[at : at+n]), at + n, nil
}

// normalizeManifest returns the SHA-256 of the manifest m of an RDB file of which normalizeRDB
// learned f: with the generator's version replaced by toolVersionMark, the checksum and the
// size (which must be the file's) by checksumMark and sizeMark, and at the start of a path (an input's or a spec's,
// which the manifest makes absolute) the directories of the test: root, the module's, by
// rootMark, and work, the test's temporary one, by workMark.
func normalizeManifest(m []byte, f rdbFacts, root, work string) (string, error) {
	var fields struct {
		Generator string `json:"generator"`
		Checksum  string `json:"checksum"`
		Bytes     int    `json:"bytes"`
	}
	if err := json.Unmarshal(m, &fields); err != nil {
		return "", fmt.Errorf("%w: manifest: %v", errNotNormalizable, err)
	}
	if want := "rdbgen " + f.tool; fields.Generator != want {
		return "", fmt.Errorf("%w: manifest generator %q, the file's %s is %q", errNotNormalizable, fields.Generator, toolVersionAux, want)
	}
	if want := fmt.Sprintf("%016x", f.checksum); fields.Checksum != want {
		return "", fmt.Errorf("%w: manifest checksum %q, the file's %q", errNotNormalizable, fields.Checksum, want)
	}
	if fields.Bytes != f.size {
		return "", fmt.Errorf("%w: manifest bytes %d, the file has %d", errNotNormalizable, fields.Bytes, f.size)
	}
	for _, r := range []struct{ old, new string }{
		{`"generator": "rdbgen ` + f.tool + `"`, `"generator": "rdbgen ` + toolVersionMark + `"`},
		{`"checksum": "` + fields.Checksum + `"`, `"checksum": "` + checksumMark + `"`},
		{`"bytes": ` + strconv.Itoa(f.size) + ",", `"bytes": "` + sizeMark + `",`},
	} {
		if bytes.Count(m, []byte(r.old)) != 1 {
			return "", fmt.Errorf("%w: manifest: %s is not there once", errNotNormalizable, r.old)
		}
		m = bytes.Replace(m, []byte(r.old), []byte(r.new), 1)
	}
	for dir, mark := range map[string]string{root: rootMark, work: workMark} {
		quoted, err := json.Marshal(dir + "/")
		if err != nil {
			return "", err
		}
		m = bytes.ReplaceAll(m, quoted[:len(quoted)-1], []byte(`"`+mark+`/`))
	}
	sum := sha256.Sum256(m)
	return hex.EncodeToString(sum[:]), nil
}

// TestNormalizeRDB checks the normalization on a file the CLI writes: a different tool
// version (with its checksum) gives the same hash; a changed byte anywhere else (with its
// checksum) a different one; a checksum that does not match the bytes, an error.
func TestNormalizeRDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if _, stderr, err := run(t, context.Background(), "--count", "3", "--type", "hash", "--target", "redis-7.0", "-q", "--base-time", goldenBaseTime, "-o", path); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, f, err := normalizeRDB(data)
	if err != nil {
		t.Fatal(err)
	}
	// resum gives b the checksum of its bytes.
	resum := func(b []byte) []byte {
		binary.LittleEndian.PutUint64(b[len(b)-8:], ^crc64.Update(^uint64(0), redisCRC, b[:len(b)-8]))
		return b
	}
	field := []byte("\x0a" + toolVersionAux + string(rune(len(f.tool))) + f.tool)
	at := bytes.Index(data, field)
	if at < 0 || f.version != 10 {
		t.Fatalf("no %q in the header of an RDB %d file", field, f.version)
	}
	valueAt := at + len(field) - len(f.tool)
	other := slices.Concat(data[:at], []byte("\x0a"+toolVersionAux+"\x0b9.99.0-next"), data[valueAt+len(f.tool):])
	if got, g, err := normalizeRDB(resum(other)); err != nil || got != want || g.tool != "9.99.0-next" {
		t.Errorf("another tool version: %s (%q) %v, want %s", got, g.tool, err, want)
	}
	for _, i := range []int{5, at - 1, valueAt - 1, valueAt + len(f.tool), len(data) / 2, len(data) - 9} {
		flipped := slices.Clone(data)
		flipped[i] ^= 0x20
		if got, _, err := normalizeRDB(resum(flipped)); err == nil && got == want {
			t.Errorf("byte %d changed: the same hash", i)
		}
	}
	for _, i := range []int{valueAt, len(data) / 2, len(data) - 1} {
		flipped := slices.Clone(data)
		flipped[i] ^= 0x20
		if _, _, err := normalizeRDB(flipped); !errors.Is(err, errNotNormalizable) {
			t.Errorf("byte %d changed, the checksum not: %v", i, err)
		}
	}
}
