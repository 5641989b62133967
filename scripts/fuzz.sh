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
n=0
while IFS=: read -r file fn; do
	name=${fn#func }
	pkg=./$(dirname "${file#./}")
	echo "--- fuzz $pkg $name ($FUZZTIME)"
	"$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"
	n=$((n + 1))
done <<<"$targets"
echo "fuzz: $n functions, $FUZZTIME each: no failures"
