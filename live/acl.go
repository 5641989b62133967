package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/glob"
)

// ErrKeyRefused is wrapped by the error of a Scan whose DUMP of a key the server refused
// (NOPERM): the user may not read it, and its key patterns were not known (ACL GETUSER
// refused) or do not say so.
var ErrKeyRefused = errors.New("the user may not read the key")

// keyAccess is what a Scan learnt of the keys its user may read.
type keyAccess struct {
	// patterns are the globs of the keys the user may read; nil for every key (allkeys, ~*,
	// or a server without ACLs, before Redis 6.0).
	patterns []string
	// unknown says why the patterns could not be learnt (ACL WHOAMI or ACL GETUSER
	// refused), or "": the scan then lists every key.
	unknown string
}

// keyAccess asks the server which keys the connection's user may read: ACL GETUSER of ACL
// WHOAMI, its key patterns with read access (~p, %R~p, %RW~p, not %W~p) and its selectors'.
// A user that may read no key is an error.
func (s *Source) keyAccess(ctx context.Context, c *redis.Client) (keyAccess, error) {
	refused := func(cmd string, err error) (keyAccess, error) {
		var re redis.Error
		switch {
		case errors.As(err, &re) && unknownCommand(err.Error()):
			return keyAccess{}, nil // no ACLs (before 6.0): every user reads every key
		case errors.As(err, &re) && strings.HasPrefix(err.Error(), "NOPERM"):
			return keyAccess{unknown: fmt.Sprintf("the user may not run %s at %s", cmd, s.addr)}, nil
		}
		return keyAccess{}, fmt.Errorf("%s at %s: %w", cmd, s.addr, err)
	}
	user, err := c.Do(ctx, "ACL", "WHOAMI").Text()
	if err != nil {
		return refused("ACL WHOAMI", err)
	}
	reply, err := c.Do(ctx, "ACL", "GETUSER", user).Slice()
	if err != nil {
		return refused("ACL GETUSER", err)
	}
	patterns, all := readablePatterns(reply)
	switch {
	case all:
		return keyAccess{}, nil
	case len(patterns) == 0:
		return keyAccess{}, fmt.Errorf("%s: the user %s may read no key (ACL GETUSER %s gives no key pattern with read access)", s.addr, user, user)
	}
	return keyAccess{patterns: patterns}, nil
}

// readablePatterns returns the key patterns with read access of an ACL GETUSER reply, in
// either form: Redis 7.0+'s "keys" string ("~app:* %R~ro:* %W~wo:*") and "selectors", or
// 6.x's "keys" array of bare patterns and the "allkeys" flag. all reports a pattern that
// matches every key.
func readablePatterns(reply []any) (patterns []string, all bool) {
	add := func(p string) {
		if p == "*" {
			all = true
		}
		if !slices.Contains(patterns, p) {
			patterns = append(patterns, p)
		}
	}
	var fields func(reply []any)
	fields = func(reply []any) {
		for i := 0; i+1 < len(reply); i += 2 {
			name, _ := reply[i].(string)
			switch v := reply[i+1].(type) {
			case string: // 7.0+: "~a %R~b %W~c"
				if name != "keys" {
					continue
				}
				for _, rule := range strings.Fields(v) {
					if rule == "allkeys" {
						add("*")
						continue
					}
					perm, p, ok := strings.Cut(rule, "~")
					if ok && (perm == "" || perm == "%RW" || perm == "%WR" || perm == "%R") {
						add(p)
					}
				}
			case []any:
				switch name {
				case "keys": // 6.x: bare patterns
					for _, p := range v {
						if s, ok := p.(string); ok {
							add(s)
						}
					}
				case "flags":
					for _, f := range v {
						if f == "allkeys" {
							add("*")
						}
					}
				case "selectors":
					for _, sel := range v {
						if sel, ok := sel.([]any); ok {
							fields(sel)
						}
					}
				}
			}
		}
	}
	fields(reply)
	return patterns, all
}

// scanMatch returns the glob to pass to SCAN MATCH, given the user's own (Options.Match),
// and whether each key listed must be checked against the patterns as well: one pattern
// and no glob of the user's goes to SCAN itself.
func (a keyAccess) scanMatch(match string) (string, bool) {
	if len(a.patterns) == 1 && match == "" {
		return a.patterns[0], false
	}
	return match, len(a.patterns) > 0
}

// readable tells whether the user may read key, by its patterns.
func (a keyAccess) readable(key string) bool {
	return slices.ContainsFunc(a.patterns, func(p string) bool { return glob.Match([]byte(p), []byte(key)) })
}
