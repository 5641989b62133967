#!/bin/sh
# bench-live.sh: a live server to a file (issue 26). A redis-server holding KEYS keys (10M, the
# default dataset, loaded from a dump rdbgen writes) is read RUNS times each, interleaved:
#
#   convert  rdbgen convert redis://127.0.0.1:PORT -o x.rdb   as a replica (--via sync)
#   rdb      redis-cli -p PORT --rdb y.rdb                    the server's snapshot to a file
#   bgsave   BGSAVE, then INFO persistence polled until done  the server's own save alone
#
# It prints each run's wall time, then the medians and the ratios of convert to redis-cli --rdb
# (target, issue 26: 1.5 or below) and to BGSAVE. The server runs with its defaults (7.0:
# repl-diskless-sync yes, so both readers get the snapshot as the server writes it).
set -eu
GO=${GO:-go}
RUNS=${RUNS:-3}
KEYS=${KEYS:-10000000}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
REDIS_CLI=${REDIS_CLI:-redis-cli}
PORT=${PORT:-$((20000 + $$ % 20000))}
dir=$(mktemp -d)
cleanup() {
	"$REDIS_CLI" -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
$GO build -o "$dir/rdbgen" ./cmd/rdbgen
"$dir/rdbgen" --count "$KEYS" -o "$dir/dump.rdb" -q
"$REDIS_SERVER" --port "$PORT" --dir "$dir" --dbfilename dump.rdb --save "" --appendonly no \
	--daemonize yes --logfile "$dir/redis.log" --pidfile "$dir/redis.pid"
until [ "$("$REDIS_CLI" -p "$PORT" ping 2>/dev/null)" = PONG ]; do sleep 0.2; done
echo "server on port $PORT holds $("$REDIS_CLI" -p "$PORT" dbsize) keys"
now() { date +%s.%N; }
took() { echo "$1 $(echo "$(now) - $2" | bc)" >>"$dir/times"; }
for i in $(seq "$RUNS"); do
	t=$(now)
	"$dir/rdbgen" convert "redis://127.0.0.1:$PORT" -o "$dir/x.rdb" -f -q >/dev/null
	took convert "$t"
	t=$(now)
	"$REDIS_CLI" -p "$PORT" --rdb "$dir/y.rdb" >/dev/null 2>&1
	took rdb "$t"
	t=$(now)
	"$REDIS_CLI" -p "$PORT" bgsave >/dev/null
	until "$REDIS_CLI" -p "$PORT" info persistence | grep -q '^rdb_bgsave_in_progress:0'; do sleep 0.02; done
	took bgsave "$t"
	rm -f "$dir/x.rdb" "$dir/y.rdb"
done
cat "$dir/times"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for what in convert rdb bgsave; do
	eval "m_$what=$(grep "^$what " "$dir/times" | awk '{print $2}' | median)"
done
echo "median wall: convert $m_convert s, redis-cli --rdb $m_rdb s, BGSAVE $m_bgsave s"
echo "convert / redis-cli --rdb: $(echo "scale=2; $m_convert / $m_rdb" | bc)x (target <= 1.5x)"
echo "convert / BGSAVE: $(echo "scale=2; $m_convert / $m_bgsave" | bc)x"
