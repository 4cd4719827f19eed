#!/usr/bin/env bash
# The whole test suite, on SQLite and on PostgreSQL side by side (each file gets its own database,
# so the two runs share nothing but the machine); each run's report is printed when it ends.
# PostgreSQL: PARLEY_TEST_DATABASE_URL if set, else a throwaway cluster from scripts/postgres-temp.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob

files=(src/**/*.test.ts test/**/*.test.ts)
npm run build:web --silent # the dashboard the browser tests load
run_suite() {
  node --import tsx --test --test-reporter=spec --test-concurrency=2 "${files[@]}"
}

pg_dir=""
if [ -z "${PARLEY_TEST_DATABASE_URL:-}" ]; then
  read -r pg_dir PARLEY_TEST_DATABASE_URL < <(bash scripts/postgres-temp.sh start 54329)
  trap 'bash scripts/postgres-temp.sh stop "$pg_dir"' EXIT
fi
DATABASE_URL="$PARLEY_TEST_DATABASE_URL" node bin/parley.js migrate >/dev/null

reports=$(mktemp -d)
PARLEY_TEST_DATABASE_URL='' run_suite >"$reports/sqlite" 2>&1 &
sqlite_run=$!
PARLEY_TEST_DATABASE_URL="$PARLEY_TEST_DATABASE_URL" run_suite >"$reports/postgres" 2>&1 &
postgres_run=$!

status=0
wait "$sqlite_run" || status=1
echo "== Tests on SQLite"
cat "$reports/sqlite"
wait "$postgres_run" || status=1
echo "== Tests on PostgreSQL"
cat "$reports/postgres"
rm -rf "$reports"
exit "$status"
