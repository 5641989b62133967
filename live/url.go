package live

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// IsURL reports whether name is a live server's address rather than a path:
// it begins with redis:// or rediss://.
func IsURL(name string) bool {
	return strings.HasPrefix(name, "redis://") || strings.HasPrefix(name, "rediss://")
}

// TLS names the files of a TLS connection (a rediss:// URL): the certificate
// authorities to trust (default: the system's) and a client certificate and key
// for servers that ask for one. Insecure skips the check of the server's
// certificate.
type TLS struct {
	CA, Cert, Key string
	Insecure      bool
}

// Set reports whether any TLS option is given.
func (t TLS) Set() bool { return t != TLS{} }

// config returns the TLS configuration for serverName.
func (t TLS) config(serverName string) (*tls.Config, error) {
	c := &tls.Config{ServerName: serverName, MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.Insecure}
	if t.CA != "" {
		pem, err := os.ReadFile(t.CA)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOption, err)
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%w: %s holds no PEM certificate", ErrBadOption, t.CA)
		}
	}
	if (t.Cert == "") != (t.Key == "") {
		return nil, fmt.Errorf("%w: a client certificate needs both a certificate and a key file", ErrBadOption)
	}
	if t.Cert != "" {
		pair, err := tls.LoadX509KeyPair(t.Cert, t.Key)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOption, err)
		}
		c.Certificates = []tls.Certificate{pair}
	}
	return c, nil
}

// An Address is a parsed redis:// or rediss:// URL:
// redis://[user:password@]host[:port][/db].
type Address struct {
	Host     string // host:port, port 6379 when the URL names none
	Username string
	Password string
	TLS      bool // rediss://
	// DB is the database the URL names, -1 when it names none (every database).
	DB int
}

// ParseURL parses a live server's URL. User info without a colon is a password
// alone (redis://secret@host, as for AUTH secret). A URL with a query, a fragment or
// a path other than a database number is an error wrapping ErrBadURL; no error
// shows the password.
func ParseURL(raw string) (Address, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which holds the password
		}
		return Address{}, fmt.Errorf("%w: %w", ErrBadURL, err)
	}
	a := Address{DB: -1, TLS: u.Scheme == "rediss"}
	raw = u.Redacted()
	switch {
	case u.Scheme != "redis" && u.Scheme != "rediss":
		return a, fmt.Errorf("%w %q: the scheme is not redis:// or rediss://", ErrBadURL, raw)
	case u.Hostname() == "":
		return a, fmt.Errorf("%w %q: no host", ErrBadURL, raw)
	case u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return a, fmt.Errorf("%w %q: only redis://[user:password@]host[:port][/db]", ErrBadURL, raw)
	}
	port := u.Port()
	if port == "" {
		port = "6379"
	}
	a.Host = u.Hostname() + ":" + port
	if strings.Contains(u.Hostname(), ":") {
		a.Host = "[" + u.Hostname() + "]:" + port
	}
	if u.User != nil {
		a.Username = u.User.Username()
		a.Password, _ = u.User.Password()
		if _, has := u.User.Password(); !has { // redis://password@host: the password alone
			a.Username, a.Password = "", a.Username
		}
	}
	if p := strings.Trim(u.Path, "/"); p != "" {
		db, err := strconv.Atoi(p)
		if err != nil || db < 0 {
			return a, fmt.Errorf("%w %q: %q is no database number", ErrBadURL, raw, p)
		}
		a.DB = db
	}
	return a, nil
}

// String returns the address without its password, for messages.
func (a Address) String() string {
	scheme := "redis"
	if a.TLS {
		scheme = "rediss"
	}
	s := scheme + "://"
	if a.Username != "" {
		s += url.User(a.Username).String() + "@"
	}
	s += a.Host
	if a.DB >= 0 {
		s += "/" + strconv.Itoa(a.DB)
	}
	return s
}

// clientOptions returns go-redis options for database db of the server: one
// connection, no retries (a retry would restart a stream midway), RESP2, which
// every server answers, and no handshake beyond AUTH and SELECT.
func (a Address) clientOptions(db int, t TLS, timeout time.Duration) (*redis.Options, error) {
	o := &redis.Options{
		Addr:                     a.Host,
		Username:                 a.Username,
		Password:                 a.Password,
		DB:                       db,
		Protocol:                 2,
		DialTimeout:              timeout,
		DialerRetries:            1,
		ReadTimeout:              timeout,
		WriteTimeout:             timeout,
		PoolSize:                 1,
		MaxRetries:               -1,
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
	if a.TLS {
		host := a.Host[:strings.LastIndexByte(a.Host, ':')]
		c, err := t.config(strings.Trim(host, "[]"))
		if err != nil {
			return nil, err
		}
		o.TLSConfig = c
	} else if t.Set() {
		return nil, fmt.Errorf("%w: TLS options for %s: use rediss://", ErrBadOption, a)
	}
	return o, nil
}

// Errors, for errors.Is.
var (
	// ErrBadURL is a URL that names no live server rdbgen can read.
	ErrBadURL = errors.New("live: bad server URL")
	// ErrBadOption is an option that cannot apply.
	ErrBadOption = errors.New("live: bad option")
	// ErrRefused is a server that refuses both SYNC and PSYNC (an unknown command,
	// or NOPERM): Options.Via Scan reads it.
	ErrRefused = errors.New("live: the server refuses replication (SYNC and PSYNC)")
	// ErrProtocol is a reply the replication protocol does not allow.
	ErrProtocol = errors.New("live: unexpected replication reply")
)
