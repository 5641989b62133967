package image

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/verify"
)

// writeELF writes the 64-bit ELF header of an executable for machine, with a PT_INTERP
// program header (a dynamic loader) when dynamic is set: what checkBinary looks at.
func writeELF(t *testing.T, machine elf.Machine, dynamic bool) string {
	t.Helper()
	var h elf.Header64
	copy(h.Ident[:], elf.ELFMAG)
	h.Ident[elf.EI_CLASS], h.Ident[elf.EI_DATA], h.Ident[elf.EI_VERSION] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
	h.Type, h.Machine, h.Version = uint16(elf.ET_EXEC), uint16(machine), uint32(elf.EV_CURRENT)
	h.Ehsize, h.Phentsize, h.Shentsize = 64, 56, 64
	var progs []elf.Prog64
	if dynamic {
		h.Phoff, h.Phnum = 64, 1
		progs = append(progs, elf.Prog64{Type: uint32(elf.PT_INTERP), Off: 120, Filesz: 1, Memsz: 1})
	}
	path := filepath.Join(t.TempDir(), "rdbgen")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	binary.Write(f, binary.LittleEndian, h)
	binary.Write(f, binary.LittleEndian, progs)
	f.Write([]byte{0})
	return path
}

// writeDumpWithCtime writes an empty RDB file of version whose ctime AUX field is set.
func writeDumpWithCtime(t *testing.T, header string) string {
	t.Helper()
	return writeFile(t, header+"\xfa\x05ctime\xc2\x00\x00\x00\x69\xff"+strings.Repeat("\x00", 8))
}

func TestCheckBinary(t *testing.T) {
	static := writeELF(t, elf.EM_X86_64, false)
	script := filepath.Join(t.TempDir(), "rdbgen.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	tests := []struct {
		name, path, arch, want string
	}{
		{"static for the base's platform", static, "amd64", ""},
		{"static, platform unknown", static, "", ""},
		{"static, an architecture this table lacks", static, "mips64", ""},
		{"dynamic, no interpreter named", writeELF(t, elf.EM_X86_64, true), "amd64", `is linked dynamically, and its interpreter "" is not an absolute path; build one with CGO_ENABLED=0 GOOS=linux go build`},
		{"another platform", writeELF(t, elf.EM_AARCH64, false), "amd64", "is for AARCH64, and the base image for amd64; build one with CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build"},
		{"dynamic, another platform", writeELF(t, elf.EM_AARCH64, true), "amd64", "is for AARCH64, and the base image for amd64; build one with CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build"},
		{"not ELF", script, "amd64", "is not a Linux executable"},
		{"missing", filepath.Join(t.TempDir(), "none"), "amd64", "is not a Linux executable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := checkBinary(tt.path, tt.arch)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestStaleWarning(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ms := func(d time.Duration) int64 { return now.Add(d).UnixMilli() }
	tests := []struct {
		name string
		f    *verify.FileReport
		want string
	}{
		{"no report", nil, ""},
		{"no expiries", &verify.FileReport{Path: "d.rdb", Keys: 5}, ""},
		{"first passes in more than a day", &verify.FileReport{Path: "d.rdb", Expires: 3, MinExpireAtMS: ms(25 * time.Hour), MaxExpireAtMS: ms(48 * time.Hour)}, ""},
		{"first passes in a day exactly", &verify.FileReport{Path: "d.rdb", Expires: 3, MinExpireAtMS: ms(24 * time.Hour), MaxExpireAtMS: ms(48 * time.Hour)},
			"d.rdb holds 3 keys with a TTL, 0 of them expired already; the first expiry passes in 24h0m0s and the last passes in 48h0m0s: the server drops expired keys"},
		{"within the hour", &verify.FileReport{Path: "d.rdb", Expires: 3, MinExpireAtMS: ms(time.Hour), MaxExpireAtMS: ms(time.Hour)}, "the first expiry passes in 1h0m0s"},
		{"passed", &verify.FileReport{Path: "d.rdb", Expires: 3, Expired: 2, MinExpireAtMS: ms(-47 * time.Hour), MaxExpireAtMS: ms(time.Minute)},
			"2 of them expired already; the first expiry passed 47h0m0s ago and the last passes in 1m0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := staleWarning(tt.f, now)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if got != "" && !strings.HasSuffix(got, "(use --expiry-from-start to count TTLs from the container's start)") {
				t.Fatalf("no hint: %q", got)
			}
		})
	}
}

// TestWriteContextExpiryFromStart: the context holds the binary, executable, and the
// Dockerfile runs it in front of the server; without a binary the option is refused.
func TestWriteContextExpiryFromStart(t *testing.T) {
	dump := writeDump(t, "REDIS0010")
	bin := writeELF(t, elf.EM_X86_64, false)
	opts := Options{DockerHost: "unix:///nonexistent/docker.sock", Base: "redis:7.0", ExpiryFromStart: true}
	if _, err := NewPlan(context.Background(), dump, opts); !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), "needs an rdbgen binary") {
		t.Fatalf("no binary: %v", err)
	}
	opts.Binary = bin
	if _, err := NewPlan(context.Background(), dump, opts); !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), "has no ctime AUX field") {
		t.Fatalf("no ctime: %v", err)
	}
	dump = writeDumpWithCtime(t, "REDIS0010")
	dir := filepath.Join(t.TempDir(), "ctx")
	p, err := WriteContext(context.Background(), dump, dir, false, opts)
	if err != nil {
		t.Fatal(err)
	}
	if p.Binary != bin || len(p.Warnings) != 0 {
		t.Fatalf("plan %+v", p)
	}
	fi, err := os.Stat(filepath.Join(dir, binaryName))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("binary in the context: %v, %v", fi, err)
	}
	df, _ := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if !strings.Contains(string(df), `ENTRYPOINT ["/usr/local/bin/rdbgen","entrypoint","/data/dump.rdb","--","docker-entrypoint.sh","redis-server",`) ||
		strings.Contains(string(df), LibraryDir) {
		t.Fatalf("Dockerfile:\n%s", df)
	}
	if _, err := os.Stat(filepath.Join(dir, libraryContextDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a static binary has libraries in the context: %v", err)
	}

	// A dynamically linked binary (this test binary) comes with its loader and libraries,
	// and the entrypoint runs it through them.
	exe, interp := dynamicSelf(t)
	opts.Binary = exe
	dir = filepath.Join(t.TempDir(), "ctx")
	if p, err = WriteContext(context.Background(), dump, dir, false, opts); err != nil {
		t.Fatal(err)
	}
	if len(p.Libraries) < 2 || p.Libraries[0].Path != interp {
		t.Fatalf("libraries %+v", p.Libraries)
	}
	for _, l := range p.Libraries {
		got, err := os.ReadFile(filepath.Join(dir, libraryContextDir, l.Name))
		want, _ := os.ReadFile(l.Path)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s in the context: %v", l.Name, err)
		}
	}
	df, _ = os.ReadFile(filepath.Join(dir, "Dockerfile"))
	entry := `ENTRYPOINT ["/usr/local/lib/rdbgen/` + path.Base(interp) + `","--library-path","/usr/local/lib/rdbgen","/usr/local/bin/rdbgen","entrypoint","/data/dump.rdb","--","docker-entrypoint.sh","redis-server",`
	if !strings.Contains(string(df), "\nCOPY rdbgen-lib/ /usr/local/lib/rdbgen/\n") || !strings.Contains(string(df), entry) {
		t.Fatalf("Dockerfile:\n%s", df)
	}
}
