#!/usr/bin/env bash
# Runs every Fuzz function of the repository for FUZZTIME (default 10s) each. The functions
# are found with grep, so those added later are run too; go test fuzzes one function at a
# time, hence one run per function. A failing input is kept in the package's
# testdata/fuzz/NAME, where plain `go test` runs it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}

targets=$(grep -rHo --include='*_test.go' --exclude-dir=testdata '^func Fuzz[A-Za-z0-9_]*' . | sort -u)
if [ -z "$targets" ]; then
	echo "fuzz: no Fuzz functions found" >&2
	exit 1
fi
# fuzz PKG NAME runs one function; its output is kept in $out.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fuzz() {
	"$GO" test -run '^$' -fuzz "^${2}\$" -fuzztime "$FUZZTIME" "$1" 2>&1 | tee "$out"
	return "${PIPESTATUS[0]}"
}

# corpus PKG NAME lists the failing inputs kept for a function.
corpus() { ls "$1/testdata/fuzz/$2" 2>/dev/null || true; }

n=0
while IFS=: read -r file fn; do
	name=${fn#func }
	pkg=./$(dirname "${file#./}")
	echo "--- fuzz $pkg $name ($FUZZTIME)"
	before=$(corpus "$pkg" "$name")
	if ! fuzz "$pkg" "$name"; then
		# Go 1.26's fuzzing coordinator can report the end of -fuzztime itself as a failure,
		# "context deadline exceeded", with no failing input (go.dev/issue/75804, fixed in Go
		# 1.27). Only that, with no new input kept, is run again, once; any other failure,
		# or that one twice, fails.
		if grep -q '^    context deadline exceeded$' "$out" && [ "$(corpus "$pkg" "$name")" = "$before" ]; then
			echo "fuzz: $name: the coordinator's deadline race (go.dev/issue/75804), no failing input: once more"
			fuzz "$pkg" "$name"
		else
			exit 1
		fi
	fi
	n=$((n + 1))
done <<<"$targets"
echo "fuzz: $n functions, $FUZZTIME each: no failures"
