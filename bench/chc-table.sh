#!/bin/sh
# The CHC fixture table: every problem of extra-small-lia (from the shared
# fixtures, not in the repository) through `prove` and, interleaved,
# through Spacer alone, 10 s each; prints the solved table and the time
# ratio. Usage: bench/chc-table.sh [FIXTURE_DIR]
set -e
cd "$(dirname "$0")/.."
if [ -n "$1" ]; then
	FIXTURE_DIR=$(cd "$1" && pwd)
	export FIXTURE_DIR
fi
FIXTURE_TABLE=1 exec go test ./internal/prove -run '^TestFixtureTable$' -v -count 1 -timeout 60m
