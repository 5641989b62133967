package verify

import (
	"errors"
	"io/fs"
	"os"

	"github.com/rdbgen/rdbgen/manifest"
)

// ReadManifest reads the manifest at name, or else (name "") the one next to the file at path
// if there is one, into opts. It returns the manifest's path, or "" for none.
func ReadManifest(name, path string, opts *Options) (string, error) {
	if name == "" && path != "" {
		name = manifest.PathFor(path)
		if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
	}
	if name == "" {
		return "", nil
	}
	m, err := manifest.Read(name)
	if err != nil {
		return "", err
	}
	opts.Manifest = m
	return name, nil
}
