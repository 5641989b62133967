package loader_test

import (
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/resp"
)

// TestProbeAutoPayloadTooNew probes a Redis 7.0 server as if it were 7.4, as a server that
// misstates its version would be: it refuses the RESTORE payload of RDB 12, so keys go as
// their commands, the summary says why, and no probe key is left.
func TestProbeAutoPayloadTooNew(t *testing.T) {
	srv := servertest.StartEmpty(t)
	for _, tt := range []struct {
		v       resp.Version
		restore bool
	}{
		{resp.Version{Major: 7, Minor: 0}, true},
		{resp.Version{Major: 7, Minor: 4}, false},
	} {
		mset, restore, refused, err := loader.ProbeAuto(t.Context(), srv.Addr, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if !mset || restore != tt.restore {
			t.Fatalf("%s: MSET %v, RESTORE %v, want MSET and RESTORE %v", tt.v, mset, restore, tt.restore)
		}
		r := strings.Join(refused, "; ")
		if tt.restore != (r == "") || !tt.restore && !strings.Contains(r, "refused RESTORE (ERR DUMP payload version or checksum are wrong): keys went as their commands") {
			t.Fatalf("%s: refused %q", tt.v, r)
		}
		if n := srv.Client().DBSize(t.Context()).Val(); n != 0 {
			t.Fatalf("%s: %d keys left by the probe", tt.v, n)
		}
	}
}
