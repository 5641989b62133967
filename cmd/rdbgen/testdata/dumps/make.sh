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

# make_dump NAME [SERVER ARGS...]: write OUTDIR/NAME.
make_dump() {
	local name=$1
	shift
	local work
	work=$(mktemp -d)
	# A unix socket and no TCP port: nothing to collide with.
	redis-server --port 0 --unixsocket "$work/redis.sock" --dir "$work" --save "" \
		--appendonly no --logfile "$work/redis.log" "$@" &
	local pid=$!
	local tries=0
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
	local reply
	reply=$(grep -v '^#' "$here/commands.txt" | redis-cli -s "$work/redis.sock" --pipe 2>&1)
	case $reply in
	*"errors: 0,"*) ;;
	*)
		echo "make.sh: $name: a command failed: $reply" >&2
		kill "$pid"
		exit 1
		;;
	esac
	redis-cli -s "$work/redis.sock" SAVE >/dev/null
	redis-cli -s "$work/redis.sock" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
	wait "$pid" || true
	cp "$work/dump.rdb" "$out/$name.rdb"
	rm -rf "$work"
}

# types: the server's default settings (listpacks, intsets, LZF-compressed strings).
make_dump types
# encodings: no string compression, small quicklist nodes compressed by LZF, small stream
# nodes, small listpacks: other encodings of the same data.
make_dump encodings --rdbcompression no --list-compress-depth 1 --list-max-listpack-size 8 \
	--stream-node-max-entries 10 --hash-max-listpack-entries 16 --zset-max-listpack-entries 16 \
	--set-max-intset-entries 64
