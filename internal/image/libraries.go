package image

import (
	"debug/elf"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// LibraryDir is the directory of an image built with Options.ExpiryFromStart that holds,
// for a dynamically linked rdbgen binary, its dynamic loader and the shared libraries it
// needs, copied from the machine that builds the image. The entrypoint runs the binary
// through that loader with --library-path LibraryDir, so neither clashes with the base
// image's own libc (Alpine's musl, another glibc, none on scratch) nor changes what the
// server, exec'd afterwards with the base's own loader and environment, loads.
const LibraryDir = "/usr/local/lib/rdbgen"

// libraryContextDir is the directory of LibraryDir's files in the build context.
const libraryContextDir = "rdbgen-lib"

// A Library is a file carried into LibraryDir for a dynamically linked rdbgen binary.
type Library struct {
	// Name is its name in LibraryDir: the name the binary or a library needs it by
	// (DT_NEEDED), or the base name of the binary's interpreter (PT_INTERP).
	Name string
	// Path is the file on this machine, where its dynamic loader finds it.
	Path string
}

// A resolver finds the files a dynamically linked executable needs on this machine, as its
// dynamic loader finds them: the DT_RPATH of the object that needs a library (and of the
// executable), LD_LIBRARY_PATH, its DT_RUNPATH, the ld.so cache, then the default
// directories; a file of another ELF class or machine is passed over, as the loader does.
type resolver struct {
	// root is prepended to every path looked up ("" on this machine; tests give a tree).
	root string
	// env holds the directories of LD_LIBRARY_PATH.
	env []string
}

// hostResolver returns the resolver of this machine.
func hostResolver() *resolver {
	return &resolver{env: filepath.SplitList(os.Getenv("LD_LIBRARY_PATH"))}
}

// multiarch names the Debian multiarch directories of each machine's libraries.
var multiarch = map[elf.Machine]string{
	elf.EM_X86_64:  "x86_64-linux-gnu",
	elf.EM_AARCH64: "aarch64-linux-gnu",
	elf.EM_386:     "i386-linux-gnu",
	elf.EM_ARM:     "arm-linux-gnueabihf",
	elf.EM_PPC64:   "powerpc64le-linux-gnu",
	elf.EM_S390:    "s390x-linux-gnu",
	elf.EM_RISCV:   "riscv64-linux-gnu",
}

// interpreterOf returns the path in the PT_INTERP program header of f, and whether it has one.
func interpreterOf(f *elf.File) (string, bool, error) {
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			return "", true, fmt.Errorf("read its interpreter: %w", err)
		}
		return strings.TrimRight(string(b), "\x00"), true, nil
	}
	return "", false, nil
}

// libraries returns the files the dynamically linked executable f, at bin, needs to run:
// its interpreter interp first, then every library it needs, directly or through another,
// where this machine's loader finds it. An error names what is missing, and what needs it.
func (r *resolver) libraries(bin string, f *elf.File, interp string) ([]Library, error) {
	if !path.IsAbs(interp) {
		return nil, fmt.Errorf("its interpreter %q is not an absolute path", interp)
	}
	interpPath := filepath.Join(r.root, interp)
	lf, err := r.open(interpPath, f)
	if err != nil {
		return nil, fmt.Errorf("its interpreter %s is not on this machine (%v)", interp, err)
	}
	soname, _ := lf.DynString(elf.DT_SONAME)
	lf.Close()
	libs := []Library{{Name: path.Base(interp), Path: interpPath}}
	// The loader matches a needed name against the objects loaded already, the
	// interpreter included (libc.so.6 needs ld-linux-x86-64.so.2 by name).
	seen := map[string]bool{path.Base(interp): true}
	for _, s := range soname {
		seen[s] = true
	}
	cache, defaults := r.searchPath(f, interp)
	exeRpath, _ := f.DynString(elf.DT_RPATH)
	type object struct {
		path string
		f    *elf.File
	}
	queue := []object{{bin, f}}
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		needed, err := obj.f.DynString(elf.DT_NEEDED)
		if err != nil {
			return nil, fmt.Errorf("read the libraries %s needs: %w", obj.path, err)
		}
		var dirs []string
		runpath, _ := obj.f.DynString(elf.DT_RUNPATH)
		if len(runpath) == 0 {
			rpath, _ := obj.f.DynString(elf.DT_RPATH)
			dirs = append(r.expand(rpath, obj.path), r.expand(exeRpath, bin)...)
		}
		dirs = append(dirs, r.env...)
		dirs = append(dirs, r.expand(runpath, obj.path)...)
		for _, name := range needed {
			if seen[name] {
				continue
			}
			seen[name] = true
			if strings.Contains(name, "/") {
				return nil, fmt.Errorf("%s needs the library %s by its path, which cannot be carried apart from the base image's files", obj.path, name)
			}
			var candidates []string
			for _, d := range dirs {
				candidates = append(candidates, filepath.Join(r.root, d, name))
			}
			for _, p := range cache[name] {
				candidates = append(candidates, filepath.Join(r.root, p))
			}
			for _, d := range defaults {
				candidates = append(candidates, filepath.Join(r.root, d, name))
			}
			found := false
			for _, c := range candidates {
				lf, err := r.open(c, f)
				if err != nil {
					continue
				}
				libs = append(libs, Library{Name: name, Path: c})
				queue = append(queue, object{c, lf})
				defer lf.Close()
				found = true
				break
			}
			if !found {
				who := obj.path
				if who == bin {
					who = "it"
				}
				return nil, &missingLibraryError{fmt.Sprintf("%s needs the library %s, which is not on this machine for %s (not in its ld.so cache, LD_LIBRARY_PATH or %s)",
					who, name, strings.TrimPrefix(f.Machine.String(), "EM_"), strings.Join(defaults, ", "))}
			}
		}
	}
	return libs, nil
}

