package htmlreport_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/inspect/htmlreport"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// realDump is a dump redis-server 7.0.15 wrote (see its README): keys named type:detail,
// with set:ints:… and set:strs:… a level deeper.
const realDump = "../../cmd/rdbgen/testdata/dumps/types.rdb"

// writePage inspects the dump at path with prefixes depth parts deep and writes its page
// into a temporary directory, returning the page's path and the report.
func writePage(t *testing.T, path string, depth int) (string, *inspect.Report) {
	t.Helper()
	rep, err := inspect.File(context.Background(), path, inspect.Options{
		Target:   "redis-7.0",
		Prefixes: &inspect.PrefixOptions{Separator: ":", Depth: depth, Top: 10},
	})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := htmlreport.Write(f, rep, htmlreport.Options{Name: filepath.Base(path), Separator: ":", Depth: depth}); err != nil {
		t.Fatal(err)
	}
	return page, rep
}

// hostileKey is a key name that would end the page's script and inject an element if it
// were written into the page as markup.
const hostileKey = `</script><b id="injected">x</b>`

// TestBrowserShowsDump has headless Chromium open the page of a dump redis-server wrote
// after known commands, and finds in the DOM its script drew the figures Redis reports
// (DBSIZE, LLEN, the keys given a TTL) and the report's (a prefix's bytes, the estimate);
// a key named as markup shows as text. It saves a screenshot.
func TestBrowserShowsDump(t *testing.T) {
	chromium(t)
	var dbsize, llen int64
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		p := c.Pipeline()
		for i := range 40 {
			p.Set(ctx, fmt.Sprintf("user:%d", i), strings.Repeat(strconv.Itoa(i%10), 100), 0)
		}
		for i := range 10 {
			p.HSet(ctx, fmt.Sprintf("cart:%d", i), "a", 1, "b", 2, "c", 3, "d", 4, "e", 5)
		}
		for i := range 2000 {
			p.RPush(ctx, "queue:big", fmt.Sprintf("job-%d", i))
		}
		for i := range 5 {
			p.Set(ctx, fmt.Sprintf("session:%d", i), "s", 3600e9) // an hour
		}
		p.Set(ctx, hostileKey, "v", 0)
		if _, err := p.Exec(ctx); err != nil {
			return err
		}
		var err error
		if dbsize, err = c.DBSize(ctx).Result(); err != nil {
			return err
		}
		llen, err = c.LLen(ctx, "queue:big").Result()
		return err
	})
	page, rep := writePage(t, dump, 1)
	dom := browse(t, page, "--dump-dom")
	if !strings.Contains(dom, `data-rendered="true"`) {
		t.Fatalf("the page's script did not finish:\n%s", lastLines(dom, 20))
	}
	var user *inspect.Prefix
	for i, p := range rep.Prefixes {
		if p.Prefix == "user:" {
			user = &rep.Prefixes[i]
		}
	}
	if user == nil {
		t.Fatalf("no prefix user: in the report: %+v", rep.Prefixes)
	}
	for _, c := range []struct{ what, got, want string }{
		{"keys (DBSIZE)", value(t, dom, `id="keys"`), strconv.FormatInt(dbsize, 10)},
		{"keys with an expiry", value(t, dom, `id="expires"`), "5"},
		{"used_memory estimate", value(t, dom, `id="used-memory"`), strconv.FormatInt(rep.Memory.Bytes, 10)},
		{"user: keys", cell(t, dom, `<tr data-prefix="user:"`, "keys"), "40"},
		{"user: file bytes", cell(t, dom, `<tr data-prefix="user:"`, "bytes"), strconv.FormatInt(user.Bytes, 10)},
		{"user: memory", cell(t, dom, `<tr data-prefix="user:"`, "memory"), strconv.FormatInt(user.Memory, 10)},
		{"cart: keys", cell(t, dom, `<tr data-prefix="cart:"`, "keys"), "10"},
		{"hash keys", cell(t, dom, `<tr data-type="hash"`, "keys"), "10"},
		{"queue:big members (LLEN)", cell(t, dom, `<tr data-key="queue:big"`, "members"), strconv.FormatInt(llen, 10)},
		{"keys expiring within 1h", value(t, dom, `data-within="1h"`), "5"},
	} {
		if c.got != c.want {
			t.Errorf("%s: the page shows %s, want %s", c.what, c.got, c.want)
		}
	}
	largest := element(t, dom, `id="largest-size-table"`, "table")
	if i := strings.Index(largest, `data-key="`); i < 0 || !strings.HasPrefix(largest[i:], `data-key="queue:big"`) {
		t.Errorf("the first of the largest keys is not queue:big: %s", largest)
	}
	if !strings.Contains(dom, `data-prefix="user:" data-value="`+strconv.FormatInt(user.Memory, 10)+`"`) {
		t.Errorf("the treemap has no tile of user: of %d bytes", user.Memory)
	}
	if strings.Contains(dom, `<b id="injected">`) || !strings.Contains(dom, "&lt;/script&gt;&lt;b id=") {
		t.Errorf("the key %q is not shown as text", hostileKey)
	}
	screenshot(t, page, "htmlreport-known-dump.png")
}

