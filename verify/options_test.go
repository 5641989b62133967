package verify_test

import (
	"testing"

	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

func TestSetBackend(t *testing.T) {
	tests := []struct {
		name    string
		offline bool
		backend server.Backend
		err     string
	}{
		{name: "auto", backend: server.BackendAuto},
		{name: "docker", backend: server.BackendDocker},
		{name: "process", backend: server.BackendProcess},
		{name: "offline", offline: true},
		{name: "", err: `unknown backend "" (known: auto, docker, process, offline)`},
		{name: "Docker", err: `unknown backend "Docker" (known: auto, docker, process, offline)`},
	}
	for _, tt := range tests {
		var o verify.Options
		err := o.SetBackend(tt.name)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: %v, want %s", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || o.Offline != tt.offline || o.Server.Backend != tt.backend {
			t.Errorf("%q: offline %v backend %q, %v", tt.name, o.Offline, o.Server.Backend, err)
		}
	}
}

func TestRandomSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for range 100 {
		s := verify.RandomSeed()
		if s >= 1<<63 {
			t.Fatalf("seed %d does not fit an int64", s)
		}
		seen[s] = true
	}
	if len(seen) < 99 {
		t.Fatalf("%d distinct seeds of 100", len(seen))
	}
}
