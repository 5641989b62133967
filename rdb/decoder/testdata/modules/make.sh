#!/usr/bin/env bash
# make.sh [OUTDIR]: remake modules.rdb with the local redis-server and rdbgen's test module.
#
# The module (internal/moduletest/testdata/rdbgenmt.c) is built with gcc -shared -fPIC; a
# redis-server started empty with --loadmodule is filled by redis-cli --pipe with
# commands.txt (its lines that are not comments), then SAVEd (scripts/make-dump.sh). OUTDIR
# is this directory by default.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck source=../../../../scripts/make-dump.sh
. "$here/../../../../scripts/make-dump.sh"

so=$(mktemp -d)
trap 'rm -rf "$so"' EXIT
gcc -shared -fPIC -O2 -o "$so/rdbgenmt.so" "$here/../../../../internal/moduletest/testdata/rdbgenmt.c"
make_dump "$here/commands.txt" "$out/modules.rdb" --loadmodule "$so/rdbgenmt.so"
