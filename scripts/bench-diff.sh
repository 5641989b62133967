#!/bin/sh
# bench-diff.sh: `rdbgen diff` of two 10M-key dumps (the default dump and its conversion to
# redis-6.2: every key compared, none differing), interleaved with `rdbgen inspect` of one of
# them (one read of one dump, for scale), RUNS times each; prints each run's wall time, user
# and system CPU and peak RSS (GNU time), then the medians. Targets (issue 25): diff under 3 s, 128 MiB.
set -eu
GO=${GO:-go}
RUNS=${RUNS:-3}
KEYS=${KEYS:-10000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
$GO build -o "$dir/rdbgen" ./cmd/rdbgen
"$dir/rdbgen" --count "$KEYS" -o "$dir/a.rdb" -q
"$dir/rdbgen" convert "$dir/a.rdb" -o "$dir/b.rdb" --target redis-6.2 -q
for i in $(seq "$RUNS"); do
	/usr/bin/time -f "inspect %e s %U user %S sys %M KiB" "$dir/rdbgen" inspect "$dir/a.rdb" -q >/dev/null 2>>"$dir/times" || true
	/usr/bin/time -f "diff %e s %U user %S sys %M KiB" "$dir/rdbgen" diff "$dir/a.rdb" "$dir/b.rdb" >/dev/null 2>>"$dir/times"
done
cat "$dir/times"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for what in inspect diff; do
	wall=$(grep "^$what " "$dir/times" | awk '{print $2}' | median)
	cpu=$(grep "^$what " "$dir/times" | awk '{print $4 + $6}' | median)
	rss=$(grep "^$what " "$dir/times" | awk '{print int($8/1024)}' | median)
	echo "$what median: $wall s wall, $cpu s user+sys, $rss MiB peak RSS"
done
