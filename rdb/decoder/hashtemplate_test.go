package decoder_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// TestHashTemplates reads Redis 8.10's template hashes (types 29-32, opcode 242) into
// ordinary hash records, field names from the template, values from the key.
func TestHashTemplates(t *testing.T) {
	abc, xy := []string{"a", "b", "c"}, []string{"x", "y"}
	file := rdbfixture.File(15,
		rdbfixture.HashTemplate(1, abc...),
		rdbfixture.HashTemplate(2, xy...),
		rdbfixture.Record(29, "lp0", rdbfixture.TemplateHash(29, 5, 0, abc, []string{"1", "2", "3"})),
		rdbfixture.Record(29, "lp1", rdbfixture.TemplateHash(29, 5, 1, xy, []string{"p", "q"})),
		rdbfixture.Expiring(4102444800000, rdbfixture.Record(30, "ref", rdbfixture.TemplateHash(30, 1, 0, nil, []string{"u", "v", "w"}))),
		rdbfixture.Record(31, "arr", rdbfixture.TemplateHash(31, 0, 0, xy, []string{"big", ""})),
		rdbfixture.Record(32, "aref", rdbfixture.TemplateHash(32, 2, 0, nil, []string{"m", "n"})),
	)
	recs, rd, err := readNewer(t, file, false)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, canonAll(recs), []string{
		`db0 "aref" hash exp=0 "x"="m" "y"="n"`,
		`db0 "arr" hash exp=0 "x"="big" "y"=""`,
		`db0 "lp0" hash exp=0 "a"="1" "b"="2" "c"="3"`,
		`db0 "lp1" hash exp=0 "x"="p" "y"="q"`,
		`db0 "ref" hash exp=4102444800000 "a"="u" "b"="v" "c"="w"`,
	})
	if got := rd.Stats().Types; got["hash-tmpl-lp"] != 2 || got["hash-tmpl-lp-ref"] != 1 || got["hash-tmpl-array"] != 1 || got["hash-tmpl-array-ref"] != 1 {
		t.Errorf("Types %v", got)
	}
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"unknown id", rdbfixture.File(15, rdbfixture.HashTemplate(1, "a"), rdbfixture.Record(32, "k", rdbfixture.TemplateHash(32, 9, 0, nil, []string{"v"}))), "hash template 9: not in the file's templates"},
		{"id twice", rdbfixture.File(15, rdbfixture.HashTemplate(1, "a"), rdbfixture.HashTemplate(1, "b")), "hash template 1 twice"},
		{"field twice", rdbfixture.File(15, rdbfixture.HashTemplate(1, "a", "a")), `field "a" twice`},
		{"no fields", rdbfixture.File(15, rdbfixture.HashTemplate(1)), "of 0 fields"},
		{"too few values", rdbfixture.File(15, rdbfixture.HashTemplate(1, "a", "b"), rdbfixture.Record(30, "k", rdbfixture.TemplateHash(30, 1, 0, nil, []string{"v"}))), "1 values for 2 fields"},
		{"bad format", rdbfixture.File(15, rdbfixture.Record(31, "k", rdbfixture.TemplateHash(31, 0, 2, []string{"a"}, []string{"v"}))), "field names in format 2"},
		{"type 29 in RDB 14", rdbfixture.File(14, rdbfixture.Record(29, "k", rdbfixture.TemplateHash(29, 1, 0, []string{"a"}, []string{"v"}))), "unknown value type 29"},
		{"opcode 242 in RDB 14", rdbfixture.File(14, rdbfixture.HashTemplate(1, "a")), "unknown opcode 242"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readNewer(t, tc.file, true)
			if !errors.Is(err, decoder.ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrCorrupt containing %q", err, tc.want)
			}
		})
	}
}

// FuzzHashTemplate reads the value of a hash of type 29 to 32 after a template registry.
func FuzzHashTemplate(f *testing.F) {
	abc := []string{"a", "b", "c"}
	for _, typ := range []byte{29, 30, 31, 32} {
		for _, format := range []int{0, 1} {
			f.Add(typ, rdbfixture.TemplateHash(typ, 1, format, abc, []string{"1", "2", "3"}))
		}
	}
	f.Fuzz(func(t *testing.T, typ byte, value []byte) {
		if typ < 29 || typ > 32 {
			return
		}
		fuzzNewer(t, rdbfixture.File(15, rdbfixture.HashTemplate(1, "a", "b", "c"), rdbfixture.Record(typ, "h", value)))
	})
}
