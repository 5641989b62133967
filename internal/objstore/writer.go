package objstore

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
)

// A Writer is an object being uploaded: Write sends it part by part, Commit completes the
// upload, and only then does the object appear; Abort cancels it and leaves nothing.
type Writer struct {
	Object
	b      *blob.Bucket
	w      *blob.Writer
	cancel context.CancelFunc
	once   sync.Once
	err    error
}

// Create starts the upload of the object o. Without force, an existing object is an error
// wrapping atomicfile.ErrExists, checked now and again when the upload completes (a
// conditional write where the store has them). The upload runs until Commit or Abort, not
// ctx: cancelling ctx is what the caller's Abort is for.
func (o Object) Create(ctx context.Context, force bool) (*Writer, error) {
	if err := o.Check(ctx, force); err != nil {
		return nil, err
	}
	b, err := o.open(ctx)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w, err := b.NewWriter(wctx, o.Key, &blob.WriterOptions{
		BufferSize:     BufferSize,
		MaxConcurrency: Concurrency,
		ContentType:    "application/octet-stream",
		IfNotExist:     !force,
	})
	if err != nil {
		cancel()
		b.Close()
		return nil, o.fail("write", err)
	}
	return &Writer{Object: o, b: b, w: w, cancel: cancel}, nil
}

// Write sends p on to the upload.
func (w *Writer) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		err = w.fail("write", err)
	}
	return n, err
}

// Commit completes the upload: the object appears, whole. On an error there is none.
func (w *Writer) Commit() error {
	w.finish(false)
	return w.err
}

// Abort cancels the upload: no object appears, and the store drops the parts sent. It does
// nothing after Commit or Abort, so it can be deferred.
func (w *Writer) Abort() { w.finish(true) }

func (w *Writer) finish(abort bool) {
	w.once.Do(func() {
		if abort {
			w.cancel() // before Close: gocloud aborts the upload instead of completing it
		}
		err := w.w.Close()
		if err != nil {
			w.abortMultipart(err)
		}
		if err != nil && !abort {
			w.err = w.fail("write", err)
		}
		w.cancel()
		w.b.Close()
	})
}

// abortMultipart aborts the S3 multipart upload that err, the error of an upload, names.
// The SDK's uploader aborts a failed upload itself, but with the upload's own context,
// which is cancelled when the upload is interrupted: the parts sent would stay, stored and
// billed, until a lifecycle rule drops them. Another store aborts its upload itself.
func (w *Writer) abortMultipart(err error) {
	var mpu transfermanager.MultipartUploadError
	var client *s3.Client
	if !errors.As(err, &mpu) || !w.b.As(&client) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), abortTimeout)
	defer cancel()
	client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
		Bucket: aws.String(w.Name), Key: aws.String(w.Key), UploadId: aws.String(mpu.UploadID()),
	})
}

// abortTimeout bounds the abort of an interrupted upload.
const abortTimeout = 30 * time.Second
