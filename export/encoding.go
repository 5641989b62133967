package export

// rdbEncodings names the RDB value types as hdt3213's converter names them in "encoding"
// (its core.encodingMap), by type byte; the types it does not know (Redis 7.0's third stream
// layout, 7.4's hashes with field expiries) as rdbgen names their layouts.
var rdbEncodings = [...]string{
	0: "string", 1: "list", 2: "set", 3: "zset", 4: "hash", 5: "zset2",
	9: "zipmap", 10: "ziplist", 11: "intset", 12: "ziplist", 13: "ziplist",
	14: "quicklist", 15: "listpack", 16: "listpack", 17: "listpack", 18: "quicklist2",
	19: "listpack", 20: "listpack", 21: "listpack",
	22: "hash", 23: "listpackex", 24: "hash", 25: "listpackex",
}

// RDBEncoding returns the encoding name of the RDB value type t and, for a stream, its
// layout's version (1 for type 15, 2 for 19, 3 for 21; 0 for other types); "" for a type
// it does not know.
func RDBEncoding(t byte) (encoding string, streamVersion int) {
	switch t {
	case 15:
		streamVersion = 1
	case 19:
		streamVersion = 2
	case 21:
		streamVersion = 3
	}
	if int(t) < len(rdbEncodings) {
		encoding = rdbEncodings[t]
	}
	return encoding, streamVersion
}
