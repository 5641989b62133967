package record

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestLibraryName(t *testing.T) {
	tests := []struct {
		code    string
		want    string
		wantErr string // "" for none; else a part of the message
	}{
		{"#!lua name=mylib\nreturn 1", "mylib", ""},
		{"#!lua name=mylib\n", "mylib", ""},
		{"#!lua NAME=MyLib\n", "MyLib", ""},
		{"#!lua \t name=a \r\ncode", "a", ""},
		{"#!lua   name=x_1\n", "x_1", ""},
		{"#!lua name=a\nname=b\n", "a", ""},          // only the first line counts
		{"#!lua name=é\n", "é", ""},                  // the server checks the characters
		{"#!lua name=mylib", "", "valid first line"}, // Redis needs the newline
		{"", "", "valid first line"},
		{"\n", "", "valid first line"},
		{"lua name=mylib\n", "", "valid first line"},
		{" #!lua name=mylib\n", "", "valid first line"},
		{"#!lua\n", "", "no name="},
		{"#!\n", "", "no name="},
		{"#!lua name=\n", "", "empty name"},
		{"#!lua name=a name=b\n", "", "given twice"},
		{"#!lua name=a version=2\n", "", `unknown part "version=2"`},
		{"#!lua nam=a\n", "", `unknown part "nam=a"`},
		{"#! lua name=a\n", "", `unknown part "lua"`},
	}
	for _, tt := range tests {
		got, err := LibraryName([]byte(tt.code))
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("LibraryName(%q) = %q, %v; want %q", tt.code, got, err, tt.want)
		case tt.wantErr != "" && (!errors.Is(err, ErrLibraryCode) || !strings.Contains(err.Error(), tt.wantErr) || got != ""):
			t.Errorf("LibraryName(%q) = %q, %v; want an error wrapping ErrLibraryCode saying %q", tt.code, got, err, tt.wantErr)
		}
	}
}

func TestLibraryLabel(t *testing.T) {
	long := "#!lua " + strings.Repeat("x", 100) + "\n"
	tests := []struct{ code, want string }{
		{"#!lua name=mylib\nreturn 1", `function library "mylib"`},
		{"#!lua\nreturn 1", `function library with first line "#!lua"`},
		{"", `function library with first line ""`},
		{long, `function library with first line "` + long[:60] + `…"`},
	}
	for _, tt := range tests {
		if got := LibraryLabel([]byte(tt.code)); got != tt.want {
			t.Errorf("LibraryLabel(%q) = %s, want %s", tt.code, got, tt.want)
		}
	}
}

// FuzzLibraryName: any code gives a name or an error wrapping ErrLibraryCode, never a
// panic; a name is not empty, holds no blank, and stands on the first line after name=.
func FuzzLibraryName(f *testing.F) {
	for _, s := range []string{"#!lua name=mylib\nx", "#!lua NAME=a b\n", "#!\n", "", "#!lua name=a name=b\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, code []byte) {
		name, err := LibraryName(code)
		if err != nil {
			if !errors.Is(err, ErrLibraryCode) || name != "" {
				t.Fatalf("LibraryName(%q) = %q, %v", code, name, err)
			}
			_ = LibraryLabel(code)
			return
		}
		line, _, _ := bytes.Cut(code, []byte("\n"))
		if name == "" || bytes.ContainsAny([]byte(name), " \t\r\n") ||
			!bytes.Contains(bytes.ToLower(line), bytes.ToLower([]byte("name="+name))) {
			t.Fatalf("LibraryName(%q) = %q: not the first line's name", code, name)
		}
		if want := fmt.Sprintf("function library %q", name); LibraryLabel(code) != want {
			t.Fatalf("LibraryLabel(%q) = %s", code, LibraryLabel(code))
		}
	})
}

// TestRefuseFunctions: a sink that embeds RefuseFunctions names the library it refuses.
func TestRefuseFunctions(t *testing.T) {
	err := RefuseFunctions{}.WriteFunction([]byte("#!lua name=mylib\nreturn 1"))
	if !errors.Is(err, ErrFunctionsUnsupported) || !strings.Contains(err.Error(), `function library "mylib"`) {
		t.Fatalf("got %v", err)
	}
}
