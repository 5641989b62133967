package verify

import (
	"fmt"
	"strconv"

	"github.com/rdbgen/rdbgen/record"
)

// A Stage is one step of a verification.
type Stage string

// The stages, in the order they run.
const (
	StageFile   Stage = "file"   // the offline check of the file
	StageLoad   Stage = "load"   // a server loading the file
	StageServer Stage = "server" // the counts and the spot-check of a live server
)

// Report is the outcome of a verification. Its JSON form is what rdbgen verify --json prints.
type Report struct {
	// Pass is true when every check passed.
	Pass bool `json:"pass"`
	// Reason is one line telling why the verification failed: the first mismatch, and how
	// many more there were. It is empty on a pass.
	Reason string `json:"reason,omitempty"`
	// File is the offline check; nil when a live server was checked.
	File *FileReport `json:"file,omitempty"`
	// Load is the server that loaded the file; nil when none was started.
	Load *LoadReport `json:"load,omitempty"`
	// NotLoaded says why no server was started on a file that passed the offline stage
	// without Options.Offline: it holds module data, which a server without the module
	// refuses. Empty otherwise.
	NotLoaded string `json:"not_loaded,omitempty"`
	// Server is the check of a live server; nil when none was checked.
	Server *ServerReport `json:"server,omitempty"`
	// Mismatches are the first differences found, at most [Options.MaxMismatches].
	Mismatches []Mismatch `json:"mismatches,omitempty"`
	// MismatchCount is the number of differences found, listed or not.
	MismatchCount int `json:"mismatch_count"`
}

// FileReport is what the offline stage found in a file.
type FileReport struct {
	Path       string `json:"path"`
	Bytes      int64  `json:"bytes"`
	RDBVersion int    `json:"rdb_version"`
	// Checksum is the trailer, as 16 hex digits; all zeros when the file has none.
	Checksum string `json:"checksum"`
	// ChecksumStatus is ChecksumOK, ChecksumNone, ChecksumAbsent or ChecksumBad.
	ChecksumStatus string `json:"checksum_status"`
	// Newer counts the parts of Redis 8.6+ records that no earlier format holds, by what
	// they are (decoder.Stats.NewerDropped): read, not checked by a server here.
	Newer map[string]uint64 `json:"newer,omitempty"`
	// TrailingBytes counts the bytes after the EOF marker and checksum, which Redis ignores
	// as verify does; 0 for most files.
	TrailingBytes int64 `json:"trailing_bytes,omitempty"`
	// Aux holds the AUX fields: redis-ver, ctime, rdbgen-ver...
	Aux map[string]string `json:"aux,omitempty"`
	// Parsed tells whether the parser read the whole file; the counts below cover what it
	// read. A file with a bad checksum is not parsed.
	Parsed bool `json:"parsed"`
	// DBs holds the counts per database number.
	DBs map[int]DBCounts `json:"dbs"`
	// Encodings counts the records per RDB encoding (decoder.TypeName): "string",
	// "hash-listpack", "list-quicklist2", "stream3"...
	Encodings map[string]uint64 `json:"encodings,omitempty"`
	// Keys and Expires are the totals over all databases.
	Keys    uint64 `json:"keys"`
	Expires uint64 `json:"expires"`
	// Modules counts the keys of module types (counted in DBs as type "module") by module
	// type name, "MBbloom--"; ModuleAux counts the module AUX records the same way. A file holding either is not loaded by a server
	// unless the server's arguments load a module (--loadmodule): see Report.NotLoaded.
	Modules   map[string]uint64 `json:"modules,omitempty"`
	ModuleAux map[string]uint64 `json:"module_aux,omitempty"`
	// MinExpireAtMS and MaxExpireAtMS bound the expiries (Unix ms); 0 when no key has one.
	MinExpireAtMS int64 `json:"min_expire_at_ms,omitempty"`
	MaxExpireAtMS int64 `json:"max_expire_at_ms,omitempty"`
	// Expired counts the keys whose expiry is at or before CheckedAtMS, the time the offline
	// stage began (Unix ms): a server loading the file now drops them, so a stale dump shows
	// here. MaxExpireAtMS tells when the last key expires.
	Expired     uint64 `json:"expired"`
	CheckedAtMS int64  `json:"checked_at_ms"`
	// Seconds is the time the offline stage took.
	Seconds float64 `json:"seconds"`

	// clocks count the expiries of each database second by second from CheckedAtMS.
	clocks map[int]*expiryClock
}

// The values of [FileReport.ChecksumStatus].
const (
	ChecksumOK   = "ok"       // the trailer equals the checksum of the file
	ChecksumNone = "none"     // the trailer is zero: written without a checksum
	ChecksumBad  = "mismatch" // the trailer differs from the checksum of the file
	// ChecksumAbsent: RDB 1 to 4 have no trailer (the checksum came with RDB 5, Redis 2.6).
	ChecksumAbsent = "absent"
)

