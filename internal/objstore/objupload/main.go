// Command objupload copies a file to an object URL with package objstore's uploader: the
// "write locally, then upload" side of scripts/bench-objstore.sh. Not a part of rdbgen.
//
//	objupload FILE URL
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/rdbgen/rdbgen/internal/objstore"
)

func main() {
	if err := upload(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "objupload:", err)
		os.Exit(1)
	}
}

// upload copies the file args[0] to the object args[1], replacing it.
func upload(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: objupload FILE URL")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	obj, err := objstore.Parse(args[1], false)
	if err != nil {
		return err
	}
	w, err := obj.Create(context.Background(), true)
	if err != nil {
		return err
	}
	defer w.Abort()
	if _, err := io.Copy(w, f); err != nil {
		return err
	}
	return w.Commit()
}
