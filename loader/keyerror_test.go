package loader

import (
	"errors"
	"strings"
	"testing"
)

// TestKeyErrorMoved: a MOVED or ASK answer mid-load names the key, the node, the slots
// moving and the way out: loading again once the resharding is over.
func TestKeyErrorMoved(t *testing.T) {
	for _, reply := range []string{"MOVED 5 127.0.0.1:7001", "ASK 5 127.0.0.1:7001"} {
		err := keyError([]byte("k"), "127.0.0.1:7000", errors.New(reply))
		msg := err.Error()
		for _, want := range []string{`write key "k": 127.0.0.1:7000 answered ` + reply, "the cluster's slots moved mid-load", "load again once the resharding is over"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q lacks %q", reply, msg, want)
			}
		}
	}
}
