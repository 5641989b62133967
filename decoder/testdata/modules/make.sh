#!/usr/bin/env bash
# make.sh [OUTDIR]: remake modules.rdb with the local redis-server and rdbgen's test module.
#
# The module (internal/moduletest/testdata/rdbgenmt.c) is built with gcc -shared -fPIC; a
# redis-server started empty with --loadmodule is filled by redis-cli --pipe with
# commands.txt (its lines that are not comments), then SAVEd. OUTDIR is this directory by
# default.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -shared -fPIC -O2 -o "$work/rdbgenmt.so" "$here/../../../internal/moduletest/testdata/rdbgenmt.c"
# A unix socket and no TCP port: nothing to collide with.
redis-server --port 0 --unixsocket "$work/redis.sock" --dir "$work" --save "" \
	--appendonly no --logfile "$work/redis.log" --loadmodule "$work/rdbgenmt.so" &
pid=$!
tries=0
until [ "$(redis-cli -s "$work/redis.sock" PING 2>/dev/null)" = PONG ]; do
	tries=$((tries + 1))
	if [ "$tries" -gt 500 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "make.sh: redis-server does not answer:" >&2
		cat "$work/redis.log" >&2
		kill "$pid" 2>/dev/null || true
		exit 1
	fi
	sleep 0.01
done
reply=$(grep -v '^#' "$here/commands.txt" | redis-cli -s "$work/redis.sock" --pipe 2>&1)
case $reply in
*"errors: 0,"*) ;;
*)
	echo "make.sh: a command failed: $reply" >&2
	kill "$pid"
	exit 1
	;;
esac
redis-cli -s "$work/redis.sock" SAVE >/dev/null
redis-cli -s "$work/redis.sock" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
wait "$pid" || true
cp "$work/dump.rdb" "$out/modules.rdb"
