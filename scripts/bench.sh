#!/usr/bin/env bash
# Run a benchmark in both set-ups and print their figures side by side: the embedded one
# (SQLite and the in-memory channel layer, on a scratch database) and production's
# (PostgreSQL and Redis: throwaway servers started as `make test` starts them,
# scripts/services.sh). The set-ups take turns in both orders (embedded, production,
# production, embedded) so that a drift of the machine falls on both alike; each figure
# printed is the mean of its set-up's two runs.
#
#   scripts/bench.sh move_bench [its options]     (the server CPU of a move: docs/performance.md)
#   scripts/bench.sh page_bench [its options]     (the server CPU of each page)
#   scripts/bench.sh post_ab --before DIR [...]   (a before/after A/B in each set-up)
#
# The last line printed is one JSON object: {"sqlite": ..., "postgresql+redis": ...}.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=.venv/bin/python
. scripts/services.sh

tool=${1:?"usage: scripts/bench.sh move_bench|page_bench|post_ab [options]"}
shift
# Production's runs of post_ab need its --production flag (its servers and databases);
# move_bench and page_bench read the set-up from the environment alone.
production_args=()
case "$tool" in
    move_bench | page_bench) command=("$PYTHON" manage.py "$tool" "$@") ;;
    post_ab) command=("$PYTHON" scripts/post_ab.py "$@"); production_args=(--production) ;;
    *) echo "unknown benchmark: $tool" >&2; exit 2 ;;
esac

start_services
out="$_services_tmp/bench"  # removed with the servers' files when this script exits
mkdir -p "$out"
sqlite=(env -u DATABASE_URL -u REDIS_URL -u REDIS_CACHE_URL "SQLITE_PATH=$out/bench.sqlite3")
"${sqlite[@]}" "$PYTHON" manage.py migrate -v 0
"$PYTHON" manage.py migrate -v 0

for turn in sqlite-1 production-1 production-2 sqlite-2; do
    echo "=== $tool, $turn" >&2
    case "$turn" in
        sqlite-*) "${sqlite[@]}" "${command[@]}" ;;
        production-*) "${command[@]}" "${production_args[@]}" ;;
    esac | tee "$out/$turn.log" >&2
done

"$PYTHON" scripts/side_by_side.py "$out"/sqlite-1.log "$out"/sqlite-2.log -- \
    "$out"/production-1.log "$out"/production-2.log
