package server

import (
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

func TestWithDatabases(t *testing.T) {
	tests := []struct {
		args  []string
		maxDB int
		want  string
	}{
		{nil, 0, ""},
		{nil, 15, ""},
		{nil, 16, "--databases 17"},
		{[]string{"--maxmemory", "2mb"}, 200, "--maxmemory 2mb --databases 201"},
		{[]string{"--databases", "300"}, 200, "--databases 300"},
	}
	for _, tt := range tests {
		in := append([]string(nil), tt.args...)
		if got := strings.Join(WithDatabases(in, tt.maxDB), " "); got != tt.want {
			t.Errorf("WithDatabases(%q, %d) = %q, want %q", tt.args, tt.maxDB, got, tt.want)
		}
		if strings.Join(in, " ") != strings.Join(tt.args, " ") {
			t.Errorf("args changed to %q", in)
		}
	}
}

func TestHighestDB(t *testing.T) {
	tests := []struct {
		dbs  map[int]record.Counts
		want int
	}{
		{nil, -1},
		{map[int]record.Counts{3: {}}, -1}, // no keys
		{map[int]record.Counts{0: {Keys: 1}, 15: {Keys: 2}}, 15},
		{map[int]record.Counts{16: {Keys: 1}, 40: {Expires: 0}}, 16},
	}
	for _, tt := range tests {
		if got := HighestDB(tt.dbs); got != tt.want {
			t.Errorf("%v: %d, want %d", tt.dbs, got, tt.want)
		}
	}
}
