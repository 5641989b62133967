# rdbgen: test, benchmark and check.
#
#   make test         every test, against a real redis-server and docker (and the RDB
#                     checksum again with -tags purego, without assembly), and the
#                     Kubernetes examples' module (examples/kubernetes: k8s.io/api stays out
#                     of rdbgen's own go.mod)
#   make redis-image  the local test image rdbgen-test/redis:7.0
#   make bench        the benchmarks
#   make bench-compare BASE=main [HEAD=rev]
#                     the CLI of two revisions side by side, interleaved (generate, inspect,
#                     convert and read the 10M default dump; load 200k keys): medians, peak
#                     RSS and ratios (scripts/bench-compare.sh; ROUNDS=5)
#   make bench-html [BASE=rev]
#                     inspect --html of the 10M default dump beside --json and --json
#                     --prefixes, interleaved: medians and ratios (scripts/bench-html.sh);
#                     BASE also runs that revision's binary beside this tree's
#   make fuzz         every Fuzz function, FUZZTIME (10s) each
#   make vet          gofmt and go vet
#   make man          docs/rdbgen.1 from the commands' flags again (TestManPage fails when it is stale)
#   make cross        go build and go vet for each release platform (.goreleaser.yaml), without cgo
#   make release-check  goreleaser check of .goreleaser.yaml (goreleaser GORELEASER_VERSION,
#                     built from the Go module proxy into MINIO_DIR once, by make test-deps)

GO ?= go
REDIS_IMAGE ?= rdbgen-test/redis:7.0
TEST_TIMEOUT ?= 25m
FUZZTIME ?= 10s
BASE ?= main
HEAD ?= HEAD

export REDIS_IMAGE

.PHONY: all test test-deps redis-image bench bench-compare bench-html fuzz vet man cross release-check

all: vet test

test: test-deps
	@if command -v docker >/dev/null 2>&1 && docker version >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory redis-image; \
	else \
		echo "make test: docker does not answer: the docker tests will skip (in CI they fail)" >&2; \
	fi
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...
	$(GO) test -count=1 -tags purego ./rdb/internal/crc64
	cd examples/kubernetes && $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

# What the tests need, installed when missing and we are root: redis-server, chromium (the
# HTML report's browser tests), fish and zsh (the completion tests) from Debian's packages,
# and MinIO (the object-storage tests) built from the Go module proxy into MINIO_DIR, outside
# the repository. Elsewhere the tests that need a missing one skip (in CI they fail).
MINIO_DIR ?= /opt/rdbgen-cache/bin
# goreleaser for make release-check: the newest release whose go.mod this Go builds (v2.18
# needs a newer Go); pinned, so CI checks .goreleaser.yaml with the same rules every run.
GORELEASER_VERSION ?= v2.17.0
GORELEASER ?= $(MINIO_DIR)/goreleaser
TEST_PACKAGES = redis-server chromium fish zsh

test-deps:
	@missing=""; for c in redis-server chromium fish zsh; do command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -q </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(TEST_PACKAGES) </dev/null; \
		else \
			echo "make: missing:$$missing (apt-get install -y $(TEST_PACKAGES)): their tests will skip (in CI they fail)" >&2; \
		fi; \
	fi
	@if ! command -v minio >/dev/null 2>&1 && [ ! -x $(MINIO_DIR)/minio ]; then \
		echo "make: building MinIO into $(MINIO_DIR) (once)" >&2; \
		mkdir -p $(MINIO_DIR) && GOBIN=$(MINIO_DIR) $(GO) install github.com/minio/minio@latest </dev/null; \
	fi
	@if ! $(GORELEASER) --version 2>/dev/null | grep -q "$(GORELEASER_VERSION:v%=%)"; then \
		echo "make: building goreleaser $(GORELEASER_VERSION) into $(MINIO_DIR) (once)" >&2; \
		mkdir -p $(MINIO_DIR) && GOBIN=$(MINIO_DIR) $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION) </dev/null; \
	fi

redis-image:
	scripts/redis-image.sh

