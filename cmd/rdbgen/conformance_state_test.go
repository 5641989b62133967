package main

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// serverState is what a server holds, as its own commands tell it: what TestConformance
// compares between the server that read a dump and a server each path filled.
type serverState struct {
	digest    string                    // DEBUG DIGEST: every key, type, value, expiring or not
	functions map[string]map[string]any // FUNCTION LIST WITHCODE, by library name
	expiry    map[int]map[string]int64  // PEXPIRETIME (-1: none) of every key, by db
	values    map[int]map[string]string // DEBUG DIGEST-VALUE of every key, by db
	dbsize    map[int]int64             // DBSIZE (which counts keys expired but not yet removed), by db
	streams   map[string]map[string]any // XINFO STREAM FULL, by "db/key"
	pending   map[string]string         // XPENDING key group, by "db/key/group"
	entries   map[string][]pendingEntry // XPENDING key group - + N, by "db/key/group"
}

// pendingEntry is one line of XPENDING key group - + N, with the idle time turned into the
// moment of the last delivery as seen by this process (within the time of a round trip).
type pendingEntry struct {
	id, consumer string
	deliveries   int64
	deliveredMS  int64
}

// stateOptions are what a comparison leaves out: what the path's target cannot hold.
type stateOptions struct {
	noFunctions bool // the target has no functions (and the path was told to drop them)
	rdb9        bool // the target writes RDB 9: a stream's 7.0 metadata is the loading server's guess
}

// streamEncodingFields are the fields of XINFO STREAM FULL that tell how the server laid a
// stream out in memory, not what it holds (as OBJECT ENCODING): a stream rebuilt by XADD or
// written with other node sizes has other numbers.
var streamEncodingFields = []string{"radix-tree-keys", "radix-tree-nodes"}

// consumerClockFields are the fields of a consumer that no client can set: the loading
// server's clock gives them.
var consumerClockFields = []string{"seen-time", "active-time"}

// stream70Fields are the stream and group fields of XINFO STREAM FULL that RDB 9 (Redis
// before 7.0) has no room for: a 7.0 server loading RDB 9 derives them, and a server of the
// target's version has none of them.
var (
	stream70Fields = []string{"entries-added", "max-deleted-entry-id", "recorded-first-entry-id"}
	group70Fields  = []string{"entries-read", "lag"}
)

// readState reads the state of the server at addr, over RESP2 (flat arrays, as redis-cli
// shows them).
func readState(t *testing.T, addr string) serverState {
	t.Helper()
	ctx := t.Context()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer c.Close()
	st := serverState{expiry: map[int]map[string]int64{}, values: map[int]map[string]string{}, dbsize: map[int]int64{}, streams: map[string]map[string]any{},
		pending: map[string]string{}, entries: map[string][]pendingEntry{}}
	var err error
	if st.digest, err = c.Do(ctx, "DEBUG", "DIGEST").Text(); err != nil {
		t.Fatalf("DEBUG DIGEST of %s: %v", addr, err)
	}
	libs, err := c.Do(ctx, "FUNCTION", "LIST", "WITHCODE").Slice()
	if err != nil {
		t.Fatalf("FUNCTION LIST of %s: %v", addr, err)
	}
	st.functions = map[string]map[string]any{}
	for _, l := range libs {
		lib := flatMap(l)
		var fns []string
		fl, _ := lib["functions"].([]any)
		for _, f := range fl {
			fns = append(fns, fmt.Sprint(flatMap(f)))
		}
		sort.Strings(fns)
		lib["functions"] = fns
		st.functions[fmt.Sprint(lib["library_name"])] = lib
	}
	// A cluster node holds database 0 alone, and refuses SELECT.
	dbs := 16
	if info, err := c.Info(ctx, "cluster").Result(); err == nil && strings.Contains(info, "cluster_enabled:1") {
		dbs = 1
	}
	for db := range dbs {
		dc := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DB: db})
		n, err := dc.DBSize(ctx).Result()
		if err != nil {
			dc.Close()
			t.Fatalf("DBSIZE of db %d: %v", db, err)
		}
		if n > 0 {
			st.dbsize[db] = n
		}
		keys, err := dc.Keys(ctx, "*").Result()
		if err != nil {
			dc.Close()
			t.Fatalf("KEYS * in db %d: %v", db, err)
		}
		for _, k := range keys {
			ms, err := dc.Do(ctx, "PEXPIRETIME", k).Int64()
			if err != nil {
				t.Fatalf("PEXPIRETIME %q (db %d): %v", k, db, err)
			}
			v, err := dc.Do(ctx, "DEBUG", "DIGEST-VALUE", k).Slice()
			if err != nil || len(v) != 1 {
				t.Fatalf("DEBUG DIGEST-VALUE %q (db %d): %v", k, db, err)
			}
			if st.expiry[db] == nil {
				st.expiry[db] = map[string]int64{}
				st.values[db] = map[string]string{}
			}
			st.expiry[db][k], st.values[db][k] = ms, fmt.Sprint(v[0])
			if typ := dc.Type(ctx, k).Val(); typ == "stream" {
				readStreamState(t, dc, db, k, &st)
			}
		}
		dc.Close()
	}
	return st
}

