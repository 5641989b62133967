// Package objstore reads and writes objects in object storage by URL — s3://bucket/key,
// gs://bucket/key, azblob://container/key — through gocloud.dev/blob, with each provider's
// standard credential chain (environment, shared config, instance or workload identity).
//
// An S3-compatible store (MinIO, Ceph, R2) is reached by the SDK's own variables
// AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, or by the URL's endpoint= option; with an endpoint,
// path-style addressing is used (use_path_style=true) and the region defaults to us-east-1,
// unless the URL or the environment says otherwise.
//
// A Writer uploads as it is written (a multipart upload of BufferSize parts) and the object
// appears only when Commit completes it: Abort, or an error, cancels the upload and leaves no
// object. The package never prints.
package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/s3blob"    // s3://
	"gocloud.dev/gcerrors"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
)

// Schemes are the URL schemes of object storage.
var Schemes = []string{"s3", "gs", "azblob"}

// extraSchemes are schemes tests add (a memblob or fileblob bucket), see Register.
var extraSchemes []string

// Register makes IsURL accept scheme too: the scheme of a gocloud driver registered with
// blob.DefaultURLMux (mem:// of memblob in tests of the paths gs:// and azblob:// take).
func Register(scheme string) { extraSchemes = append(extraSchemes, scheme) }

// BufferSize is the size of an upload's parts, held in memory while each is sent; S3 takes
// 10,000 parts at most, so an object written through s3:// holds 78 GiB at most.
const BufferSize = 8 << 20

// Concurrency is the number of parts sent at once (the S3 uploader's default). The uploader
// may hold twice as many parts, and one more, while it sends them (queued and in flight).
const Concurrency = 5

// IsURL reports whether s names an object: one of Schemes followed by "://".
func IsURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok {
		return false
	}
	for _, k := range Schemes {
		if scheme == k {
			return true
		}
	}
	for _, k := range extraSchemes {
		if scheme == k {
			return true
		}
	}
	return false
}

// An Object is the place of an object: the URL of its bucket (with its options) and its key.
type Object struct {
	// URL is the object's URL as given; messages name it.
	URL string
	// Bucket is the bucket's URL, given to blob.OpenBucket; Name the bucket's name; Key the
	// object's key in it.
	Bucket, Name, Key string
}

// Parse splits rawURL into its bucket and key. A URL without a key, or with a key ending
// in "/", is an error unless prefix is set: then it names a prefix (Object.Key "" or ending
// in "/").
//
// A "?" starts the URL's options (name=value pairs), as in any URL, except where no option
// follows it: "s3://b/dump?1.rdb" names the key "dump?1.rdb". A key with a "?" followed by
// something with "=" is written %3F, which the error of an unknown option says.
func Parse(rawURL string, prefix bool) (Object, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return Object{}, fmt.Errorf("%s is no object URL: %w", Redact(rawURL), err)
	}
	if _, opts, ok := splitOptions(rawURL); !ok && (u.RawQuery != "" || u.ForceQuery) {
		key, err := url.PathUnescape(u.EscapedPath() + "?" + opts) // the ? is the key's
		if err != nil {
			return Object{}, fmt.Errorf("%s is no object URL: %w", rawURL, err)
		}
		u.Path, u.RawPath, u.RawQuery, u.ForceQuery = key, "", "", false
	}
	if u.Host == "" {
		return Object{}, fmt.Errorf("%s names no bucket (%s://bucket/key)", Redact(rawURL), u.Scheme)
	}
	key := strings.TrimPrefix(u.Path, "/")
	if !prefix && (key == "" || strings.HasSuffix(key, "/")) {
		return Object{}, fmt.Errorf("%s names no object: give a key after the bucket (%s://%s/dump.rdb)", Redact(rawURL), u.Scheme, u.Host)
	}
	q := u.Query()
	if u.Scheme == "s3" {
		endpoint := q.Get("endpoint") != "" || os.Getenv("AWS_ENDPOINT_URL_S3") != "" || os.Getenv("AWS_ENDPOINT_URL") != ""
		if endpoint && q.Get("use_path_style") == "" && q.Get("s3ForcePathStyle") == "" {
			q.Set("use_path_style", "true")
		}
		if endpoint && q.Get("region") == "" && os.Getenv("AWS_REGION") == "" && os.Getenv("AWS_DEFAULT_REGION") == "" {
			q.Set("region", "us-east-1")
		}
	}
	b := url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: q.Encode()}
	return Object{URL: Redact(rawURL), Bucket: b.String(), Name: u.Host, Key: key}, nil
}

// Child returns the object whose key is o's followed by name: an object under the prefix o
// names (its Key "" or ending in "/"), or beside o (name a suffix such as a manifest's).
func (o Object) Child(name string) Object {
	c := o
	c.Key = o.Key + name
	scheme, _, _ := strings.Cut(o.URL, "://")
	c.URL = scheme + "://" + o.Name + "/" + c.Key
	return c
}

// WithSuffix returns rawURL with suffix added to its key, before its options (the URL of
// a manifest beside a dump).
func WithSuffix(rawURL, suffix string) string {
	base, opts, ok := splitOptions(rawURL)
	if !ok {
		return base + suffix
	}
	return base + suffix + "?" + opts
}