# Micro-benchmarks, then the whole-dataset ones: 10M keys side by side with
# github.com/hdt3213/rdb's encoder and with dd writing as many bytes (medians), and the
# binary's peak RSS at 10M and 100M keys;
# collections: 1M hashes of 10 fields and one set of 10M members (members/s and peak RSS);
# reading the 10M dump with decoder and with hdt3213's parser side by side, and a 10M-member set;
# converting the 10M default dump beside generating it (the ratio convert/gen);
# export --format jsonl of the 10M dump and hdt3213's rdb -c json side by side.
# load --method restore beside --method mass, 200k hashes of 20 fields (medians, ratio);
# rdbgen diff of two 10M-key dumps beside inspect of one (scripts/bench-diff.sh).
# load (default method) of 1M strings beside redis-cli --pipe, and of 200k hashes beside
# --method restore, each into a fresh Redis (scripts/bench-load.sh).
# inspect --html of the 10M dump beside --json (scripts/bench-html.sh).
# convert of a live 10M-key server (sync) beside redis-cli --rdb and BGSAVE (scripts/bench-live.sh).
# 10M keys to s3:// on a local MinIO beside the local file and local+upload (scripts/bench-objstore.sh).
# WHOLE names the whole-dataset benchmarks of package dataset (dataset/bench_whole_test.go),
# run 3 times each rather than for a second.
WHOLE = ^Benchmark(DefaultDataset|DefaultDatasetPipe|DefaultDatasetCPU|PeakRSS|ClusterSplit|ClusterPeakRSS|Collections|CollectionsPeakRSS)$$
bench:
	$(GO) test -run '^$$' -bench . -skip '$(WHOLE)' -benchmem ./rdb/encoder ./rdb/internal/lzf ./rdb/internal/crc64 ./rdbsink ./dataset ./verify ./cluster ./resp ./rewrite ./memory ./inspect ./importer ./export
	$(GO) test -run '^$$' -bench '$(WHOLE)' -benchtime 3x ./dataset
	$(GO) test -run '^$$' -bench . -benchtime 3x ./rdb/decoder
	$(GO) test -run '^$$' -bench ConvertDefaultDump -benchtime 3x ./convert
	$(GO) test -run '^$$' -bench ExportJSONL -benchtime 3x -timeout 60m ./cmd/rdbgen
	$(GO) test -run '^$$' -bench . -benchtime 3x ./live
	$(GO) test -run '^$$' -bench RestoreVsMass -benchtime 5x -timeout 30m ./loader
	GO=$(GO) scripts/bench-diff.sh
	GO=$(GO) scripts/bench-merge-diff.sh
	GO=$(GO) scripts/bench-load.sh
	GO=$(GO) scripts/bench-live.sh
	GO=$(GO) scripts/bench-objstore.sh
	GO=$(GO) scripts/bench-html.sh

# inspect --html beside --json (issue 38's 1.2x), of this tree and, with BASE=rev, of rev.
bench-html:
	GO=$(GO) scripts/bench-html.sh $(if $(filter command line,$(origin BASE)),$(BASE))

# The CLI at BASE against HEAD (a branch, tag or commit each), built in temporary worktrees.
bench-compare:
	GO=$(GO) scripts/bench-compare.sh $(BASE) $(HEAD)

# Every Fuzz function of the repository (found by grep: new ones are picked up), each for
# FUZZTIME, one `go test -fuzz` run per function.
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

vet:
	@unformatted=$$(gofmt -l .); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: not formatted:" >&2; echo "$$unformatted" >&2; exit 1; fi
	$(GO) vet ./...

# The man page, written by TestManPage from the same flag definitions as --help.
man:
	$(GO) test -count=1 -run '^TestManPage$$' ./cmd/rdbgen -update-man

# The platforms of .goreleaser.yaml, each built and vetted without cgo, so that a platform
# break shows before a release. Vet leaves out NOVET_DARWIN and NOVET_WINDOWS there: packages
# whose tests (not their code, which go build covers) use Linux or Unix system calls (mount,
# F_GETPIPE_SZ, mkfifo, rusage); moved into _linux_test.go or _unix_test.go files, those
# tests would let vet take the packages too.
CROSS = linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
NOVET_DARWIN = cmd/rdbgen internal/pipe
NOVET_WINDOWS = $(NOVET_DARWIN) dataset internal/atomicfile loader output verify
cross:
	@set -e; for p in $(CROSS); do \
		echo "make cross: $$p"; \
		export CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/}; \
		$(GO) build ./...; \
		case $$GOOS in darwin) skip="$(NOVET_DARWIN)";; windows) skip="$(NOVET_WINDOWS)";; *) skip="";; esac; \
		pkgs=$$($(GO) list ./...); \
		for d in $$skip; do pkgs=$$(echo "$$pkgs" | grep -v -x "github.com/rdbgen/rdbgen/$$d"); done; \
		$(GO) vet $$pkgs; \
	done

# goreleaser check of .goreleaser.yaml: a release configuration error shows in CI, not at the tag.
release-check: test-deps
	$(GORELEASER) check
