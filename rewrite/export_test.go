package rewrite

import redisglob "github.com/rdbgen/rdbgen/internal/glob"

// Match exposes the glob matcher to the tests that compare it with a real server.
func Match(pattern, s string) bool { return redisglob.Match([]byte(pattern), []byte(s)) }

// GlobPatterns returns the patterns and strings of the matcher's table test.
func GlobPatterns() (patterns, strs []string) {
	for _, c := range globCases {
		patterns = append(patterns, c.pattern)
		strs = append(strs, c.s)
	}
	return patterns, strs
}
