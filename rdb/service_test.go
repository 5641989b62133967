package rdb

import (
	"errors"
	"strings"
	"testing"
)

// TestServiceCheckVersion checks the RDB version rule of each managed service against its
// target's row: its own version passes, one newer breaks the rule naming the conversion.
func TestServiceCheckVersion(t *testing.T) {
	for _, name := range ServiceTargets() {
		svc, ok := LookupService(name)
		if !ok {
			t.Fatalf("ServiceTargets lists %s, which LookupService does not know", name)
		}
		target, err := LookupTarget(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			version int
			broken  bool
		}{{target.RDBVersion - 1, false}, {target.RDBVersion, false}, {target.RDBVersion + 1, true}} {
			err := svc.CheckVersion(tc.version)
			if got := errors.Is(err, ErrServiceRule); got != tc.broken {
				t.Errorf("%s: CheckVersion(%d) = %v, want broken %v", name, tc.version, err, tc.broken)
			}
			if tc.broken && !strings.Contains(err.Error(), "convert --target "+name) {
				t.Errorf("%s: %v names no way out", name, err)
			}
		}
	}
}
