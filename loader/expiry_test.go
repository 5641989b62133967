package loader

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
)

func TestExpiryArgs(t *testing.T) {
	now := time.Now().UnixMilli()
	tests := []struct {
		mode   Expiry
		at     int64
		opt    string
		lo, hi int64
	}{
		{ExpiryAbsolute, now + 5000, "PXAT", now + 5000, now + 5000},
		{ExpiryAbsolute, now - 5000, "PXAT", now - 5000, now - 5000},
		{ExpiryRelative, now + 5000, "PX", 4000, 5000},
		{ExpiryRelative, now - 5000, "PX", 1, 1}, // passed: expires at once
		{ExpiryRelative, now, "PX", 1, 1},
	}
	for _, tt := range tests {
		l := &load{o: Options{Expiry: tt.mode}}
		opt, arg := l.expiryArgs(tt.at)
		if opt != tt.opt || arg < tt.lo || arg > tt.hi {
			t.Errorf("%s at %+d ms: got %s %d, want %s in [%d, %d]", tt.mode, tt.at-now, opt, arg, tt.opt, tt.lo, tt.hi)
		}
	}
}

// TestHintForOldServers: a server older than 6.2 answers SET … PXAT with a
// syntax error; the error then says why and what to do.
func TestHintForOldServers(t *testing.T) {
	ttl := &dataset.Spec{TTL: time.Hour}
	tests := []struct {
		name string
		d    *dataset.Spec
		mode Expiry
		err  error
		hint bool
	}{
		{"pxat syntax error", ttl, ExpiryAbsolute, replyError("ERR syntax error"), true},
		{"px syntax error", ttl, ExpiryRelative, replyError("ERR syntax error"), false},
		{"no ttl", &dataset.Spec{}, ExpiryAbsolute, replyError("ERR syntax error"), false},
		{"other reply", ttl, ExpiryAbsolute, replyError("OOM command not allowed"), false},
		{"not a reply", ttl, ExpiryAbsolute, errors.New("ERR syntax error"), false},
	}
	for _, tt := range tests {
		l := &load{d: tt.d, o: Options{Expiry: tt.mode}}
		err := l.hint(tt.err)
		if got := strings.Contains(err.Error(), "needs Redis 6.2"); got != tt.hint || !errors.Is(err, tt.err) {
			t.Errorf("%s: got %q", tt.name, err)
		}
	}
}
