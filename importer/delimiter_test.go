package importer_test

import (
	"testing"

	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/record"
)

func TestDelimiter(t *testing.T) {
	tests := []struct {
		d, path string
		want    rune
		err     string
	}{
		{"", "a.csv", ',', ""},
		{"", "a.TSV", '\t', ""},
		{"", "a.tsv.gz", '\t', ""},
		{"", "a.tsv.bz2", ',', ""},
		{";", "a.tsv", ';', ""},
		{`\t`, "a.csv", '\t', ""},
		{"\t", "-", '\t', ""},
		{"é", "a.csv", 'é', ""},
		{"ab", "a.csv", 0, `"ab": want one character other than a quote or newline`},
		{`"`, "a.csv", 0, `"\"": want one character other than a quote or newline`},
		{"\n", "a.csv", 0, `"\n": want one character other than a quote or newline`},
		{"\r", "a.csv", 0, `"\r": want one character other than a quote or newline`},
		{"\xff", "a.csv", 0, `"\xff": want one character other than a quote or newline`},
	}
	for _, tt := range tests {
		got, err := importer.Delimiter(tt.d, tt.path)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q %q: %v, want %s", tt.d, tt.path, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("%q %q: %q, %v; want %q", tt.d, tt.path, got, err, tt.want)
		}
	}
}

func TestCSVOptionsCheck(t *testing.T) {
	tests := []struct {
		opts importer.CSVOptions
		err  string
	}{
		{importer.CSVOptions{}, ""},
		{importer.CSVOptions{Type: record.String, DB: record.MaxDB}, ""},
		{importer.CSVOptions{Type: record.Hash}, ""},
		{importer.CSVOptions{Type: record.ZSet}, `--csv-type "zset" (known: string, hash)`},
		{importer.CSVOptions{DB: -1}, "--db -1 out of range (0 to 2147483647)"},
		{importer.CSVOptions{DB: record.MaxDB + 1}, "--db 2147483648 out of range (0 to 2147483647)"},
	}
	for _, tt := range tests {
		err := tt.opts.Check()
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("%+v: %v, want %q", tt.opts, err, tt.err)
		}
	}
}
