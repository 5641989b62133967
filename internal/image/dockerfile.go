package image

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/internal/version"
)

// DumpName is the dump's name in the build context and in the image's /data.
const DumpName = "dump.rdb"

// Labels set on every image, prefixed "io.rdbgen.".
const labelPrefix = "io.rdbgen."

// startCommand returns the server's command line in the image.
func startCommand(p *Plan, o Options) []string {
	cmd := []string{p.Server.Command(), "--dir", "/data", "--dbfilename", DumpName}
	if !o.Persist {
		cmd = append(cmd, "--appendonly", "no", "--save", "")
	}
	return append(cmd, o.Args...)
}

// dockerfile returns the Dockerfile of plan p.
func dockerfile(p *Plan, o Options) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by rdbgen %s: %s with the dataset of %s in /data, loaded at start-up.\n",
		version.Release(), p.Server.Command(), p.DumpName)
	fmt.Fprintf(&b, "FROM %s\n", o.Base)
	fmt.Fprintf(&b, "COPY --chown=%s %s /data/%s\n", o.Owner, DumpName, DumpName)
	if p.Binary != "" {
		fmt.Fprintf(&b, "COPY %s %s\n", binaryName, BinaryPath)
	}
	if len(p.Libraries) > 0 {
		fmt.Fprintf(&b, "COPY %s/ %s/\n", libraryContextDir, LibraryDir)
	}
	labels := []string{
		"version=" + version.Release(),
		"rdb-version=" + strconv.Itoa(p.RDBVersion),
		"persist=" + strconv.FormatBool(o.Persist),
	}
	if p.Binary != "" {
		labels = append(labels, "expiry-from-start=true")
	}
	if p.Keys >= 0 {
		labels = append(labels, "keys="+strconv.FormatInt(p.Keys, 10))
	}
	if p.Checksum != "" {
		labels = append(labels, "checksum="+p.Checksum)
	}
	b.WriteString("LABEL")
	for _, l := range labels {
		name, value, _ := strings.Cut(l, "=")
		fmt.Fprintf(&b, " %s%s=%s", labelPrefix, name, strconv.Quote(value))
	}
	b.WriteString("\n")
	if o.Persist {
		b.WriteString("# The server keeps its own save points: it saves the dataset back to /data.\n")
	} else {
		b.WriteString("# No save points and appendonly off: the server never writes the dump back.\n")
	}
	var entry []string
	if p.Binary != "" {
		b.WriteString("# rdbgen moves the dump's expiries to the container's start, then runs the rest.\n")
		if len(p.Libraries) > 0 {
			// rdbgen is linked dynamically: its own loader and libraries run it, whatever
			// the base holds in /lib, and the server is exec'd as the base runs it.
			b.WriteString("# rdbgen runs through the dynamic loader and libraries it was built with, in " + LibraryDir + ".\n")
			entry = []string{path.Join(LibraryDir, p.Libraries[0].Name), "--library-path", LibraryDir}
		}
		entry = append(entry, BinaryPath, "entrypoint", "/data/"+DumpName, "--")
	}
	b.WriteString("# Arguments after the image name in docker run are added to the server's.\n")
	entry = append(append(entry, p.Entrypoint...), p.Command...)
	js, _ := json.Marshal(entry) // strings always marshal
	fmt.Fprintf(&b, "ENTRYPOINT %s\nCMD []\n", js)
	return []byte(b.String())
}
