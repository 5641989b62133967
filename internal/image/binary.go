package image

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"strings"

	"github.com/rdbgen/rdbgen/internal/dockercli"
)

// BinaryPath is where an image built with Options.ExpiryFromStart holds the rdbgen
// executable, which its entrypoint runs.
const BinaryPath = "/usr/local/bin/rdbgen"

// binaryName is the executable's name in the build context.
const binaryName = "rdbgen"

// elfMachines maps the architectures docker names to ELF machines.
var elfMachines = map[string]elf.Machine{
	"amd64":   elf.EM_X86_64,
	"arm64":   elf.EM_AARCH64,
	"386":     elf.EM_386,
	"arm":     elf.EM_ARM,
	"ppc64le": elf.EM_PPC64,
	"s390x":   elf.EM_S390,
	"riscv64": elf.EM_RISCV,
}

// checkBinary returns an error wrapping ErrInvalidOption unless the file at path is a Linux
// executable for arch, the base image's architecture ("" when unknown: any). A static one
// needs nothing else (it runs on any base image, FROM scratch too); for a dynamically linked
// one, it returns the files the image must carry into LibraryDir, its interpreter first.
func checkBinary(path, arch string) ([]Library, error) {
	return hostResolver().checkBinary(path, arch)
}

// checkBinary is checkBinary with the libraries found by r.
func (r *resolver) checkBinary(path, arch string) ([]Library, error) {
	hint := "build one with CGO_ENABLED=0 GOOS=linux go build ./cmd/rdbgen and name it with --rdbgen-binary"
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: rdbgen binary %s is not a Linux executable (%v); %s", ErrInvalidOption, path, err, hint)
	}
	defer f.Close()
	if want, ok := elfMachines[arch]; ok && f.Machine != want {
		return nil, fmt.Errorf("%w: rdbgen binary %s is for %s, and the base image for %s; %s", ErrInvalidOption, path,
			strings.TrimPrefix(f.Machine.String(), "EM_"), arch, strings.Replace(hint, "GOOS=linux", "GOOS=linux GOARCH="+arch, 1))
	}
	interp, dynamic, err := interpreterOf(f)
	if err == nil && !dynamic {
		return nil, nil // static: it goes alone
	}
	var libs []Library
	if err == nil {
		libs, err = r.libraries(path, f, interp)
	}
	if err != nil {
		var missing *missingLibraryError
		if errors.As(err, &missing) {
			hint = "install it, or " + hint
		}
		return nil, fmt.Errorf("%w: rdbgen binary %s is linked dynamically, and %v; %s", ErrInvalidOption, path, err, hint)
	}
	return libs, nil
}

// archOf returns the architecture of the base image ref as docker reports it ("amd64"), or
// "" when docker has no copy of it.
func archOf(ctx context.Context, docker dockercli.Client, ref string) string {
	out, err := docker.Run(ctx, nil, "image", "inspect", "--format", "{{.Architecture}}", ref)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}
