#!/usr/bin/env bash
# Builds the local test image rdbgen-test/redis:7.0 (or $REDIS_IMAGE) FROM scratch
# out of this machine's redis-server, from Debian's package, and the shared
# libraries it links. No registry is reachable here, so the official image
# cannot be pulled; this one behaves like it for our tests: redis-server in
# PATH, data directory and working directory /data, user redis (uid 999) who
# owns /data, no configuration file.
#
# Usage: scripts/redis-image.sh   (make redis-image)
# Re-running is quick: the image is labelled with a hash of its inputs and is
# rebuilt only when they change.
set -euo pipefail

tag=${REDIS_IMAGE:-rdbgen-test/redis:7.0}

bin=$(command -v redis-server) || {
	echo "redis-image: redis-server not found (apt-get install -y redis-server)" >&2
	exit 1
}
# Debian's /usr/bin/redis-server is a symlink to redis-check-rdb: one binary
# that acts as the name it is run by. It goes into the image as redis-server.
real=$(readlink -f "$bin")

# Every library ldd lists, with the dynamic loader ("/lib64/ld-linux-x86-64.so.2
# (0x...)"); linux-vdso has no file.
mapfile -t libs < <(ldd "$real" | awk '$2 == "=>" && $3 ~ /^\// { print $3; next } $1 ~ /^\// { print $1 }')
if [ "${#libs[@]}" -eq 0 ]; then
	echo "redis-image: ldd listed no libraries for $real" >&2
	exit 1
fi

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
root=$ctx/rootfs
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp" "$ctx/data"
chmod 1777 "$root/tmp"
cp "$real" "$root/usr/local/bin/redis-server"
for lib in "${libs[@]}"; do
	cp -L --parents "$lib" "$root"
done
cat >"$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
redis:x:999:999:redis:/data:/sbin/nologin
PASSWD
cat >"$root/etc/group" <<'GROUP'
root:x:0:
redis:x:999:
GROUP
cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY rootfs/ /
COPY --chown=999:999 data/ /data/
ENV PATH=/usr/local/bin:/usr/bin:/bin
WORKDIR /data
USER 999:999
EXPOSE 6379
CMD ["redis-server"]
DOCKERFILE

inputs=$(cd "$ctx" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
have=$(docker image inspect --format '{{ index .Config.Labels "rdbgen.inputs" }}' "$tag" 2>/dev/null || true)
if [ "$have" = "$inputs" ]; then
	echo "redis-image: $tag is up to date"
	exit 0
fi

echo "redis-image: building $tag from $real ($("$bin" --version | cut -d' ' -f3))"
# The classic builder: this needs no buildx plugin, and a FROM scratch image
# gains nothing from BuildKit.
if ! out=$(DOCKER_BUILDKIT=0 docker build --label "rdbgen.inputs=$inputs" --tag "$tag" "$ctx" 2>&1); then
	echo "$out" >&2
	exit 1
fi
docker run --rm "$tag" redis-server --version
