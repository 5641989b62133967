package objstore

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
)

func TestParse(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	tests := []struct {
		in, bucket, key, err string
		prefix               bool
	}{
		{in: "s3://b/dir/dump.rdb", bucket: "s3://b", key: "dir/dump.rdb"},
		{in: "gs://b/dump.rdb", bucket: "gs://b", key: "dump.rdb"},
		{in: "azblob://c/d/e.rdb.gz", bucket: "azblob://c", key: "d/e.rdb.gz"},
		{in: "s3://b/k?endpoint=http://127.0.0.1:9000", bucket: "s3://b?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=us-east-1&use_path_style=true", key: "k"},
		{in: "s3://b/k?endpoint=http://h&use_path_style=false&region=eu-west-1", bucket: "s3://b?endpoint=http%3A%2F%2Fh&region=eu-west-1&use_path_style=false", key: "k"},
		{in: "s3://b/", err: "names no object"},
		{in: "s3://b", err: "names no object"},
		{in: "s3:///k", err: "names no bucket"},
		{in: "s3://b/p/", prefix: true, bucket: "s3://b", key: "p/"},
		{in: "s3://b/dump?1.rdb", bucket: "s3://b", key: "dump?1.rdb"}, // no option follows the ?: the key's
		{in: "s3://b/what?", bucket: "s3://b", key: "what?"},
		{in: "s3://b/a%3Fb=c.rdb", bucket: "s3://b", key: "a?b=c.rdb"},
		{in: "s3://b/a?region=eu-west-1", bucket: "s3://b?region=eu-west-1", key: "a"},
	}
	for _, tt := range tests {
		o, err := Parse(tt.in, tt.prefix)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: got %v, want %q", tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.in, err)
		case o.Bucket != tt.bucket || o.Key != tt.key:
			t.Errorf("%s: bucket %q key %q, want %q %q", tt.in, o.Bucket, o.Key, tt.bucket, tt.key)
		}
	}
	t.Setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000")
	if o, _ := Parse("s3://b/k", false); o.Bucket != "s3://b?region=us-east-1&use_path_style=true" {
		t.Errorf("with AWS_ENDPOINT_URL_S3: %q", o.Bucket)
	}
}

// TestKeyWithQuestionMark: a ? followed by an option that is no option of the bucket is an
// error that says how to write a ? of the key; a manifest goes beside a key with a ?.
func TestKeyWithQuestionMark(t *testing.T) {
	o, err := Parse("s3://b/a?b=c.rdb", false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.open(context.Background())
	if err == nil || !strings.Contains(err.Error(), "%3F") || !strings.Contains(err.Error(), "s3://b/a") {
		t.Fatalf("an unknown option: %v", err)
	}
	for in, want := range map[string]string{
		"s3://b/dump?1.rdb":        "s3://b/dump?1.rdb.manifest.json",
		"s3://b/dump.rdb?region=x": "s3://b/dump.rdb.manifest.json?region=x",
		"s3://b/dump.rdb":          "s3://b/dump.rdb.manifest.json",
	} {
		if got := WithSuffix(in, ".manifest.json"); got != want {
			t.Errorf("WithSuffix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsURL(t *testing.T) {
	for in, want := range map[string]bool{"s3://b/k": true, "gs://b/k": true, "azblob://c/k": true, "dump.rdb": false,
		"redis://h:6379": false, "-": false, "s3:/b": false} {
		if IsURL(in) != want {
			t.Errorf("IsURL(%q) = %v", in, !want)
		}
	}
}

// dirOpener opens every bucket as a fileblob bucket in one directory.
type dirOpener struct{ dir string }

func (o dirOpener) OpenBucketURL(_ context.Context, u *url.URL) (*blob.Bucket, error) {
	dir := filepath.Join(o.dir, u.Host)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return fileblob.OpenBucket(dir, nil)
}

// TestWriterAllOrNothing writes through the path gs:// and azblob:// take (blob.OpenBucket
// by URL), on a fileblob bucket: an aborted upload leaves no object, a committed one the
// bytes written, read back by Open; an existing object is refused without force, replaced
// with it; a missing one is an error naming its URL.
func TestWriterAllOrNothing(t *testing.T) {
	blob.DefaultURLMux().RegisterBucket("dirtest", dirOpener{t.TempDir()})
	Register("dirtest")
	ctx := context.Background()
	o, err := Parse("dirtest://b/d/dump.rdb", false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := o.Create(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("REDIS0011"))
	w.Abort()
	if err := w.Commit(); err != nil {
		t.Fatalf("Commit after Abort: %v", err)
	}
	if ok, err := o.Exists(ctx); err != nil || ok {
		t.Fatalf("aborted: exists %v, %v", ok, err)
	}
	if _, err := o.Open(ctx); err == nil || !strings.Contains(err.Error(), "dirtest://b/d/dump.rdb") || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("open of a missing object: %v", err)
	}
	for i, body := range []string{"first", "second"} {
		w, err := o.Create(ctx, i > 0)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		r, err := o.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != body {
			t.Fatalf("read back %q, %v; want %q", got, err, body)
		}
		if _, err := o.Create(ctx, false); !errors.Is(err, atomicfile.ErrExists) || !strings.Contains(err.Error(), "--force") {
			t.Fatalf("an existing object without force: %v", err)
		}
	}
}
