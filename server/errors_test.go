package server

import (
	"errors"
	"testing"
	"time"
)

func TestExitReason(t *testing.T) {
	const banner = `4594:C 30 Nov 2026 08:38:09.116 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo
4594:C 30 Nov 2026 08:38:09.116 # Redis version=7.0.15, bits=64, commit=00000000, modified=0, pid=4594, just started
4594:C 30 Nov 2026 08:38:09.116 # Configuration loaded
4594:M 30 Nov 2026 08:38:09.117 * monotonic clock: POSIX clock_gettime
4594:M 30 Nov 2026 08:38:09.117 * Running mode=standalone, port=16998.
`
	const initialized = `4594:M 30 Nov 2026 08:38:09.117 # Server initialized
4594:M 30 Nov 2026 08:38:09.117 # WARNING Memory overcommit must be enabled!
`
	tests := []struct {
		name, log, reason string
		refused           bool
	}{{
		name: "version",
		log: banner + initialized + `4594:M 30 Nov 2026 08:38:09.118 # Can't handle RDB format version 12
4594:M 30 Nov 2026 08:38:09.118 # Fatal error loading the DB: Invalid argument. Exiting.
`,
		reason:  "Can't handle RDB format version 12",
		refused: true,
	}, {
		name: "checksum",
		log: banner + initialized + `4608:M 30 Nov 2026 08:38:09.141 * Loading RDB produced by version 7.0.15
4608:M 30 Nov 2026 08:38:09.141 # Wrong RDB checksum expected: (2cd9ec3712ac3347) but got (2cd9ec3712ac0147). Aborting now.
4608:M 30 Nov 2026 08:38:09.141 # Internal error in RDB reading offset 0, function at rdb.c:3225 -> RDB CRC error
[offset 0] Checking RDB file crc.rdb
--- RDB ERROR DETECTED ---
[info] 3 keys read
`,
		reason:  "Wrong RDB checksum expected: (2cd9ec3712ac3347) but got (2cd9ec3712ac0147). Aborting now. (RDB CRC error)",
		refused: true,
	}, {
		name: "valkey",
		log: `1:C 30 Nov 2026 08:38:09.116 # Valkey version=8.0.1, bits=64, commit=00000000, modified=0, pid=1, just started
1:M 30 Nov 2026 08:38:09.117 # Server initialized
1:M 30 Nov 2026 08:38:09.118 # Can't handle RDB format version 12
`,
		reason:  "Can't handle RDB format version 12",
		refused: true,
	}, {
		name: "port in use",
		log: banner + `4643:M 30 Nov 2026 08:38:15.918 # Warning: Could not create server TCP listening socket 127.0.0.1:16997: bind: Address already in use
4643:M 30 Nov 2026 08:38:15.918 # Failed listening on port 16997 (TCP), aborting.
`,
		reason: "Warning: Could not create server TCP listening socket 127.0.0.1:16997: bind: Address already in use",
	}, {
		name: "config",
		log: `
*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***
Reading the configuration file, at line 2
>>> 'frob "1"'
Bad directive or wrong number of arguments
`,
		reason: `Bad directive or wrong number of arguments: 'frob "1"'`,
	}, {
		name:   "silent",
		log:    banner,
		reason: "exit status 1",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := newExitError("dump.rdb", tt.log, "exit status 1")
			if err.Reason != tt.reason || err.Refused != tt.refused {
				t.Errorf("Reason, Refused = %q, %v; want %q, %v", err.Reason, err.Refused, tt.reason, tt.refused)
			}
			want := ErrServerExited
			if tt.refused {
				want = ErrLoadRefused
			}
			if !errors.Is(err, want) {
				t.Errorf("error %v is not %v", err, want)
			}
		})
	}
}

func TestServerLoadDuration(t *testing.T) {
	log := "1:M 30 Nov 2026 08:41:40.664 * Done loading RDB, keys loaded: 3, keys expired: 0.\n" +
		"1:M 30 Nov 2026 08:41:40.664 * DB loaded from disk: 1.250 seconds\n"
	if got := serverLoadDuration(log); got != 1250*time.Millisecond {
		t.Errorf("serverLoadDuration = %v, want 1.25s", got)
	}
	if got := serverLoadDuration("no such line"); got != 0 {
		t.Errorf("serverLoadDuration = %v, want 0", got)
	}
}
