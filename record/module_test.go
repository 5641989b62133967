package record

import (
	"errors"
	"strings"
	"testing"
)

// TestModuleID encodes module type names as module.c's moduleTypeEncodeId does and reads
// them back; ids from real dumps name their modules.
func TestModuleID(t *testing.T) {
	tests := []struct {
		name   string
		encver uint64
		id     uint64 // 0: only the round trip is checked
	}{
		{"AAAAAAAAA", 0, 0},
		{"_________", 1023, ^uint64(0)},
		{"MBbloom--", 4, 0},
		{"ReJSON-RL", 3, 0},
		{"rdbgen-mt", 1, 0},
	}
	for _, tt := range tests {
		id, err := ModuleID(tt.name, tt.encver)
		if err != nil {
			t.Fatal(err)
		}
		if tt.id != 0 && id != tt.id || id == 0 && tt.name != "AAAAAAAAA" {
			t.Errorf("%s/%d: id %#x, want %#x", tt.name, tt.encver, id, tt.id)
		}
		if ModuleName(id) != tt.name || ModuleEncVer(id) != tt.encver {
			t.Errorf("%#x: name %s/%d, want %s/%d", id, ModuleName(id), ModuleEncVer(id), tt.name, tt.encver)
		}
	}
	for _, bad := range []struct {
		name   string
		encver uint64
	}{{"short", 1}, {"too-long-1", 1}, {"rdbgen.mt", 1}, {"rdbgen-mt", 1024}} {
		if _, err := ModuleID(bad.name, bad.encver); !errors.Is(err, ErrModuleName) {
			t.Errorf("%q/%d: %v, want ErrModuleName", bad.name, bad.encver, err)
		}
	}
}

// TestRefuseModuleAux names the module in the refusal.
func TestRefuseModuleAux(t *testing.T) {
	err := RefuseModuleAux{}.WriteModuleAux(&ModuleAux{ModuleID: mtID, When: ModuleAuxBefore})
	if !errors.Is(err, ErrModuleAuxUnsupported) || !strings.Contains(err.Error(), `"rdbgen-mt" (encoding version 1)`) {
		t.Errorf("got %v", err)
	}
}

// TestParseTypeFilter reads the types of filters and rules, module:NAME among them.
func TestParseTypeFilter(t *testing.T) {
	tests := []struct {
		in      string
		typ     Type
		module  string
		wantErr error
	}{
		{"hash", Hash, "", nil},
		{"module", Module, "", nil},
		{"module:ReJSON-RL", Module, "ReJSON-RL", nil},
		{"module:rdbgen-mt", Module, "rdbgen-mt", nil},
		{"module:", "", "", ErrModuleName},
		{"module:short", "", "", ErrModuleName},
		{"module:bad.name", "", "", ErrModuleName},
		{"bitmap", "", "", ErrBadType},
		{"", "", "", ErrBadType},
		{"hash:x", "", "", ErrBadType},
	}
	for _, tt := range tests {
		typ, module, err := ParseTypeFilter(tt.in)
		if typ != tt.typ || module != tt.module || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
			t.Errorf("%q: %q %q %v, want %q %q %v", tt.in, typ, module, err, tt.typ, tt.module, tt.wantErr)
		}
	}
}
