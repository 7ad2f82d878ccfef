#!/bin/sh
# make bench: every benchmark script here, one after the other (they measure ratios side by
# side within their own run, so the order does not matter).
set -u
cd "$(dirname "$0")/../.." || exit 2
status=0
for b in tests/bench/*.sh; do
    [ "$b" = tests/bench/run.sh ] && continue
    echo "== $b"
    sh "$b" || status=1
done
exit $status
