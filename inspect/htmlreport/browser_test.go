package htmlreport_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
)

// chromium returns the path of Debian's chromium; a missing one fails the test in CI and
// skips it elsewhere.
func chromium(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("chromium")
	if err != nil {
		redistest.Missing(t, "chromium not found (apt-get install chromium): %v", err)
	}
	return p
}

// browse runs headless chromium on the file at page with extra flags and returns its
// standard output: the DOM after the page's scripts ran, with --dump-dom.
func browse(t *testing.T, page string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--mute-audio", "--disable-extensions", "--no-pings",
		"--disable-domain-reliability", "--disable-client-side-phishing-detection", "--disable-breakpad",
		"--disable-features=NetworkTimeServiceQuerying,OptimizationHints,Translate,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater",
		"--user-data-dir=" + t.TempDir(), // never a profile another run shares
	}, flags...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, chromium(t), args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, lastLines(stderr.String(), 10))
	}
	return string(out)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// artifacts returns the directory where a test leaves what a person may want to look at:
// $RDBGEN_TEST_ARTIFACTS when set, else the test's temporary directory.
func artifacts(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("RDBGEN_TEST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// screenshot saves a screenshot of the page under the artifacts directory as name and
// returns its path, after checking it is a PNG of some substance.
func screenshot(t *testing.T, page, name string) string {
	t.Helper()
	shot := filepath.Join(artifacts(t), name)
	browse(t, page, "--window-size=1280,2400", "--screenshot="+shot)
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	if len(b) < 20000 || string(b[1:4]) != "PNG" {
		t.Fatalf("screenshot %s: %d bytes, not a PNG of a drawn page", shot, len(b))
	}
	t.Logf("screenshot: %s", shot)
	return shot
}

// element returns the opening tag and content of the first element of dom whose opening
// tag holds attr (such as `id="keys"` or `data-prefix="user:"`), up to the end of the
// element named end; it fails the test when there is none.
func element(t *testing.T, dom, attr, end string) string {
	t.Helper()
	i := strings.Index(dom, attr)
	if i < 0 {
		t.Fatalf("the page has no element with %s", attr)
	}
	start := strings.LastIndex(dom[:i+1], "<")
	j := strings.Index(dom[i:], "</"+end+">")
	if j < 0 {
		t.Fatalf("element with %s does not end", attr)
	}
	return dom[start : i+j]
}

var valueRe = regexp.MustCompile(`data-value="(-?\d+)"`)

// value returns the data-value of the element of dom whose tag holds attr.
func value(t *testing.T, dom, attr string) string {
	t.Helper()
	tag := element(t, dom, attr, "div")
	tag = tag[:strings.Index(tag, ">")]
	m := valueRe.FindStringSubmatch(tag)
	if m == nil {
		t.Fatalf("element with %s has no data-value: %s", attr, tag)
	}
	return m[1]
}

// cell returns the data-value of the cell data-field="field" in the table row of dom whose
// tag holds attr.
func cell(t *testing.T, dom, attr, field string) string {
	t.Helper()
	row := element(t, dom, attr, "tr")
	re := regexp.MustCompile(`data-field="` + field + `" data-value="(-?\d+)"`)
	m := re.FindStringSubmatch(row)
	if m == nil {
		t.Fatalf("row %s has no %s: %s", attr, field, row)
	}
	return m[1]
}

// browserOwn are the requests Chromium makes of itself whatever page it opens, which no
// flag turns off (component updates, the account service): the start of the first line of
// the request.
var browserOwn = []string{
	"CONNECT update.googleapis.com:443 ",
	"POST http://update.googleapis.com/service/update2/",
	"CONNECT accounts.google.com:443 ",
	"GET http://clients2.google.com/time/",
}

// proxy listens on 127.0.0.1 as the HTTP proxy of a browser and counts the requests it gets
// but the browser's own (browserOwn), logging the first line of each; it answers none.
func proxy(t *testing.T) (addr string, requests *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	requests = new(atomic.Int64)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if slices.ContainsFunc(browserOwn, func(p string) bool { return strings.HasPrefix(line, p) }) {
				continue
			}
			requests.Add(1)
			t.Logf("proxy: request %q", strings.TrimSpace(line))
		}
	}()
	return l.Addr().String(), requests
}

// offline are the flags that send every request of the browser, loopback included, to the
// proxy at addr.
func offline(addr string) []string {
	return []string{fmt.Sprintf("--proxy-server=http://%s", addr), "--proxy-bypass-list=<-loopback>"}
}
