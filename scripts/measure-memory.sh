#!/bin/sh
# Measures the memory estimate against real servers: with "record", first measures every
# recipe of memory/recipes_test.go on the servers built under /opt/redis-versions and
# rewrites memory/testdata/measured.json; then prints, per server and recipe, the estimate,
# the used_memory measured and their ratio (recorded figures, and Debian's redis-server 7.0
# live).
#   scripts/measure-memory.sh [record [SERVER,...]]
# The servers are measured as the estimate claims: started on the file, read once settled,
# minus the same server started on a file of no keys.
set -e
cd "$(dirname "$0")/.."
if [ "$1" = record ]; then
	nice go test ./memory -run 'TestRecordMeasurements$' -record -record-servers "$2" -count=1 -timeout 30m
fi
nice go test ./memory -run 'TestEstimateRecorded$|TestEstimateRecipesLive$' -count=1 -v | grep -E 'ratio [0-9.]+$' | sed 's/^ *[a-z_]*\.go:[0-9]*: //'