// A missingLibraryError names a library the binary needs that is not on this machine.
type missingLibraryError struct{ msg string }

func (e *missingLibraryError) Error() string { return e.msg }

// open opens the ELF file at p when it is a shared object or executable of exe's class and
// machine, the ones exe's loader can load.
func (r *resolver) open(p string, exe *elf.File) (*elf.File, error) {
	lf, err := elf.Open(p)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if lf.Class != exe.Class || lf.Machine != exe.Machine || lf.Type != elf.ET_DYN && lf.Type != elf.ET_EXEC {
		lf.Close()
		return nil, fmt.Errorf("%s is a %s %s file, not %s %s", p, lf.Class, lf.Machine, exe.Class, exe.Machine)
	}
	return lf, nil
}

// expand returns the directories of a DT_RPATH or DT_RUNPATH of the object at obj, with
// $ORIGIN (the object's directory) replaced.
func (r *resolver) expand(entries []string, obj string) []string {
	var dirs []string
	origin := filepath.Dir(obj)
	if real, err := filepath.EvalSymlinks(obj); err == nil {
		origin = filepath.Dir(real)
	}
	if r.root != "" {
		origin = "/" + strings.TrimPrefix(strings.TrimPrefix(origin, r.root), "/")
	}
	for _, e := range entries {
		for _, d := range strings.Split(e, ":") {
			d = strings.NewReplacer("${ORIGIN}", origin, "$ORIGIN", origin).Replace(d)
			if d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// searchPath returns the ld.so cache and the default directories of the loader interp of
// exe: glibc's (its cache, the multiarch directories, /lib64 and /usr/lib64 for 64-bit
// objects, /lib and /usr/lib) or musl's (no cache; /etc/ld-musl-ARCH.path, else /lib,
// /usr/local/lib and /usr/lib).
func (r *resolver) searchPath(exe *elf.File, interp string) (map[string][]string, []string) {
	base := path.Base(interp)
	if arch, ok := strings.CutPrefix(base, "ld-musl-"); ok {
		arch, _, _ = strings.Cut(arch, ".so")
		if b, err := os.ReadFile(filepath.Join(r.root, "/etc/ld-musl-"+arch+".path")); err == nil {
			return nil, strings.FieldsFunc(string(b), func(c rune) bool { return c == ':' || c == '\n' })
		}
		return nil, []string{"/lib", "/usr/local/lib", "/usr/lib"}
	}
	var cache map[string][]string
	if b, err := os.ReadFile(filepath.Join(r.root, "/etc/ld.so.cache")); err == nil {
		cache = parseLDCache(b)
	}
	var defaults []string
	if t, ok := multiarch[exe.Machine]; ok {
		defaults = append(defaults, "/lib/"+t, "/usr/lib/"+t)
	}
	if exe.Class == elf.ELFCLASS64 {
		defaults = append(defaults, "/lib64", "/usr/lib64")
	}
	return cache, append(defaults, "/lib", "/usr/lib")
}
