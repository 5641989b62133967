#!/bin/sh
# bench-objstore.sh: 10M default keys written straight to s3:// on a local MinIO, beside the
# same file written locally, and written locally then uploaded with the same uploader
# (internal/objstore/objupload), RUNS times each, interleaved; prints each run's wall time,
# CPU and peak RSS (GNU time), then the medians and the ratios to the local write.
# Targets (issue 36): s3 within 1.3x of local, faster than local+upload, peak RSS under
# 64 MiB + the part buffers (8 MiB parts, 5 sent at once, up to 11 held).
set -eu
GO=${GO:-go}
RUNS=${RUNS:-3}
KEYS=${KEYS:-10000000}
PORT=${PORT:-9050}
MINIO=${MINIO:-$(command -v minio || echo /opt/rdbgen-cache/bin/minio)}
dir=$(mktemp -d)
export AWS_ACCESS_KEY_ID=rdbgen-bench AWS_SECRET_ACCESS_KEY=rdbgen-bench-secret AWS_REGION=us-east-1
export AWS_ENDPOINT_URL_S3=http://127.0.0.1:$PORT
MINIO_ROOT_USER=$AWS_ACCESS_KEY_ID MINIO_ROOT_PASSWORD=$AWS_SECRET_ACCESS_KEY MINIO_BROWSER=off \
	"$MINIO" server "$dir/minio" --address 127.0.0.1:$PORT --console-address 127.0.0.1:$((PORT + 1)) --quiet &
minio_pid=$!
trap 'kill $minio_pid 2>/dev/null; wait $minio_pid 2>/dev/null; rm -rf "$dir"' EXIT
$GO build -o "$dir/rdbgen" ./cmd/rdbgen
$GO build -o "$dir/objupload" ./internal/objstore/objupload
until curl -sf "$AWS_ENDPOINT_URL_S3/minio/health/ready" >/dev/null; do sleep 0.2; done
curl -sf -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "$AWS_ENDPOINT_URL_S3/bench" >/dev/null
for i in $(seq "$RUNS"); do
	/usr/bin/time -f "local %e s %U user %S sys %M KiB" "$dir/rdbgen" --count "$KEYS" -o "$dir/local.rdb" --force -q 2>>"$dir/times"
	/usr/bin/time -f "upload %e s %U user %S sys %M KiB" "$dir/objupload" "$dir/local.rdb" s3://bench/uploaded.rdb 2>>"$dir/times"
	/usr/bin/time -f "s3 %e s %U user %S sys %M KiB" "$dir/rdbgen" --count "$KEYS" -o s3://bench/direct.rdb --force -q 2>>"$dir/times"
done
cat "$dir/times"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for what in local upload s3; do
	wall=$(grep "^$what " "$dir/times" | awk '{print $2}' | median)
	rss=$(grep "^$what " "$dir/times" | awk '{print int($8/1024)}' | median)
	eval "${what}_wall=$wall"
	echo "$what median: $wall s wall, $rss MiB peak RSS"
done
awk -v l="$local_wall" -v u="$upload_wall" -v s="$s3_wall" 'BEGIN {
	printf "s3/local %.2fx (target <= 1.3x); s3/(local+upload) %.2fx (target < 1)\n", s / l, s / (l + u) }'
