package redistest

import "testing"

func TestInCI(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "true": true, "1": true, "yes": true} {
		t.Setenv("CI", v)
		if got := InCI(); got != want {
			t.Errorf("CI=%q: InCI() = %v, want %v", v, got, want)
		}
	}
}

func TestWriteDump(t *testing.T) {
	path := WriteDump(t, map[string]string{"k": "v"})
	if sum := FileSum(t, path); len(sum) != 64 {
		t.Errorf("FileSum = %q", sum)
	}
}
