// Package miniotest starts a MinIO server on 127.0.0.1 for tests of object storage (s3://),
// and points the AWS SDK's standard variables at it. MinIO is looked up on PATH, then in
// /opt/rdbgen-cache/bin, where .ci/run installs it; a test that needs it fails in CI when it
// is missing, and is skipped elsewhere (redistest.Missing).
package miniotest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/rdbgen/rdbgen/internal/redistest"
)

// CacheDir is where .ci/run installs the minio binary when it is not on PATH.
const CacheDir = "/opt/rdbgen-cache/bin"

// The root user of the servers Start starts.
const (
	AccessKey = "rdbgen-test"
	SecretKey = "rdbgen-test-secret"
)

// A Server is a MinIO server a test started.
type Server struct {
	// Endpoint is its URL, http://127.0.0.1:port.
	Endpoint string
	// Dir holds its data.
	Dir  string
	bin  string
	addr string
	cmd  *exec.Cmd
	t    testing.TB
}

// Binary returns the path of minio.
func Binary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("minio"); err == nil {
		return p
	}
	p := filepath.Join(CacheDir, "minio")
	if _, err := os.Stat(p); err != nil {
		redistest.Missing(t, "minio not found on PATH nor in %s (GOBIN=%s go install github.com/minio/minio@latest)", CacheDir, CacheDir)
	}
	return p
}

// Start starts MinIO on a free port of 127.0.0.1, with its data in a temporary directory,
// stopped when the test ends, and sets the test's environment so that the AWS SDK (and so
// rdbgen, in the process or a child) reaches it: AWS_ENDPOINT_URL_S3, AWS_REGION and the
// root user's keys.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{bin: Binary(t), Dir: t.TempDir(), t: t}
	s.addr = freeAddr(t)
	s.Endpoint = "http://" + s.addr
	s.start()
	t.Cleanup(s.Stop)
	t.Setenv("AWS_ENDPOINT_URL_S3", s.Endpoint)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ACCESS_KEY_ID", AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", SecretKey)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	return s
}

// start runs the server at s.addr on s.Dir and waits until it answers.
func (s *Server) start() {
	t := s.t
	t.Helper()
	console := freeAddr(t)
	cmd := exec.Command(s.bin, "server", s.Dir, "--address", s.addr, "--console-address", console, "--quiet")
	cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+AccessKey, "MINIO_ROOT_PASSWORD="+SecretKey,
		"MINIO_BROWSER=off", "MINIO_UPDATE=off", "MINIO_CI_CD=1")
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start minio: %v", err)
	}
	s.cmd = cmd
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.Endpoint + "/minio/health/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			s.Kill()
			t.Fatalf("minio at %s did not answer within 60s: %v", s.addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Kill kills the server at once (SIGKILL), as a crash would.
func (s *Server) Kill() {
	if s.cmd != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// Restart starts the server again, on the same address and data, after Kill.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	s.start()
}

// Stop stops the server.
func (s *Server) Stop() { s.Kill() }

// Client returns an S3 client of the server, as its root user.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, ""),
	})
}

// MakeBucket creates the bucket name.
func (s *Server) MakeBucket(name string) {
	s.t.Helper()
	if _, err := s.Client().CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		s.t.Fatalf("create bucket %s: %v", name, err)
	}
}

// Get returns the object bucket/key, or fails the test.
func (s *Server) Get(bucket, key string) []byte {
	s.t.Helper()
	out, err := s.Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		s.t.Fatalf("get s3://%s/%s: %v", bucket, key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		s.t.Fatalf("read s3://%s/%s: %v", bucket, key, err)
	}
	return b
}

// Delete removes the objects keys of bucket.
func (s *Server) Delete(bucket string, keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if _, err := s.Client().DeleteObject(context.Background(), &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(k)}); err != nil {
			s.t.Fatalf("delete s3://%s/%s: %v", bucket, k, err)
		}
	}
}

// Keys returns the keys of the objects in bucket.
func (s *Server) Keys(bucket string) []string {
	s.t.Helper()
	out, err := s.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	if err != nil {
		s.t.Fatalf("list s3://%s: %v", bucket, err)
	}
	var keys []string
	for _, o := range out.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	return keys
}

// Uploads returns the keys of the multipart uploads in bucket not completed nor aborted.
func (s *Server) Uploads(bucket string) []string {
	s.t.Helper()
	out, err := s.Client().ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	if err != nil {
		s.t.Fatalf("list the uploads of s3://%s: %v", bucket, err)
	}
	var keys []string
	for _, u := range out.Uploads {
		keys = append(keys, aws.ToString(u.Key))
	}
	return keys
}

// freeAddr returns a free address on 127.0.0.1.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return fmt.Sprint(l.Addr())
}