// readStreamState adds the stream key of db to st: XINFO STREAM FULL, and XPENDING of each
// group in both forms.
func readStreamState(t *testing.T, c *redis.Client, db int, key string, st *serverState) {
	t.Helper()
	ctx := t.Context()
	name := fmt.Sprintf("%d/%s", db, key)
	raw, err := c.Do(ctx, "XINFO", "STREAM", key, "FULL", "COUNT", "0").Result()
	if err != nil {
		t.Fatalf("XINFO STREAM %s FULL: %v", name, err)
	}
	info := flatMap(raw)
	groups, _ := info["groups"].([]any)
	var gs []any
	for _, g := range groups {
		gm := flatMap(g)
		var cs []any
		consumers, _ := gm["consumers"].([]any)
		for _, k := range consumers {
			cs = append(cs, flatMap(k))
		}
		gm["consumers"] = cs
		gs = append(gs, gm)
		group := fmt.Sprint(gm["name"])
		sum, err := c.Do(ctx, "XPENDING", key, group).Result()
		if err != nil {
			t.Fatalf("XPENDING %s %s: %v", name, group, err)
		}
		st.pending[name+"/"+group] = fmt.Sprint(sum)
		lines, err := c.Do(ctx, "XPENDING", key, group, "-", "+", 100000).Slice()
		now := time.Now().UnixMilli()
		if err != nil {
			t.Fatalf("XPENDING %s %s - + N: %v", name, group, err)
		}
		var es []pendingEntry
		for _, l := range lines {
			f := l.([]any)
			es = append(es, pendingEntry{id: fmt.Sprint(f[0]), consumer: fmt.Sprint(f[1]),
				deliveredMS: now - f[2].(int64), deliveries: f[3].(int64)})
		}
		st.entries[name+"/"+group] = es
	}
	info["groups"] = gs
	st.streams[name] = info
}

// flatMap turns a RESP2 reply of names and values into a map.
func flatMap(v any) map[string]any {
	m := map[string]any{}
	a, _ := v.([]any)
	for i := 0; i+1 < len(a); i += 2 {
		m[fmt.Sprint(a[i])] = a[i+1]
	}
	return m
}

// diffState returns the differences of got from want, one line each, leaving out what o
// says the path cannot carry.
func diffState(want, got serverState, o stateOptions) []string {
	var diffs []string
	if got.digest != want.digest {
		diffs = append(diffs, fmt.Sprintf("DEBUG DIGEST %s, want %s", got.digest, want.digest))
	}
	if !o.noFunctions {
		for _, line := range diffValue("", libraries(got.functions), libraries(want.functions)) {
			diffs = append(diffs, "FUNCTION LIST WITHCODE: "+line)
		}
	}
	for _, db := range unionKeys(want.dbsize, got.dbsize) {
		if got.dbsize[db] != want.dbsize[db] {
			diffs = append(diffs, fmt.Sprintf("db %d: DBSIZE %d, want %d", db, got.dbsize[db], want.dbsize[db]))
		}
	}
	for _, db := range unionKeys(want.expiry, got.expiry) {
		for _, k := range unionKeys(want.expiry[db], got.expiry[db]) {
			w, wok := want.expiry[db][k]
			g, gok := got.expiry[db][k]
			switch {
			case !gok:
				diffs = append(diffs, fmt.Sprintf("db %d: key %q missing", db, k))
			case !wok:
				diffs = append(diffs, fmt.Sprintf("db %d: key %q should not be there", db, k))
			case g != w:
				diffs = append(diffs, fmt.Sprintf("db %d: key %q: PEXPIRETIME %d, want %d", db, k, g, w))
			}
			if gok && wok && got.values[db][k] != want.values[db][k] {
				diffs = append(diffs, fmt.Sprintf("db %d: key %q: the value differs (DEBUG DIGEST-VALUE)", db, k))
			}
		}
	}
	for _, name := range unionKeys(want.streams, got.streams) {
		d := diffValue("", streamView(got.streams[name], o), streamView(want.streams[name], o))
		if len(d) > maxStreamDiffs {
			d = append(d[:maxStreamDiffs], fmt.Sprintf("and %d more", len(d)-maxStreamDiffs))
		}
		for _, line := range d {
			diffs = append(diffs, fmt.Sprintf("XINFO STREAM %s FULL: %s", name, line))
		}
	}
	for _, name := range unionKeys(want.pending, got.pending) {
		if got.pending[name] != want.pending[name] {
			diffs = append(diffs, fmt.Sprintf("XPENDING %s: %q, want %q", name, got.pending[name], want.pending[name]))
		}
	}
	for _, name := range unionKeys(want.entries, got.entries) {
		if !samePending(got.entries[name], want.entries[name]) {
			diffs = append(diffs, fmt.Sprintf("XPENDING %s - + N:\n  got  %+v\n  want %+v", name, got.entries[name], want.entries[name]))
		}
	}
	return diffs
}

