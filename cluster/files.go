package cluster

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ShardFile returns the name of shard i's file in a cluster dataset's directory:
// "shard-0.rdb", "shard-1.rdb"...
func ShardFile(i int) string { return "shard-" + strconv.Itoa(i) + ".rdb" }

// ShardFiles returns the shard files in dir, by shard number: files named as ShardFile names
// them, whatever numbers they have. It does not require the numbers to be contiguous.
func ShardFiles(dir string) (map[int]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, unwrapPath(err))
	}
	files := map[int]string{}
	for _, e := range entries {
		num, isShard := strings.CutPrefix(e.Name(), "shard-")
		num, isRDB := strings.CutSuffix(num, ".rdb")
		if !isShard || !isRDB || num == "" || strings.TrimLeft(num, "0123456789") != "" {
			continue
		}
		i, err := strconv.Atoi(num)
		if err != nil || ShardFile(i) != e.Name() { // "shard-01.rdb" is not ours
			continue
		}
		files[i] = filepath.Join(dir, e.Name())
	}
	return files, nil
}

// ShardPaths returns the shard files of dir in order, and an error unless they are
// shard-0.rdb to shard-<n-1>.rdb with none missing.
func ShardPaths(dir string) ([]string, error) {
	files, err := ShardFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no shard files (%s, %s...)", dir, ShardFile(0), ShardFile(1))
	}
	nums := slices.Sorted(maps.Keys(files))
	paths := make([]string, len(nums))
	for i, n := range nums {
		if n != i {
			return nil, fmt.Errorf("%s: %s is missing (the directory holds %s)", dir, ShardFile(i), ShardFile(n))
		}
		paths[i] = files[n]
	}
	return paths, nil
}

// unwrapPath drops the *PathError layer whose path the caller's message already names.
func unwrapPath(err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
