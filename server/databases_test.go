package server

import (
	"strings"
	"testing"
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
