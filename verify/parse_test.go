package verify

import (
	"maps"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

func TestParseHeader(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr string
	}{
		{"REDIS0009", 9, ""},
		{"REDIS0012\xfa", 12, ""},
		{"REDIS0000", 0, ""},
		{"VALKEY080", 80, ""},
		{"VALKEYx80", 0, `version "x80" is not a number`},
		{"REDIS", 0, "shorter than the 9-byte header"},
		{"", 0, "shorter than the 9-byte header"},
		{"REDIS00a9", 0, `version "00a9" is not a number`},
		{"REDIS-009", 0, "not a number"},
		{"redis0009", 0, "not REDIS"},
	}
	for _, tt := range tests {
		got, err := parseHeader([]byte(tt.in))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseHeader(%q) = %d, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseHeader(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"REDIS0009", "REDIS0012", "VALKEY080", "REDIS", "REDIS99999", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parseHeader(b)
		if err != nil {
			return
		}
		if len(b) < headerLen || (string(b[:5]) != "REDIS" && string(b[:6]) != "VALKEY") || v < 0 || v > 9999 {
			t.Fatalf("parseHeader(%q) = %d, accepted", b, v)
		}
	})
}

func TestParseKeyspace(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[int]DBCounts
		wantErr string
	}{
		{"empty server", "# Keyspace\r\n", map[int]DBCounts{}, ""},
		{"redis 7.0", "# Keyspace\r\ndb0:keys=1000,expires=10,avg_ttl=3599000\r\ndb3:keys=5,expires=0,avg_ttl=0\r\n",
			map[int]DBCounts{0: {Counts: record.Counts{Keys: 1000, Expires: 10}}, 3: {Counts: record.Counts{Keys: 5}}}, ""},
		{"redis 7.4", "# Keyspace\r\ndb0:keys=1,expires=1,avg_ttl=0,subexpiry=0\r\n", map[int]DBCounts{0: {Counts: record.Counts{Keys: 1, Expires: 1}}}, ""},
		{"unix newlines", "# Keyspace\ndb15:keys=2,expires=0,avg_ttl=0\n", map[int]DBCounts{15: {Counts: record.Counts{Keys: 2}}}, ""},
		{"bad db number", "dbx:keys=1,expires=0\r\n", nil, `bad line "dbx:keys=1,expires=0"`},
		{"negative db", "db-1:keys=1\r\n", nil, "bad line"},
		{"bad count", "db0:keys=many,expires=0\r\n", nil, "bad line"},
		{"no keys", "db0:expires=0\r\n", nil, "no key count"},
		{"db twice", "db0:keys=1\r\ndb0:keys=2\r\n", nil, "db 0 twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseKeyspace(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !maps.EqualFunc(got, tt.want, func(a, b DBCounts) bool { return a.Keys == b.Keys && a.Expires == b.Expires }) {
				t.Fatalf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func FuzzParseKeyspace(f *testing.F) {
	f.Add("# Keyspace\r\ndb0:keys=1000,expires=10,avg_ttl=3599000\r\n")
	f.Add("db3:keys=1,expires=1,avg_ttl=0,subexpiry=0\ndb4:keys=2")
	f.Add("db0:keys=18446744073709551615,expires=x")
	f.Fuzz(func(t *testing.T, s string) {
		dbs, err := parseKeyspace(s)
		if err != nil {
			return
		}
		for db := range dbs {
			if db < 0 {
				t.Fatalf("parseKeyspace(%q) gave db %d", s, db)
			}
		}
	})
}

func TestInfoField(t *testing.T) {
	info := "# Memory\r\nused_memory:1234\r\nused_memory_human:1.21K\r\n"
	if got := infoField(info, "used_memory"); got != "1234" {
		t.Errorf("used_memory = %q", got)
	}
	if got := infoField(info, "used_memory_peak"); got != "" {
		t.Errorf("a missing field = %q", got)
	}
}

func TestMismatchString(t *testing.T) {
	tests := []struct {
		m    Mismatch
		want string
	}{
		{Mismatch{Stage: StageFile, What: "checksum", Got: "1", Want: "2"}, "file: checksum: got 1, want 2"},
		{Mismatch{Stage: StageLoad, Got: "redis refused d.rdb: Can't handle RDB format version 12"},
			"load: redis refused d.rdb: Can't handle RDB format version 12"},
		{Mismatch{Stage: StageServer, DB: 3, Key: "k\x00", What: "value", Got: `"a"`, Want: `"b"`},
			`server: db 3 key "k\x00": value: got "a", want "b"`},
		{Mismatch{Stage: StageServer, Key: "k", Got: "missing"}, `server: db 0 key "k": missing`},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
	long := quote(strings.Repeat("x", 100))
	if want := `"` + strings.Repeat("x", maxQuoted) + `"... (100 bytes)`; long != want {
		t.Errorf("quote of a long value = %s", long)
	}
}

func TestMismatchesCapAndReason(t *testing.T) {
	ms := Options{MaxMismatches: 2}.newMismatches()
	for i := range 5 {
		ms.add(Mismatch{Stage: StageFile, What: "x", Got: string(rune('a' + i))})
	}
	var r Report
	ms.finish(&r)
	if r.Pass || r.MismatchCount != 5 || len(r.Mismatches) != 2 || r.Reason != "file: x: a (and 4 more)" {
		t.Fatalf("report %+v", r)
	}
	ms = Options{}.newMismatches()
	ms.finish(&r)
	if !r.Pass || r.Reason != "" || r.Mismatches != nil {
		t.Fatalf("empty report %+v", r)
	}
}
