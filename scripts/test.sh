#!/usr/bin/env bash
# The whole test suite, once on SQLite and once on PostgreSQL.
# PostgreSQL: PARLEY_TEST_DATABASE_URL if set, else a throwaway cluster from scripts/postgres-temp.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob

files=(src/**/*.test.ts test/**/*.test.ts)
npm run build:web --silent # the dashboard the browser tests load
run_suite() {
  node --import tsx --test --test-reporter=spec --test-concurrency=2 "${files[@]}"
}

echo "== Tests on SQLite"
PARLEY_TEST_DATABASE_URL='' run_suite

pg_dir=""
if [ -z "${PARLEY_TEST_DATABASE_URL:-}" ]; then
  read -r pg_dir PARLEY_TEST_DATABASE_URL < <(bash scripts/postgres-temp.sh start 54329)
  export PARLEY_TEST_DATABASE_URL
  trap 'bash scripts/postgres-temp.sh stop "$pg_dir"' EXIT
fi
echo "== Tests on PostgreSQL"
DATABASE_URL="$PARLEY_TEST_DATABASE_URL" node bin/parley.js migrate >/dev/null
run_suite