// libraries returns the libraries of FUNCTION LIST WITHCODE by name, as diffValue reads
// them.
func libraries(m map[string]map[string]any) map[string]any {
	libs := map[string]any{}
	for name, lib := range m {
		libs[name] = lib
	}
	return libs
}

// maxStreamDiffs is how many differences of one stream a failure shows.
const maxStreamDiffs = 8

// streamView is a stream's XINFO STREAM FULL without the fields that o and the loading
// server's clock and memory layout leave out, its groups and their consumers by name.
func streamView(info map[string]any, o stateOptions) map[string]any {
	if info == nil {
		return nil
	}
	v := drop(info, streamEncodingFields)
	if o.rdb9 {
		v = drop(v, stream70Fields)
	}
	gs := map[string]any{}
	groups, _ := v["groups"].([]any)
	for _, g := range groups {
		gm := drop(g.(map[string]any), nil)
		if o.rdb9 {
			gm = drop(gm, group70Fields)
		}
		cs := map[string]any{}
		consumers, _ := gm["consumers"].([]any)
		for _, k := range consumers {
			km := k.(map[string]any)
			cs[fmt.Sprint(km["name"])] = drop(km, consumerClockFields)
		}
		gm["consumers"] = cs
		gs[fmt.Sprint(gm["name"])] = gm
	}
	v["groups"] = gs
	return v
}

// diffValue returns where got differs from want, a reply made of maps, lists and scalars:
// one line a difference, each with its path from the reply's top.
func diffValue(path string, got, want any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		var d []string
		for _, k := range unionKeys(g, w) {
			gv, gok := g[k]
			wv, wok := w[k]
			switch {
			case !gok:
				d = append(d, fmt.Sprintf("%s.%s missing, want %s", path, k, short(wv)))
			case !wok:
				d = append(d, fmt.Sprintf("%s.%s = %s, want none", path, k, short(gv)))
			default:
				d = append(d, diffValue(path+"."+k, gv, wv)...)
			}
		}
		return d
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		var d []string
		for i := range max(len(g), len(w)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(g):
				d = append(d, fmt.Sprintf("%s missing, want %s", p, short(w[i])))
			case i >= len(w):
				d = append(d, fmt.Sprintf("%s = %s, want none", p, short(g[i])))
			default:
				d = append(d, diffValue(p, g[i], w[i])...)
			}
		}
		return d
	}
	if reflect.DeepEqual(got, want) {
		return nil
	}
	return []string{fmt.Sprintf("%s = %s, want %s", path, short(got), short(want))}
}

// short shows v on one line of at most 100 characters.
func short(v any) string {
	s := strings.ReplaceAll(fmt.Sprint(v), "\n", `\n`)
	if len(s) > 100 {
		s = s[:97] + "..."
	}
	return s
}

// drop returns a copy of m without the names.
func drop(m map[string]any, names []string) map[string]any {
	c := map[string]any{}
	for k, v := range m {
		if !slices.Contains(names, k) {
			c[k] = v
		}
	}
	return c
}

// samePending tells whether two XPENDING listings are the same: ids, consumers and counts
// exactly, the moments of delivery within two seconds (each is read as the idle time at a
// different moment).
func samePending(a, b []pendingEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		d := a[i].deliveredMS - b[i].deliveredMS
		if a[i].id != b[i].id || a[i].consumer != b[i].consumer || a[i].deliveries != b[i].deliveries || d > 2000 || d < -2000 {
			return false
		}
	}
	return true
}

// unionKeys returns the keys of two maps, sorted.
func unionKeys[K int | string, V any](a, b map[K]V) []K {
	var ks []K
	for k := range a {
		ks = append(ks, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// String shows a state's outline, for the reference checks' messages.
func (st serverState) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "digest %s, %d libraries, ", st.digest, len(st.functions))
	for _, db := range unionKeys(st.expiry, nil) {
		fmt.Fprintf(&b, "db %d: %d keys, ", db, len(st.expiry[db]))
	}
	fmt.Fprintf(&b, "%d streams", len(st.streams))
	return b.String()
}
