# make-dump.sh: sourced by the testdata make.sh scripts. make_dump COMMANDS OUT [SERVER ARGS...]
# starts the local redis-server empty on a unix socket (with the server args), fills it by
# redis-cli --pipe with the lines of COMMANDS that are not comments, SAVEs, and copies the
# dump to OUT. A command that fails, or a server that does not answer, exits 1.

make_dump() {
	local commands=$1 dest=$2
	shift 2
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
	reply=$(grep -v '^#' "$commands" | redis-cli -s "$work/redis.sock" --pipe 2>&1)
	case $reply in
	*"errors: 0,"*) ;;
	*)
		echo "make.sh: $dest: a command failed: $reply" >&2
		kill "$pid"
		exit 1
		;;
	esac
	redis-cli -s "$work/redis.sock" SAVE >/dev/null
	redis-cli -s "$work/redis.sock" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
	wait "$pid" || true
	cp "$work/dump.rdb" "$dest"
	rm -rf "$work"
}