// DBCounts are the keys of one database, and of them those with an expiry, with the
// keys per type when known.
type DBCounts struct {
	record.Counts
	// Types counts the keys per type: "string", "hash", "list", "set", "zset", "stream"...
	// It is only filled in by the offline stage.
	Types map[string]uint64 `json:"types,omitempty"`
}

// LoadReport describes the server that loaded the file.
type LoadReport struct {
	// Backend is "process" or "docker".
	Backend string `json:"backend"`
	// Container is the docker container's name; empty for the process backend.
	Container string `json:"container,omitempty"`
	Addr      string `json:"addr"`
	// Seconds is the time from the server's launch until it served the loaded data.
	Seconds float64 `json:"seconds"`
	// ServerSeconds is the load time the server logged; 0 when it did not say.
	ServerSeconds float64 `json:"server_seconds,omitempty"`
}

// ServerReport is what the check of a live server found.
type ServerReport struct {
	Addr string `json:"addr"`
	// Version is the server's redis_version.
	Version string `json:"version,omitempty"`
	// UsedMemory is used_memory from INFO memory, in bytes.
	UsedMemory int64 `json:"used_memory"`
	// DBs are the counts of INFO keyspace, by database number.
	DBs map[int]DBCounts `json:"dbs"`
	// Keys and Expires are the totals over all databases.
	Keys    uint64 `json:"keys"`
	Expires uint64 `json:"expires"`
	// Sampled is the number of records whose type, value and TTL were compared.
	Sampled int `json:"sampled"`
	// SampleSeed is the seed the sample was drawn with: the same seed draws the same sample.
	SampleSeed uint64 `json:"sample_seed"`
	// Absent is the number of keys checked absent.
	Absent int `json:"absent"`
	// Seconds is the time the check took.
	Seconds float64 `json:"seconds"`
}

// A Mismatch is one difference between what was found and what was expected, or one
// problem that fails the verification (a file the parser cannot read, a server that refuses
// the file).
type Mismatch struct {
	Stage Stage `json:"stage"`
	// What names what was compared: "checksum", "keys in db 0", "value", "ttl"...; empty
	// when Got says it all (a server's refusal).
	What string `json:"what,omitempty"`
	// Node names the shard file of a cluster dataset the mismatch is about, as
	// "shard-1.rdb"; empty for a single file or the whole cluster.
	Node string `json:"node,omitempty"`
	// DB and Key name the key, for a mismatch of one key.
	DB  int    `json:"db,omitempty"`
	Key string `json:"key,omitempty"`
	// Got is what was found; Want what was expected, empty when nothing in particular was.
	Got  string `json:"got"`
	Want string `json:"want,omitempty"`
}

// String returns the mismatch on one line, as in
// `server: db 0 key "key100000007": value: got "x", want "key100000007"` or
// `load: redis refused dump.rdb: Can't handle RDB format version 12`.
func (m Mismatch) String() string {
	s := string(m.Stage) + ": "
	if m.Node != "" {
		s += m.Node + ": "
	}
	if m.Key != "" {
		s += fmt.Sprintf("db %d key %s: ", m.DB, quote(m.Key))
	}
	if m.What != "" {
		s += m.What + ": "
	}
	if m.Want == "" {
		return s + m.Got
	}
	return s + "got " + m.Got + ", want " + m.Want
}

// maxQuoted is how many bytes of a value a mismatch shows.
const maxQuoted = 64

// quote renders a key or value for a mismatch: quoted, cut after maxQuoted bytes.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:maxQuoted]), len(s))
}

// mismatches collects the mismatches of a verification.
type mismatches struct {
	max   int
	list  []Mismatch
	count int
}

func (ms *mismatches) add(m Mismatch) {
	ms.count++
	if len(ms.list) < ms.max {
		ms.list = append(ms.list, m)
	}
}

// finish fills in the verdict of r.
func (ms *mismatches) finish(r *Report) {
	r.Mismatches, r.MismatchCount = ms.list, ms.count
	r.Pass, r.Reason = ms.verdict()
}

// verdict returns whether nothing differed, and if something did, the reason: the first
// mismatch, and how many more there were.
func (ms *mismatches) verdict() (pass bool, reason string) {
	if len(ms.list) > 0 {
		reason = ms.list[0].String()
		if ms.count > 1 {
			reason += fmt.Sprintf(" (and %d more)", ms.count-1)
		}
	}
	return ms.count == 0, reason
}

// addAll adds the mismatches of other, naming node in each.
func (ms *mismatches) addAll(other *mismatches, node string) {
	for _, m := range other.list {
		m.Node = node
		ms.add(m)
	}
	ms.count += other.count - len(other.list)
}