// Redact returns rawURL without its options, as messages name an object.
func Redact(rawURL string) string {
	base, _, _ := splitOptions(rawURL)
	return base
}

// splitOptions cuts rawURL at the "?" that starts its options, and tells whether it has
// options: text after a "?" with an "=" in it (a "?" followed by none is the key's, see
// Parse). Without options, base is rawURL whole, and opts what follows a "?", if any.
func splitOptions(rawURL string) (base, opts string, ok bool) {
	base, opts, found := strings.Cut(rawURL, "?")
	if !found || !strings.Contains(opts, "=") {
		return rawURL, opts, false
	}
	return base, opts, true
}

// open opens o's bucket.
func (o Object) open(ctx context.Context) (*blob.Bucket, error) {
	b, err := blob.OpenBucket(ctx, o.Bucket)
	if err != nil {
		if strings.Contains(err.Error(), "unknown query parameter") {
			return nil, fmt.Errorf("%s: open the bucket: %w (what follows ? are the bucket's options; a key with a ? in it is written %%3F there)", o.URL, err)
		}
		return nil, fmt.Errorf("%s: open the bucket: %w", o.URL, err)
	}
	return b, nil
}

// Exists reports whether the object is there.
func (o Object) Exists(ctx context.Context) (bool, error) {
	b, err := o.open(ctx)
	if err != nil {
		return false, err
	}
	defer b.Close()
	ok, err := b.Exists(ctx, o.Key)
	if err != nil {
		return false, o.fail("check", err)
	}
	return ok, nil
}

// Check makes the check Create makes: without force, an existing object is an error
// wrapping atomicfile.ErrExists that names the way out.
func (o Object) Check(ctx context.Context, force bool) error {
	if force {
		return nil
	}
	ok, err := o.Exists(ctx)
	if err == nil && ok {
		err = fmt.Errorf("%s: %w (use --force to overwrite it)", o.URL, atomicfile.ErrExists)
	}
	return err
}

// Put writes data as the object, in one request: it appears whole or not at all.
func (o Object) Put(ctx context.Context, data []byte) error {
	b, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := b.WriteAll(ctx, o.Key, data, nil); err != nil {
		return o.fail("write", err)
	}
	return nil
}

// Delete removes the object; one that is not there is no error.
func (o Object) Delete(ctx context.Context) error {
	b, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := b.Delete(ctx, o.Key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return o.fail("delete", err)
	}
	return nil
}

// fail returns err, of the operation op on the object, as one line that names the object
// and, where the store said why, the cause in words and the way out.
func (o Object) fail(op string, err error) error {
	if errors.Is(err, context.Canceled) {
		return context.Canceled
	}
	var why string
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		why = "not found: check that the bucket exists and the key is right"
	case gcerrors.PermissionDenied:
		why = "access denied: check the credentials of the environment and the bucket's policy"
	case gcerrors.FailedPrecondition, gcerrors.AlreadyExists:
		why = "the object appeared meanwhile (use --force to overwrite it)"
	case gcerrors.Unknown:
		why = cause(err)
		if strings.Contains(why, "Invalid region") || strings.Contains(why, "region") && strings.Contains(why, "not set") {
			why = "no AWS region: set AWS_REGION, or add ?region=NAME to the URL"
		}
	default:
		why = cause(err)
	}
	return &Error{URL: o.URL, Op: op, Why: why, Err: err}
}

// An Error is an operation on an object that failed.
type Error struct {
	URL, Op, Why string
	Err          error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %s: %s", e.Op, e.URL, e.Why) }

// Unwrap returns the store's error.
func (e *Error) Unwrap() error { return e.Err }

// cause returns what err, of an SDK, says went wrong: the text at the end of its chain (a
// refused connection), without the layers of operation, request and upload ids around it.
// The S3 uploader's errors do not unwrap to their cause: it is read from their text.
func cause(err error) string {
	for next := errors.Unwrap(err); next != nil; next = errors.Unwrap(err) {
		err = next
	}
	msg := oneLine(err.Error())
	if i := strings.LastIndex(msg, "cause: "); i >= 0 {
		msg = msg[i+len("cause: "):]
	}
	if i := strings.LastIndex(msg, `": `); i >= 0 { // after a request's quoted URL
		msg = msg[i+len(`": `):]
	}
	return msg
}

// oneLine returns s on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Open opens the object for reading, from its start, with one sequential GET.
func (o Object) Open(ctx context.Context) (io.ReadCloser, error) {
	b, err := o.open(ctx)
	if err != nil {
		return nil, err
	}
	r, err := b.NewReader(ctx, o.Key, nil)
	if err != nil {
		b.Close()
		return nil, o.fail("read", err)
	}
	return &reader{o: o, r: r, b: b}, nil
}

// A reader reads an object; its errors name it.
type reader struct {
	o Object
	r *blob.Reader
	b *blob.Bucket
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = r.o.fail("read", err)
	}
	return n, err
}

func (r *reader) Close() error {
	err := r.r.Close()
	r.b.Close()
	return err
}
