package loader

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// ErrUnixSocket is the error of a URL of a unix socket, which Load does not dial.
var ErrUnixSocket = errors.New("unix sockets are not supported")

// ErrTwoPasswords is the error of a URL with a password when a password was given apart.
var ErrTwoPasswords = errors.New("a password given twice")

// SetURL sets the server of o from a Redis URL, redis://[user:password@]host:port[/db] or
// rediss:// for TLS (go-redis's syntax), and returns the database it names, -1 when it names
// none. The URL's password replaces o.Password, unless passwordSet says one was given apart:
// then a URL with a password is ErrTwoPasswords.
func (o *Options) SetURL(raw string, passwordSet bool) (db int, err error) {
	u, err := redis.ParseURL(raw)
	if err != nil {
		return -1, err
	}
	if u.Network == "unix" {
		return -1, fmt.Errorf("%s: %w", u.Addr, ErrUnixSocket)
	}
	o.Addr, o.Username, o.TLSConfig = u.Addr, u.Username, u.TLSConfig
	if u.Password != "" {
		if passwordSet {
			return -1, ErrTwoPasswords
		}
		o.Password = u.Password
	}
	if u.DialTimeout > 0 {
		o.DialTimeout = u.DialTimeout
	}
	if !namesDB(raw) {
		return -1, nil
	}
	return u.DB, nil
}

// namesDB tells whether a Redis URL has a database number in its path.
func namesDB(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.Trim(u.Path, "/") != ""
}
