package summary

import (
	"bytes"
	"testing"
)

func TestPrint(t *testing.T) {
	sum := struct {
		Keys int `json:"keys"`
	}{3}
	tests := []struct {
		asJSON, quiet bool
		want          string
	}{
		{false, false, "3 keys\n"},
		{true, false, "{\n  \"keys\": 3\n}\n"},
		{true, true, "{\n  \"keys\": 3\n}\n"}, // --json wins over --quiet
		{false, true, ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := Print(&out, sum, tt.asJSON, tt.quiet, Text("3 keys\n")); err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("json=%v quiet=%v: %q, want %q", tt.asJSON, tt.quiet, out.String(), tt.want)
		}
	}
}
