package rewrite_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"
	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

// TestGlobAgreesWithRedis stores every string of the matcher's table as a key of a real
// redis-server and checks that KEYS, for every pattern of the table, returns exactly the keys
// the matcher matches.
func TestGlobAgreesWithRedis(t *testing.T) {
	inst := servertest.StartEmpty(t)
	ctx := context.Background()
	c := inst.Client()
	patterns, strs := rewrite.GlobPatterns()
	strs = append(strs, "user:1", "user:", "session:*:data", "[x]", "-", "a", "b", "ab", "aab")
	// And random ones over a small alphabet rich in pattern bytes, the same every run.
	rnd := rand.New(rand.NewPCG(1, 2))
	randomText := func(alphabet string) string {
		b := make([]byte, rnd.IntN(7))
		for k := range b {
			b[k] = alphabet[rnd.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 300 {
		strs = append(strs, randomText(`ab-]^\*`))
		patterns = append(patterns, randomText(`ab*?[]^-\`))
	}
	slices.Sort(strs)
	strs = slices.Compact(strs)
	for _, s := range strs {
		if err := c.Set(ctx, s, "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range patterns {
		got, err := c.Keys(ctx, p).Result()
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		var want []string
		for _, s := range strs {
			if rewrite.Match(p, s) {
				want = append(want, s)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("KEYS %q = %q, the matcher says %q", p, got, want)
		}
	}
}

// The personal data of the dump: distinctive enough that a search for it cannot match by
// chance, and long enough (bios) that the encoder compresses it.
func origEmail(i int) string { return fmt.Sprintf("origuser.%d@prod-mail.example", i) }
func origName(i int) string  { return fmt.Sprintf("Origname%d Realsurname", i) }
func origToken(i int) string {
	s := sha256.Sum256([]byte(strconv.Itoa(i)))
	return hex.EncodeToString(s[:16])
}
func origBio(i int) string {
	return strings.Repeat(origName(i)+" writes from "+origEmail(i)+". ", 4)
}

const dumpUsers = 300

// personal lists every original value the rules must replace.
func personal() []string {
	var out []string
	for i := 1; i <= dumpUsers; i++ {
		out = append(out, origEmail(i), origName(i), origToken(i), origBio(i))
	}
	return out
}

const redisRules = `seed: 424242
rules:
  - key: "user:*"
    type: hash
    rename: {uuid: {}}
    fields:
      email: {fake: email}
      name: {fake: name}
      token: {string: 32}
  - key: "user:*:idx"
    rename: {uuid: {}}
    members_are_keys: true
  - key: "users:*"
    members: {uuid: {}}
  - key: "email:*"
    type: string
    rename: {fake: email}
    value: {uuid: {}}
  - key: "session:*"
    rename: {string: 32}
    value: {uuid: {}}
  - key: "newsletter"
    members: {fake: email}
  - key: "audit"
    members: {fake: email}
  - key: "bio:*"
    rename: {uuid: {}}
    value: {fake: paragraph}
`

// dumpRecords builds a dump holding e-mail addresses, names and tokens in string values, hash
// fields, set, sorted-set and list members and keys, with references between keys, some
// expiries, and keys no rule touches.
func dumpRecords(expire int64) []record.Record {
	var recs []record.Record
	add := func(r record.Record) { recs = append(recs, r) }
	all := record.Record{Key: []byte("users:all"), Type: record.Set}
	active := record.Record{Key: []byte("users:active"), Type: record.ZSet}
	news := record.Record{Key: []byte("newsletter"), Type: record.Set}
	audit := record.Record{Key: []byte("audit"), Type: record.List, ExpireAtMS: expire}
	for i := 1; i <= dumpUsers; i++ {
		id := []byte(strconv.Itoa(i))
		exp := int64(0)
		if i%3 == 0 {
			exp = expire + int64(i)
		}
		plan := "free"
		if i%7 == 0 {
			plan = "gold"
		}
		add(record.Record{Key: []byte("user:" + string(id)), Type: record.Hash, ExpireAtMS: exp, Members: []record.Member{
			{Name: []byte("email"), Value: []byte(origEmail(i))},
			{Name: []byte("name"), Value: []byte(origName(i))},
			{Name: []byte("token"), Value: []byte(origToken(i))},
			{Name: []byte("plan"), Value: []byte(plan)},
			{Name: []byte("created"), Value: []byte(strconv.Itoa(1700000000 + i))},
		}})
		add(record.Record{Key: []byte("email:" + origEmail(i)), Type: record.String, Value: id})
		add(record.Record{Key: []byte("session:" + origToken(i)), Type: record.String, Value: id, ExpireAtMS: expire})
		add(record.Record{Key: []byte("bio:" + string(id)), Type: record.String, Value: []byte(origBio(i))})
		add(record.Record{Key: []byte("user:" + string(id) + ":idx"), Type: record.Set, Members: []record.Member{
			{Name: []byte("email:" + origEmail(i))}, {Name: []byte("session:" + origToken(i))},
		}})
		all.Members = append(all.Members, record.Member{Name: id})
		if i%2 == 0 {
			active.Members = append(active.Members, record.Member{Name: id, Score: float64(i) / 4})
		}
		news.Members = append(news.Members, record.Member{Name: []byte(origEmail(i))})
		audit.Members = append(audit.Members, record.Member{Name: []byte(origEmail(i%50 + 1))})
	}
	add(all)
	add(active)
	add(news)
	add(audit)
	add(record.Record{Key: []byte("config:flags"), Type: record.Hash, Members: []record.Member{{Name: []byte("beta"), Value: []byte("on")}}})
	add(record.Record{Key: []byte("counter"), Type: record.String, Value: []byte("12345")})
	return recs
}

// writeDump writes recs, rewritten by rules unless rules is nil, to a new file.
func writeDump(t *testing.T, name string, recs []record.Record, rules *rewrite.Rules, opts encoder.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts.Target = "redis-7.0"
	w, err := rdbsink.NewWriter(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	var sink record.Sink = w
	if rules != nil {
		if sink, err = rewrite.New(w, rules); err != nil {
			t.Fatal(err)
		}
	}
	if err := sink.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	for k := range recs {
		if err := recs[k].WriteTo(sink); err != nil {
			t.Fatalf("record %q: %v", recs[k].Key, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// parsedStrings returns every key, value, field and member that github.com/hdt3213/rdb reads
// from the file at path, decompressed, separated by newlines.
func parsedStrings(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	put := func(b []byte) { buf.Write(b); buf.WriteByte('\n') }
	err = parser.NewDecoder(f).Parse(func(o parser.RedisObject) bool {
		put([]byte(o.GetKey()))
		switch o := o.(type) {
		case *parser.StringObject:
			put(o.Value)
		case *parser.HashObject:
			for k, v := range o.Hash {
				put([]byte(k))
				put(v)
			}
		case *parser.SetObject:
			for _, m := range o.Members {
				put(m)
			}
		case *parser.ListObject:
			for _, v := range o.Values {
				put(v)
			}
		case *parser.ZSetObject:
			for _, e := range o.Entries {
				put([]byte(e.Member))
			}
		default:
			t.Errorf("unexpected object %T", o)
		}
		return true
	})
	if err != nil {
		t.Fatalf("hdt3213/rdb cannot parse %s: %v", path, err)
	}
	return buf.Bytes()
}

// TestRewrittenDumpLoadsInRedis writes a dump of personal data through a rewrite Sink, loads
// it into redis-server and checks that every key kept its type, count and expiry, that the
// references between keys still hold, and that no original value remains in the file's bytes,
// uncompressed or decompressed.
func TestRewrittenDumpLoadsInRedis(t *testing.T) {
	ctx := context.Background()
	rules, err := rewrite.Parse("rules.yaml", []byte(redisRules))
	if err != nil {
		t.Fatal(err)
	}
	expire := time.Now().Add(2*time.Hour).UnixMilli() / 1000 * 1000
	recs := dumpRecords(expire)
	orig := writeDump(t, "orig.rdb", recs, nil, encoder.Options{})
	packed := writeDump(t, "packed.rdb", recs, rules, encoder.Options{})
	plain := writeDump(t, "plain.rdb", recs, rules, encoder.Options{DisableCompression: true})

	// The search finds the data where it is: in the original file, after decompression.
	origText := parsedStrings(t, orig)
	for _, s := range personal() {
		if !bytes.Contains(origText, []byte(s)) {
			t.Fatalf("the search does not find %q in the original dump", s)
		}
	}
	rawOrig, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(rawOrig, []byte(origBio(1))) {
		t.Fatal("the original bios are not compressed: the decompressed search proves nothing more")
	}
	// And none of it is in the rewritten files.
	raw, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	text := parsedStrings(t, packed)
	for _, s := range personal() {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("%q remains in the uncompressed output", s)
		}
		if bytes.Contains(text, []byte(s)) {
			t.Errorf("%q remains in the compressed output, decompressed", s)
		}
	}

	// Both rewritten files hold the same data.
	packedSrv := servertest.Start(t, packed, "--enable-debug-command", "yes")
	plainSrv := servertest.Start(t, plain, "--enable-debug-command", "yes")
	c := packedSrv.Client()
	d1, err1 := c.Do(ctx, "DEBUG", "DIGEST").Text()
	d2, err2 := plainSrv.Client().Do(ctx, "DEBUG", "DIGEST").Text()
	if err1 != nil || err2 != nil || d1 != d2 || strings.Trim(d1, "0") == "" {
		t.Fatalf("DEBUG DIGEST %q (%v) compressed, %q (%v) not", d1, err1, d2, err2)
	}

	// Keys, types, counts and expiries: each record's key after rewriting, by the same rules.
	if n, err := c.DBSize(ctx).Result(); err != nil || n != int64(len(recs)) {
		t.Fatalf("DBSIZE %d (%v), want %d", n, err, len(recs))
	}
	renamed := 0
	for k := range recs {
		r := &recs[k]
		key := rewrittenKey(t, rules, r)
		if key != string(r.Key) {
			renamed++
			if n, _ := c.Exists(ctx, string(r.Key)).Result(); n != 0 {
				t.Errorf("the original key %q is still there", r.Key)
			}
		}
		checkKey(t, ctx, c, key, r)
	}
	if renamed != 5*dumpUsers {
		t.Errorf("%d keys renamed, want %d", renamed, 5*dumpUsers)
	}
	checkReferences(t, ctx, c)
}

// rewrittenKey returns the key of r after rewriting.
func rewrittenKey(t *testing.T, rules *rewrite.Rules, r *record.Record) string {
	t.Helper()
	var out record.Collector
	s, err := rewrite.New(&out, rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteTo(s); err != nil {
		t.Fatal(err)
	}
	return string(out.Rec.Key)
}

// checkKey checks the type, member count, expiry and the untouched parts of a key.
func checkKey(t *testing.T, ctx context.Context, c *redis.Client, key string, r *record.Record) {
	t.Helper()
	typ, err := c.Type(ctx, key).Result()
	if err != nil || typ != string(r.Type) {
		t.Errorf("TYPE %q = %q (%v), want %s", key, typ, err, r.Type)
		return
	}
	var n int64
	switch r.Type {
	case record.Hash:
		n, err = c.HLen(ctx, key).Result()
		for _, m := range r.Members {
			if name := string(m.Name); name == "plan" || name == "created" || name == "beta" {
				if v, _ := c.HGet(ctx, key, name).Result(); v != string(m.Value) {
					t.Errorf("HGET %q %s = %q, want %q", key, name, v, m.Value)
				}
			}
		}
	case record.Set:
		n, err = c.SCard(ctx, key).Result()
	case record.ZSet:
		var got []redis.Z
		got, err = c.ZRangeWithScores(ctx, key, 0, -1).Result()
		n = int64(len(got))
		var want []float64
		for _, m := range r.Members {
			want = append(want, m.Score)
		}
		var scores []float64
		for _, z := range got {
			scores = append(scores, z.Score)
		}
		slices.Sort(want)
		if !slices.Equal(scores, want) {
			t.Errorf("%q scores %v, want %v", key, scores, want)
		}
	case record.List:
		n, err = c.LLen(ctx, key).Result()
	default:
		n = int64(len(r.Members))
	}
	if err != nil || n != int64(len(r.Members)) {
		t.Errorf("%q holds %d members (%v), want %d", key, n, err, len(r.Members))
	}
	at, err := c.PExpireTime(ctx, key).Result()
	want := time.Duration(r.ExpireAtMS) * time.Millisecond
	if r.ExpireAtMS == 0 {
		want = -1
	}
	if err != nil || at != want {
		t.Errorf("PEXPIRETIME %q = %v (%v), want %v", key, at, err, want)
	}
}

// checkReferences follows every reference between keys on the server.
func checkReferences(t *testing.T, ctx context.Context, c *redis.Client) {
	t.Helper()
	isUser := func(id string) bool {
		typ, _ := c.Type(ctx, "user:"+id).Result()
		return typ == "hash"
	}
	ids, err := c.SMembers(ctx, "users:all").Result()
	if err != nil || len(ids) != dumpUsers {
		t.Fatalf("users:all: %d ids (%v)", len(ids), err)
	}
	for _, id := range ids {
		if !isUser(id) {
			t.Errorf("users:all names %q, which is not a user", id)
		}
	}
	active, err := c.ZRange(ctx, "users:active", 0, -1).Result()
	if err != nil || len(active) != dumpUsers/2 {
		t.Fatalf("users:active: %d ids (%v)", len(active), err)
	}
	for _, id := range active {
		if !isUser(id) {
			t.Errorf("users:active names %q, which is not a user", id)
		}
	}
	// user:<id>:idx → the names of the user's index keys.
	idxs, err := c.Keys(ctx, "user:*:idx").Result()
	if err != nil || len(idxs) != dumpUsers {
		t.Fatalf("idx keys: %d (%v)", len(idxs), err)
	}
	for _, k := range idxs {
		if !isUser(strings.TrimSuffix(strings.TrimPrefix(k, "user:"), ":idx")) {
			t.Errorf("%s belongs to no user", k)
		}
		names, _ := c.SMembers(ctx, k).Result()
		for _, name := range names {
			if n, _ := c.Exists(ctx, name).Result(); n != 1 {
				t.Errorf("%s names %q, which does not exist", k, name)
			}
		}
	}
	// email:<address> → id of the user whose email field is <address>; session:<token> → id
	// of the user whose token field is <token>.
	for _, ref := range []struct{ prefix, field string }{{"email:", "email"}, {"session:", "token"}} {
		keys, err := c.Keys(ctx, ref.prefix+"*").Result()
		if err != nil || len(keys) != dumpUsers {
			t.Fatalf("%s keys: %d (%v)", ref.prefix, len(keys), err)
		}
		for _, k := range keys {
			id, err := c.Get(ctx, k).Result()
			if err != nil || !isUser(id) {
				t.Errorf("%s names %q (%v), which is not a user", k, id, err)
				continue
			}
			if v, _ := c.HGet(ctx, "user:"+id, ref.field).Result(); ref.prefix+v != k {
				t.Errorf("%s names user %s whose %s is %q", k, id, ref.field, v)
			}
		}
	}
}
