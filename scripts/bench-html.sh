#!/usr/bin/env bash
# bench-html.sh [BASE_REV]: inspect --html of the default COUNT-key dump beside inspect --json
# (issue 38: within 1.2x in time and peak RSS), and --json --prefixes.
#
# Builds cmd/rdbgen of the working tree (and of BASE_REV, if given, in a detached worktree of
# a temporary directory), writes the dump once, then runs ROUNDS rounds (default 5),
# interleaved, of
#
#   json      rdbgen inspect dump.rdb --json -q
#   html      rdbgen inspect dump.rdb --html report.html -f -q
#   prefixes  rdbgen inspect dump.rdb --json --prefixes -q
#
# for each binary, and prints each one's median wall and user seconds and peak RSS (GNU time),
# and the ratios html/json and prefixes/json; with BASE_REV, also each of head/base.
#
# Environment: ROUNDS (5), COUNT (10000000), GO (go), KEEP=1 keeps the temporary directory.
set -euo pipefail

if [ $# -gt 1 ]; then
	echo "usage: $0 [BASE_REV]" >&2
	exit 2
fi
ROUNDS=${ROUNDS:-5}
COUNT=${COUNT:-10000000}
GO=${GO:-go}
repo=$(git rev-parse --show-toplevel)
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
	echo "$0: GNU time (/usr/bin/time -f) not found: apt-get install time" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-html.XXXXXX")
cleanup() {
	[ -d "$tmp/src-base" ] && git -C "$repo" worktree remove --force "$tmp/src-base" >/dev/null 2>&1 || true
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sides=head
(cd "$repo" && "$GO" build -o "$tmp/rdbgen-head" ./cmd/rdbgen)
if [ $# = 1 ]; then
	sides="base head"
	git -C "$repo" worktree add --detach "$tmp/src-base" "$1" >/dev/null 2>&1
	(cd "$tmp/src-base" && "$GO" build -o "$tmp/rdbgen-base" ./cmd/rdbgen)
fi
"$tmp/rdbgen-head" --count "$COUNT" --base-time 2026-11-29T10:00:00Z -q -o "$tmp/dump.rdb"

ops="json html prefixes"
for round in $(seq "$ROUNDS"); do
	for op in $ops; do
		for side in $sides; do
			case $op in
			json) args=(--json -q) ;;
			html) args=(--html "$tmp/report-$side.html" -f -q) ;;
			prefixes) args=(--json --prefixes -q) ;;
			esac
			/usr/bin/time -a -o "$tmp/$op.$side" -f '%e %U %M' "$tmp/rdbgen-$side" inspect "$tmp/dump.rdb" "${args[@]}" >/dev/null
		done
	done
	echo "round $round of $ROUNDS done" >&2
done

# median FILE COLUMN
median() {
	cut -d' ' -f"$2" "$1" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }

echo "$ROUNDS rounds, interleaved; medians; dump of $COUNT keys ($(stat -c %s "$tmp/dump.rdb") bytes)"
for side in $sides; do
	for op in $ops; do
		printf "%-4s %-8s wall %6s s  user %6s s  peak RSS %8s KiB\n" "$side" "$op" \
			"$(median "$tmp/$op.$side" 1)" "$(median "$tmp/$op.$side" 2)" "$(median "$tmp/$op.$side" 3)"
	done
	for op in html prefixes; do
		printf "%-4s %s/json: wall %sx  user %sx  peak RSS %sx (issue 38: html within 1.2x)\n" "$side" "$op" \
			"$(ratio "$(median "$tmp/$op.$side" 1)" "$(median "$tmp/json.$side" 1)")" \
			"$(ratio "$(median "$tmp/$op.$side" 2)" "$(median "$tmp/json.$side" 2)")" \
			"$(ratio "$(median "$tmp/$op.$side" 3)" "$(median "$tmp/json.$side" 3)")"
	done
done
if [ $# = 1 ]; then
	for op in $ops; do
		printf "head/base %-8s wall %sx  user %sx  peak RSS %sx\n" "$op" \
			"$(ratio "$(median "$tmp/$op.head" 1)" "$(median "$tmp/$op.base" 1)")" \
			"$(ratio "$(median "$tmp/$op.head" 2)" "$(median "$tmp/$op.base" 2)")" \
			"$(ratio "$(median "$tmp/$op.head" 3)" "$(median "$tmp/$op.base" 3)")"
	done
fi
