#!/usr/bin/env bash
# bench-merge-diff.sh: peak RSS and wall time of `rdbgen merge` and `rdbgen diff` (issue 37:
# bounded memory). For each KEYS count (default "5000000 10000000") it writes two dumps of
# disjoint keys (the default dump, and one with --key-prefix other), then runs RUNS rounds
# (default 3) of, interleaved:
#
#   merge     rdbgen merge a.rdb b.rdb -o m.rdb            two disjoint inputs
#   diff      rdbgen diff a.rdb b.rdb                      every key differs
#   same      rdbgen diff a.rdb a.rdb                      the common case: dumps that agree
#   small     rdbgen merge of two 100k-key dumps           the common case: a small merge
#
# and prints each one's median wall time and median peak RSS (GNU time %M, which counts the
# pages of the binary itself: an rdbgen run on a 10-key dump is printed as "baseline").
# Target: merge and diff at most 64 MiB at every count. With BASE=REV (a git revision) the
# binary of REV runs too, each operation base then head, and the table has both.
#
# Environment: KEYS, RUNS, BASE, BASE_BIN (a binary built before, instead of BASE), GO (go),
# KEEP=1 keeps the temporary directory.
set -euo pipefail
GO=${GO:-go}
RUNS=${RUNS:-3}
KEYS=${KEYS:-5000000 10000000}
BASE=${BASE:-}
LIMIT_KIB=$((64 * 1024))
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
	echo "$0: GNU time (/usr/bin/time -f) not found: apt-get install time" >&2
	exit 1
fi
repo=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-merge-diff.XXXXXX")
cleanup() {
	[ -d "$tmp/src-base" ] && git -C "$repo" worktree remove --force "$tmp/src-base" >/dev/null 2>&1 || true
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sides=head
(cd "$repo" && "$GO" build -o "$tmp/rdbgen-head" ./cmd/rdbgen)
if [ -n "${BASE_BIN:-}" ]; then
	sides="base head"
	cp "$BASE_BIN" "$tmp/rdbgen-base"
elif [ -n "$BASE" ]; then
	sides="base head"
	git -C "$repo" worktree add --quiet --detach "$tmp/src-base" "$(git -C "$repo" rev-parse --verify "$BASE^{commit}")"
	(cd "$tmp/src-base" && "$GO" build -o "$tmp/rdbgen-base" ./cmd/rdbgen)
fi
gen="$tmp/rdbgen-head"
times="$tmp/times"
: >"$times"

# run NAME SIDE ARGS...: one timed run, its line appended to $times.
run() {
	local name=$1 side=$2
	shift 2
	rm -f "$tmp/m.rdb" "$tmp/m.rdb.manifest.json"
	local rc=0
	/usr/bin/time -o "$tmp/one" -f "%e %M" "$tmp/rdbgen-$side" "$@" >/dev/null 2>"$tmp/err" || rc=$?
	# diff exits 1 when the dumps differ; anything else is trouble.
	if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || [ "$1" != diff ]; }; then
		echo "$0: rdbgen $* exited $rc:" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
	echo "$name $side $(tail -n 1 "$tmp/one")" >>"$times"
}

"$gen" --count 10 -o "$tmp/tiny.rdb" -q -f
"$gen" --count 100000 -o "$tmp/s1.rdb" -q
"$gen" --count 100000 --key-prefix other -o "$tmp/s2.rdb" -q
for n in $KEYS; do
	"$gen" --count "$n" -o "$tmp/a.rdb" -q -f
	"$gen" --count "$n" --key-prefix other -o "$tmp/b.rdb" -q -f
	for i in $(seq "$RUNS"); do
		for side in $sides; do
			run "baseline" "$side" inspect "$tmp/tiny.rdb" -q
			run "merge-$n" "$side" merge "$tmp/a.rdb" "$tmp/b.rdb" -o "$tmp/m.rdb" -q
			run "diff-$n" "$side" diff "$tmp/a.rdb" "$tmp/b.rdb" -q
			run "same-$n" "$side" diff "$tmp/a.rdb" "$tmp/a.rdb" -q
			run "small" "$side" merge "$tmp/s1.rdb" "$tmp/s2.rdb" -o "$tmp/m.rdb" -q
		done
	done
done

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
status=0
printf '%-16s %-5s %9s %9s\n' operation side "wall s" "RSS MiB"
for name in $(awk '{print $1}' "$times" | awk '!seen[$0]++'); do
	for side in $sides; do
		wall=$(awk -v n="$name" -v s="$side" '$1 == n && $2 == s {print $3}' "$times" | median)
		rss=$(awk -v n="$name" -v s="$side" '$1 == n && $2 == s {print $4}' "$times" | median)
		printf '%-16s %-5s %9s %9d\n' "$name" "$side" "$wall" $((rss / 1024))
		case $name in merge-* | diff-*)
			if [ "$side" = head ] && [ "$rss" -gt "$LIMIT_KIB" ]; then
				echo "  over the target of 64 MiB" >&2
				status=1
			fi
			;;
		esac
	done
done
exit $status
