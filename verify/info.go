package verify

import (
	"fmt"
	"strconv"
	"strings"
)

// parseKeyspace reads the counts of an INFO keyspace reply, whose lines read
// "db0:keys=1000,expires=10,avg_ttl=0" (and ",subexpiry=0" from Redis 7.4).
func parseKeyspace(info string) (map[int]DBCounts, error) {
	dbs := map[int]DBCounts{}
	for line := range strings.Lines(info) {
		line = strings.TrimSpace(line)
		name, fields, ok := strings.Cut(line, ":")
		num, isDB := strings.CutPrefix(name, "db")
		if !ok || !isDB {
			continue // "# Keyspace", blank lines
		}
		db, err := strconv.Atoi(num)
		if err != nil || db < 0 {
			return nil, fmt.Errorf("INFO keyspace: bad line %q", line)
		}
		if _, dup := dbs[db]; dup {
			return nil, fmt.Errorf("INFO keyspace: db %d twice", db)
		}
		var c DBCounts
		var haveKeys bool
		for field := range strings.SplitSeq(fields, ",") {
			k, v, _ := strings.Cut(field, "=")
			var dst *uint64
			switch k {
			case "keys":
				dst, haveKeys = &c.Keys, true
			case "expires":
				dst = &c.Expires
			default:
				continue
			}
			if *dst, err = strconv.ParseUint(v, 10, 64); err != nil {
				return nil, fmt.Errorf("INFO keyspace: bad line %q", line)
			}
		}
		if !haveKeys {
			return nil, fmt.Errorf("INFO keyspace: no key count in %q", line)
		}
		dbs[db] = c
	}
	return dbs, nil
}

// infoField returns the value of field in an INFO reply ("used_memory:1234"), or "".
func infoField(info, field string) string {
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return v
		}
	}
	return ""
}