// TestBrowserOpensPrefix opens the page of a real server's dump, with prefixes two parts
// deep, at a prefix (the address a click on its tile gives): the treemap then shows that
// prefix's own prefixes and no other.
func TestBrowserOpensPrefix(t *testing.T) {
	chromium(t)
	page, _ := writePage(t, realDump, 2)
	top := browse(t, page, "--dump-dom")
	for _, p := range []string{"set:", "list:", "zset:"} {
		if !strings.Contains(top, `class="tile`) || !strings.Contains(top, `data-prefix="`+p+`" data-value=`) {
			t.Errorf("the treemap has no tile %q at the top", p)
		}
	}
	if !strings.Contains(element(t, top, `data-prefix="set:" data-value=`, "g"), `class="tile group"`) {
		t.Errorf("set: is not a group to open")
	}
	dom := browse(t, page+"#prefix=set%3A", "--dump-dom")
	crumbs := element(t, dom, `id="prefix-crumbs"`, "div")
	if !strings.Contains(crumbs, ">set:</button>") {
		t.Errorf("the page did not open set:: %s", crumbs)
	}
	tree := element(t, dom, `id="treemap-svg"`, "svg")
	for _, p := range []string{"set:ints:", "set:strs:"} {
		if !strings.Contains(tree, `data-prefix="`+p+`"`) {
			t.Errorf("set: opened without its prefix %s: %s", p, tree)
		}
	}
	if strings.Contains(tree, `data-prefix="list:large"`) {
		t.Errorf("set: opened shows list:large")
	}
	screenshot(t, page, "htmlreport-real-dump.png")
}

// TestBrowserMakesNoRequest has Chromium open the page with every request it makes, to any
// host, sent to a proxy the test owns: the proxy gets no connection. A page that loads an
// image gets one, which shows the proxy sees requests; the same image put into the report's
// page is blocked by the page's Content-Security-Policy.
func TestBrowserMakesNoRequest(t *testing.T) {
	chromium(t)
	page, _ := writePage(t, realDump, 2)
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	img := `<img src="http://192.0.2.1/pixel.png">`
	control := filepath.Join(t.TempDir(), "control.html")
	injected := filepath.Join(t.TempDir(), "injected.html")
	for path, text := range map[string]string{
		control:  "<!DOCTYPE html><title>control</title>" + img,
		injected: strings.Replace(string(html), "<main", img+"<main", 1),
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		page     string
		requests bool
	}{{page, false}, {control, true}, {injected, false}} {
		addr, requests := proxy(t)
		dom := browse(t, c.page, append(offline(addr), "--dump-dom")...)
		if c.page != control && !strings.Contains(dom, `data-rendered="true"`) {
			t.Errorf("%s: the page's script did not finish", filepath.Base(c.page))
		}
		if got := requests.Load() > 0; got != c.requests {
			t.Errorf("%s: %d requests through the proxy, want requests: %v", filepath.Base(c.page), requests.Load(), c.requests)
		}
	}
}

// TestBrowserShowsEmptyDump opens the page of a dump redis-server wrote with no keys, whose
// report has empty lists (JSON null in places): the page is drawn to its end, with 0 keys.
func TestBrowserShowsEmptyDump(t *testing.T) {
	chromium(t)
	dump := redistest.WriteDumpWith(t, nil, func(context.Context, *redis.Client) error { return nil })
	page, _ := writePage(t, dump, 1)
	dom := browse(t, page, "--dump-dom")
	if !strings.Contains(dom, `data-rendered="true"`) {
		t.Fatalf("the page's script did not finish")
	}
	if got := value(t, dom, `id="keys"`); got != "0" {
		t.Errorf("keys: the page shows %s, want 0", got)
	}
	if !strings.Contains(dom, "No key has an expiry.</p>") {
		t.Errorf("the page does not say no key expires")
	}
}
