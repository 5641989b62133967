package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/decoder"
	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
)

// moduleRecorder records the module values the reader skips, as a decoder.ModuleSink.
type moduleRecorder struct {
	recorder
	skipped []string
}

func (m *moduleRecorder) SkipModule(key []byte, module string, exp int64) error {
	m.skipped = append(m.skipped, string(key)+" "+module)
	return nil
}

// TestModuleValuesCounted checks module values of type 7 and module AUX payloads: skipped,
// counted per module name, told to a ModuleSink; and the refusals' messages.
func TestModuleValuesCounted(t *testing.T) {
	file := fx.ModuleFile()
	var rec moduleRecorder
	rd, err := decoder.NewReader(bytes.NewReader(file), decoder.Options{SkipModules: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteTo(context.Background(), &rec); err != nil {
		t.Fatal(err)
	}
	st := rd.Stats()
	if len(rec.Records) != 1 || st.SkippedModules != 3 || st.Modules["MBbloom--"] != 2 || st.Modules["ReJSON-RL"] != 1 || st.ModuleAux["ft-index0"] != 1 {
		t.Fatalf("records %v, stats %+v", canonAll(rec.Records), st)
	}
	if got := strings.Join(rec.skipped, ","); got != "bf1 MBbloom--,bf2 MBbloom--,js ReJSON-RL" {
		t.Fatalf("skipped %s", got)
	}

	tests := []struct {
		name    string
		typ     byte
		opts    decoder.Options
		want    string
		notWant string
	}{
		{"type 7 without SkipModules", 7, decoder.Options{}, "module type MBbloom-- (encoding version 4)", ""},
		{"type 6 under SkipModules", 6, decoder.Options{SkipModules: true}, "pre-release format", "--skip-unsupported"},
		{"type 6", 6, decoder.Options{}, "can be neither read nor skipped", "--skip-unsupported"},
	}
	for _, tt := range tests {
		file := fx.File(10, fx.Record(tt.typ, "bf", fx.ModuleValue("MBbloom--", 4, 7, "abc")))
		rd, err := decoder.NewReader(bytes.NewReader(file), tt.opts)
		if err == nil {
			err = rd.WriteTo(context.Background(), &recorder{})
		}
		if !errors.Is(err, decoder.ErrModule) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `key "bf"`) ||
			(tt.notWant != "" && strings.Contains(err.Error(), tt.notWant)) {
			t.Errorf("%s: got %v, want ErrModule with %q", tt.name, err, tt.want)
		}
	}
}
