#!/usr/bin/env bash
# bench-compare.sh BASE_REV [HEAD_REV]: the CLI of two revisions side by side.
#
# Builds cmd/rdbgen at BASE_REV and HEAD_REV (default HEAD) in detached worktrees of a temporary
# directory, then runs ROUNDS rounds (default 5), interleaved (each operation runs base and head
# back to back, the order alternating between rounds), of:
#
#   generate  rdbgen --count COUNT (10M) -o gen.rdb          the default dataset
#   inspect   rdbgen inspect dump.rdb --json                  of the COUNT-key dump
#   convert   rdbgen convert dump.rdb --target redis-7.0      the same dump, to RDB 10
#   read      rdbgen verify dump.rdb --backend offline --sample 0   every record read, no server
#   load      rdbgen load --count LOAD_COUNT (200k)            the default method, into a local
#                                                             redis-server, flushed before each
#
# The dump that inspect, convert and read take is one file, written once by BASE_REV with the
# same flags as generate, so both revisions read the same bytes. It prints each operation's
# median wall time and median peak RSS (GNU time), and the ratio head/base; then the targets of
# issue 23: convert of the dump over generating it, and inspect's time.
#
# Environment: ROUNDS (5), COUNT (10000000), LOAD_COUNT (200000), GO (go), REDIS_SERVER
# (redis-server), REDIS_CLI (redis-cli), KEEP=1 keeps the temporary directory.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 BASE_REV [HEAD_REV]" >&2
	exit 2
fi
base_rev=$1
head_rev=${2:-HEAD}
ROUNDS=${ROUNDS:-5}
COUNT=${COUNT:-10000000}
LOAD_COUNT=${LOAD_COUNT:-200000}
GO=${GO:-go}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
REDIS_CLI=${REDIS_CLI:-redis-cli}
BASE_TIME=2026-11-29T10:00:00Z

repo=$(git rev-parse --show-toplevel)
for tool in "$GO" "$REDIS_SERVER" "$REDIS_CLI"; do
	command -v "$tool" >/dev/null || { echo "$0: $tool not found" >&2; exit 1; }
done
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
	echo "$0: GNU time (/usr/bin/time -f) not found: apt-get install time" >&2
	exit 1
fi
base_sha=$(git -C "$repo" rev-parse --verify "$base_rev^{commit}")
head_sha=$(git -C "$repo" rev-parse --verify "$head_rev^{commit}")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX")
redis_pid=
cleanup() {
	if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
	for side in base head; do
		[ -d "$tmp/src-$side" ] && git -C "$repo" worktree remove --force "$tmp/src-$side" >/dev/null 2>&1 || true
	done
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for side in base head; do
	sha=$base_sha
	[ $side = head ] && sha=$head_sha
	echo "building $side ($sha)" >&2
	git -C "$repo" worktree add --quiet --detach "$tmp/src-$side" "$sha"
	(cd "$tmp/src-$side" && "$GO" build -o "$tmp/rdbgen-$side" ./cmd/rdbgen)
done

# A redis-server of its own, on a free port.
port=
for try in $(seq 1 20); do
	p=$((20000 + RANDOM % 20000))
	if ! "$REDIS_CLI" -p "$p" ping >/dev/null 2>&1; then port=$p; break; fi
done
[ -n "$port" ] || { echo "$0: no free port" >&2; exit 1; }
"$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$tmp" >"$tmp/redis.log" 2>&1 &
redis_pid=$!
for try in $(seq 1 50); do
	"$REDIS_CLI" -p "$port" ping >/dev/null 2>&1 && break
	sleep 0.1
done
"$REDIS_CLI" -p "$port" ping >/dev/null || { echo "$0: redis-server did not start:" >&2; cat "$tmp/redis.log" >&2; exit 1; }

echo "writing the ${COUNT}-key dump with base" >&2
"$tmp/rdbgen-base" -q --base-time "$BASE_TIME" --count "$COUNT" -o "$tmp/dump.rdb" -f

ops="generate inspect convert read load"

# run OP SIDE ROUND: one measured run; appends "seconds rss_kib" to $tmp/OP.SIDE.
run() {
	local op=$1 side=$2 bin="$tmp/rdbgen-$2" cmd
	case $op in
	generate) cmd=("$bin" -q --base-time "$BASE_TIME" --count "$COUNT" -o "$tmp/gen-$side.rdb" -f) ;;
	inspect) cmd=("$bin" inspect --json -q "$tmp/dump.rdb") ;;
	convert) cmd=("$bin" convert --target redis-7.0 -o "$tmp/conv-$side.rdb" -f -q "$tmp/dump.rdb") ;;
	read) cmd=("$bin" verify --backend offline --sample 0 -q "$tmp/dump.rdb") ;;
	load)
		"$REDIS_CLI" -p "$port" flushall >/dev/null
		cmd=("$bin" load --addr "127.0.0.1:$port" --count "$LOAD_COUNT" -q)
		;;
	esac
	if ! /usr/bin/time -f "%e %M" -o "$tmp/time" "${cmd[@]}" >/dev/null 2>"$tmp/stderr"; then
		echo "$0: $side $op failed: ${cmd[*]}" >&2
		cat "$tmp/stderr" >&2
		exit 1
	fi
	tail -n 1 "$tmp/time" >>"$tmp/$op.$side"
	rm -f "$tmp/gen-$side.rdb" "$tmp/gen-$side.rdb.manifest.json" "$tmp/conv-$side.rdb" "$tmp/conv-$side.rdb.manifest.json"
}

for round in $(seq 1 "$ROUNDS"); do
	echo "round $round/$ROUNDS" >&2
	order="base head"
	[ $((round % 2)) = 0 ] && order="head base"
	for op in $ops; do
		for side in $order; do
			run "$op" "$side"
		done
	done
done

# median FILE COLUMN
median() {
	sort -n -k "$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf (a > 0 ? "%.2f" : "-"), b / a}'; }

echo
echo "base $base_rev ($base_sha)"
echo "head $head_rev ($head_sha)"
echo "$ROUNDS rounds, interleaved; medians; dump of $COUNT keys ($(stat -c %s "$tmp/dump.rdb") bytes); load of $LOAD_COUNT keys"
echo
printf "%-9s %10s %10s %7s   %10s %10s %7s\n" op "base s" "head s" head/b "base MiB" "head MiB" head/b
for op in $ops; do
	bt=$(median "$tmp/$op.base" 1) ht=$(median "$tmp/$op.head" 1)
	bm=$(median "$tmp/$op.base" 2) hm=$(median "$tmp/$op.head" 2)
	printf "%-9s %10s %10s %7s   %10.1f %10.1f %7s\n" "$op" "$bt" "$ht" "$(ratio "$bt" "$ht")" \
		"$(awk -v k="$bm" 'BEGIN {print k/1024}')" "$(awk -v k="$hm" 'BEGIN {print k/1024}')" "$(ratio "$bm" "$hm")"
done
echo
echo "issue 23's targets (medians of this run):"
for side in base head; do
	g=$(median "$tmp/generate.$side" 1) c=$(median "$tmp/convert.$side" 1) i=$(median "$tmp/inspect.$side" 1)
	printf "  %-4s convert/generate %sx (target within 2x)   inspect %s s (target under 0.7 s on a quiet machine)\n" \
		"$side" "$(ratio "$g" "$c")" "$i"
done
