#!/bin/sh
# bench-load.sh: online loads into a fresh Redis (a new redis-server for each run), RUNS
# rounds, the order alternating each round:
#   strings: `rdbgen load --count 1000000` (the default method, auto) beside
#            `redis-cli --pipe` of the same SETs (written by `rdbgen --format resp`);
#   hashes:  200,000 hashes of 20 fields of 16 random bytes, the default method beside
#            `--method restore`.
# Prints each run's wall time (the whole command) and the server's CPU seconds (INFO cpu,
# user+sys), then the medians and the ratios. Targets (issue 37): strings at least 1.25x
# faster than redis-cli --pipe; hashes at least as fast as restore.
# REDIS_SERVER and REDIS_CLI choose the server (default: the ones on PATH).
set -eu
GO=${GO:-go}
RUNS=${RUNS:-5}
KEYS=${KEYS:-1000000}
HASHES=${HASHES:-200000}
PORT=${PORT:-7399}
SERVER=${REDIS_SERVER:-redis-server}
CLI=${REDIS_CLI:-redis-cli}
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
$GO build -o "$dir/rdbgen" ./cmd/rdbgen
"$dir/rdbgen" --count "$KEYS" --format resp -o "$dir/strings.resp" -q
hashflags="--count $HASHES --type hash --members 20 --value random --value-size 16 --seed 1"

start() {
	"$SERVER" --port "$PORT" --save '' --appendonly no --dir "$dir" --logfile "$dir/server.log" &
	pid=$!
	until "$CLI" -p "$PORT" ping >/dev/null 2>&1; do sleep 0.05; done
}
stop() {
	"$CLI" -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
	wait "$pid" 2>/dev/null || true
	pid=
}
cpu() {
	"$CLI" -p "$PORT" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/ {s += $2} END {printf "%.3f", s}'
}
now() { date +%s.%N; }

# run NAME WANT_KEYS COMMAND...: one measured run into a fresh server.
run() {
	name=$1 want=$2
	shift 2
	start
	c0=$(cpu)
	t0=$(now)
	"$@" >/dev/null
	t1=$(now)
	c1=$(cpu)
	keys=$("$CLI" -p "$PORT" dbsize)
	stop
	if [ "$keys" != "$want" ]; then
		echo "$name: the server holds $keys keys, want $want" >&2
		exit 1
	fi
	echo "$name $(echo "$t1 - $t0" | bc -l) $(echo "$c1 - $c0" | bc -l)" | tee -a "$dir/times"
}

pipe() { "$CLI" -p "$PORT" --pipe <"$dir/strings.resp"; }
auto_strings() { "$dir/rdbgen" load --addr "127.0.0.1:$PORT" --count "$KEYS" -q; }
auto_hashes() { "$dir/rdbgen" load --addr "127.0.0.1:$PORT" $hashflags -q; }
restore_hashes() { "$dir/rdbgen" load --addr "127.0.0.1:$PORT" $hashflags --method restore -q; }

for i in $(seq "$RUNS"); do
	if [ $((i % 2)) = 1 ]; then
		run redis-cli-pipe "$KEYS" pipe
		run auto-strings "$KEYS" auto_strings
		run restore-hashes "$HASHES" restore_hashes
		run auto-hashes "$HASHES" auto_hashes
	else
		run auto-strings "$KEYS" auto_strings
		run redis-cli-pipe "$KEYS" pipe
		run auto-hashes "$HASHES" auto_hashes
		run restore-hashes "$HASHES" restore_hashes
	fi
done
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for what in redis-cli-pipe auto-strings restore-hashes auto-hashes; do
	wall=$(grep "^$what " "$dir/times" | awk '{print $2}' | median)
	scpu=$(grep "^$what " "$dir/times" | awk '{print $3}' | median)
	v=$(echo "$what" | tr - _)
	eval "wall_$v=$wall cpu_$v=$scpu"
	echo "$what median: $wall s wall, $scpu s server CPU"
done
ratio() { echo "$1 / $2" | bc -l | cut -c1-5; }
echo "strings: auto is $(ratio "$wall_redis_cli_pipe" "$wall_auto_strings")x faster than redis-cli --pipe in wall time (target 1.25x), $(ratio "$cpu_redis_cli_pipe" "$cpu_auto_strings")x in server CPU"
echo "hashes: auto is $(ratio "$wall_restore_hashes" "$wall_auto_hashes")x as fast as restore in wall time (target 1x), $(ratio "$cpu_restore_hashes" "$cpu_auto_hashes")x in server CPU"
