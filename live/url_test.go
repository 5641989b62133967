package live

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		url  string
		want Address
		err  error
		text string // String(), when it differs from url
	}{
		{url: "redis://localhost", want: Address{Host: "localhost:6379", DB: -1}, text: "redis://localhost:6379"},
		{url: "redis://10.0.0.1:7000/3", want: Address{Host: "10.0.0.1:7000", DB: 3}},
		{url: "redis://10.0.0.1:7000/0", want: Address{Host: "10.0.0.1:7000", DB: 0}},
		{url: "rediss://user:p%40ss@h:6380/", want: Address{Host: "h:6380", Username: "user", Password: "p@ss", TLS: true, DB: -1},
			text: "rediss://user@h:6380"},
		{url: "redis://:pw@h:1", want: Address{Host: "h:1", Password: "pw", DB: -1}, text: "redis://h:1"},
		{url: "redis://pw@h:1", want: Address{Host: "h:1", Password: "pw", DB: -1}, text: "redis://h:1"},
		{url: "redis://[::1]:6379/2", want: Address{Host: "[::1]:6379", DB: 2}},
		{url: "http://h:1", err: ErrBadURL},
		{url: "redis://", err: ErrBadURL},
		{url: "redis://h:1/x", err: ErrBadURL},
		{url: "redis://h:1/-1", err: ErrBadURL},
		{url: "redis://h:1/1/2", err: ErrBadURL},
		{url: "redis://h:1?db=2", err: ErrBadURL},
		{url: "redis://h:1#x", err: ErrBadURL},
		{url: "redis://u:s3cret@h:1:2:3\x7f", err: ErrBadURL},
		{url: "redis://u:s3cret@h:1/x", err: ErrBadURL},
		{url: "redis://:s3cret@h:1?x=1", err: ErrBadURL},
	}
	for _, tt := range tests {
		got, err := ParseURL(tt.url)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: error %v, want %v", tt.url, err, tt.err)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("%s: error %q shows the password", tt.url, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v; want %+v", tt.url, got, err, tt.want)
			continue
		}
		text := tt.text
		if text == "" {
			text = tt.url
		}
		if got.String() != text {
			t.Errorf("%s: String() = %s, want %s", tt.url, got.String(), text)
		}
	}
}

func TestOpenOptions(t *testing.T) {
	tests := []struct {
		name string
		url  string
		opts Options
	}{
		{"unknown via", "redis://h", Options{Via: "rdb"}},
		{"TLS options without rediss", "redis://h", Options{TLS: TLS{Insecure: true}}},
		{"a certificate without its key", "rediss://h", Options{TLS: TLS{Cert: "c.pem"}}},
		{"a missing CA file", "rediss://h", Options{TLS: TLS{CA: "/nonexistent/ca.pem"}}},
		{"repeats", "redis://h", Options{Decoder: decoder.Options{OnDuplicate: record.DupError}}},
	}
	for _, tt := range tests {
		if _, err := Open(tt.url, tt.opts); !errors.Is(err, ErrBadOption) {
			t.Errorf("%s: %v, want ErrBadOption", tt.name, err)
		}
	}
	for _, good := range []string{"redis://h", "rediss://h", "redis://u:p@h:1/2"} {
		if _, err := Open(good, Options{}); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
}
