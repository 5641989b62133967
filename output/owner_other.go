//go:build !unix

package output

import "os"

// keepOwner does nothing where files have no Unix owner.
func keepOwner(string, os.FileInfo) error { return nil }
