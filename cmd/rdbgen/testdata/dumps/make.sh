#!/usr/bin/env bash
# make.sh [OUTDIR]: remake the dumps of this directory with the local redis-server.
#
# Each dump is a redis-server started empty (with the variant's settings below), filled by
# redis-cli --pipe with commands.txt (its lines that are not comments), then SAVEd. OUTDIR is
# this directory by default; TestConformance runs this script into a temporary directory, so
# that the dumps it checks always include ones the installed server wrote.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# make_dump (scripts/make-dump.sh) starts a server, sends commands.txt and saves.
# shellcheck source=../../../../scripts/make-dump.sh
. "$here/../../../../scripts/make-dump.sh"

# types: the server's default settings (listpacks, intsets, LZF-compressed strings).
make_dump "$here/commands.txt" "$out/types.rdb"
# encodings: no string compression, small quicklist nodes compressed by LZF, small stream
# nodes, small listpacks: other encodings of the same data.
make_dump "$here/commands.txt" "$out/encodings.rdb" --rdbcompression no --list-compress-depth 1 --list-max-listpack-size 8 \
	--stream-node-max-entries 10 --hash-max-listpack-entries 16 --zset-max-listpack-entries 16 \
	--set-max-intset-entries 64
