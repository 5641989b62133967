package loader

import (
	"errors"
	"testing"
	"time"
)

func TestSetURL(t *testing.T) {
	tests := []struct {
		url         string
		passwordSet bool
		addr, user  string
		password    string
		db          int
		tls         bool
		err         error // nil: none; errAny: any
	}{
		{url: "redis://127.0.0.1:6380", addr: "127.0.0.1:6380", password: "given", db: -1},
		{url: "redis://127.0.0.1:6380/", addr: "127.0.0.1:6380", password: "given", db: -1},
		{url: "redis://u:p@h:1/0", addr: "h:1", user: "u", password: "p", db: 0},
		{url: "redis://:p@h:1/15", addr: "h:1", password: "p", db: 15},
		{url: "rediss://h:1/2", addr: "h:1", password: "given", db: 2, tls: true},
		{url: "redis://:p@h:1", passwordSet: true, err: ErrTwoPasswords},
		{url: "unix:///tmp/redis.sock", err: ErrUnixSocket},
		{url: "http://h:1", err: errAny},
		{url: "redis://h:1/x", err: errAny},
	}
	for _, tt := range tests {
		o := Options{Password: "given"}
		db, err := o.SetURL(tt.url, tt.passwordSet)
		switch {
		case tt.err == errAny && err == nil, tt.err != errAny && !errors.Is(err, tt.err):
			t.Errorf("%s: error %v, want %v", tt.url, err, tt.err)
			continue
		case err != nil:
			continue
		}
		if o.Addr != tt.addr || o.Username != tt.user || o.Password != tt.password || db != tt.db || (o.TLSConfig != nil) != tt.tls {
			t.Errorf("%s: addr %q user %q password %q db %d tls %v", tt.url, o.Addr, o.Username, o.Password, db, o.TLSConfig != nil)
		}
	}
	o := Options{}
	if _, err := o.SetURL("redis://h:1?dial_timeout=2s", false); err != nil || o.DialTimeout != 2*time.Second {
		t.Errorf("dial_timeout: %v, %v", o.DialTimeout, err)
	}
}

var errAny = errors.New("any error")
