#!/usr/bin/env bash
# The whole test suite, on SQLite and on PostgreSQL (each file gets its own database, so runs share
# nothing but the machine), on every Node line in PARLEY_TEST_NODES (paths of node binaries; default:
# the node on PATH). SQLite runs on every line, since its driver is the part that differs between
# them; PostgreSQL on the first line given. The dashboard's browser tests (test/dashboard/) run once
# each, half on either engine: they test the pages, whose endpoints the API tests cover on both engines,
# and they are most of the suite's time (docs/decisions/0138, 0153). The whole suite runs on the first line; a later line runs
# the tests of what a Node line changes (RUNTIME_TESTS below), since the rest would repeat the first
# line's run at the cost of most of CI's time. Two runs go at a time; each run's report is printed when
# all have ended. PostgreSQL: PARLEY_TEST_DATABASE_URL if set, else a throwaway cluster
# from scripts/postgres-temp.sh. The deployment tests (the container image with Podman, nginx in front of
# Parley) run once, on PostgreSQL, beside the last suite run: they test the image and the proxy
# configuration, not a Node line or an engine.
# A hung test must not hang the suite: a test file fails after FILE_TIMEOUT_MS (Node 20 times each file,
# later lines each test), a file whose tests have ended exits though a handle is left open
# (--test-force-exit), and past PARLEY_TEST_BUDGET_MINUTES the runs still going are stopped, the files
# they were running named, and every report printed (CI stops a run at 90 minutes, printing nothing of it).
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob

deployment=(test/container/*.test.ts test/proxy/*.test.ts)
files=()
for file in src/**/*.test.ts test/**/*.test.ts; do
  [[ " ${deployment[*]} " == *" $file "* ]] || files+=("$file")
done
# The browser tests (test/dashboard/) run once each, alternately on PostgreSQL and on SQLite, so the two
# engines' runs take about as long as each other (docs/decisions/0153).
on_postgres=() on_sqlite=()
browser=0
for file in "${files[@]}"; do
  if [[ "$file" != test/dashboard/* ]]; then
    on_postgres+=("$file") on_sqlite+=("$file")
  elif ((browser++ % 2 == 0)); then
    on_postgres+=("$file")
  else
    on_sqlite+=("$file")
  fi
done
# What a Node line can change: the SQLite driver and its worker threads (connections, read pool, checkpoints,
# backups, imports), child processes and signals, the CLI and MCP over stdio, files streamed to disk, TLS
# and HMAC in the webhook path. (test/mcp-inspector.test.ts runs with the whole suite on the first line: the
# official MCP Inspector needs Node 22 or later, which it takes from this process or PARLEY_TEST_NODES.)
RUNTIME_TESTS=(src/db/**/*.test.ts src/backup/**/*.test.ts src/media/**/*.test.ts src/cli/**/*.test.ts
  src/contacts/contact-csv.test.ts src/messages/message.test.ts test/runtime.test.ts test/processes.test.ts
  test/scale-out.test.ts test/upgrade.test.ts test/first-run.test.ts test/readme-quickstart.test.ts
  test/disk-full.test.ts test/mcp.test.ts)
read -r -a nodes <<<"${PARLEY_TEST_NODES:-$(command -v node)}"
npm run build:web --silent # the dashboard the browser tests load

FILE_TIMEOUT_MS=$((15 * 60 * 1000))
budget_minutes=${PARLEY_TEST_BUDGET_MINUTES:-70}

reports=$(mktemp -d)
pg_dir=""
watchdog=""
cleanup() {
  [ -z "$watchdog" ] || kill_tree "$watchdog"
  rm -rf "$reports"
  [ -z "$pg_dir" ] || bash scripts/postgres-temp.sh stop "$pg_dir"
}
trap cleanup EXIT
if [ -z "${PARLEY_TEST_DATABASE_URL:-}" ]; then
  read -r pg_dir PARLEY_TEST_DATABASE_URL < <(bash scripts/postgres-temp.sh start 54329)
fi
DATABASE_URL="$PARLEY_TEST_DATABASE_URL" node bin/parley.js migrate >/dev/null

# run_suite NODE ENGINE REPORT: the suite under one node binary on one engine ("postgres" and "sqlite":
# every API test and half of the browser tests; "sqlite-runtime": RUNTIME_TESTS alone on SQLite, a later
# line's run; "deployment": the deployment tests alone, one file at a time, on PostgreSQL).
run_suite() {
  local database_url="$PARLEY_TEST_DATABASE_URL" concurrency=2 suite=("${on_postgres[@]}")
  case "$2" in
    sqlite) database_url="" suite=("${on_sqlite[@]}") ;;
    sqlite-runtime) database_url="" suite=("${RUNTIME_TESTS[@]}") ;;
    deployment) concurrency=1 suite=("${deployment[@]}") ;;
  esac
  # The node binary's folder first on PATH, so every process a test starts runs the same line.
  PATH="$(dirname "$1"):$PATH" PARLEY_TEST_DATABASE_URL="$database_url" \
    "$1" --import tsx --test --test-reporter=spec --test-concurrency="$concurrency" --test-force-exit \
    --test-timeout="$FILE_TIMEOUT_MS" "${suite[@]}" >"$3" 2>&1
}

descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}
kill_tree() {
  kill $(descendants "$1") "$1" 2>/dev/null || true
}

# stop_overtime SECONDS: after SECONDS, names the test files still running (a file's process ends with
# its path; the runner's own lists them all after --test-reporter) and stops every run.
stop_overtime() {
  sleep "$1"
  {
    echo "== Stopped after $budget_minutes minutes (PARLEY_TEST_BUDGET_MINUTES); the test files still running:"
    ps -o args= -p "$(descendants $$ | paste -sd,)" | grep -v -- --test-reporter |
      grep -oE '[^ ]+\.test\.ts$' | sort -u | sed 's/^/  /'
  } >"$reports/overtime"
  for run in $(pgrep -P $$); do
    [ "$run" = "$BASHPID" ] || kill_tree "$run"
  done
}
stop_overtime $((budget_minutes * 60)) >/dev/null 2>&1 &
watchdog=$!

runs=("${nodes[0]} postgres" "${nodes[0]} sqlite")
for node in "${nodes[@]:1}"; do runs+=("$node sqlite-runtime"); done
runs+=("${nodes[0]} deployment")
status=0
running=0
for i in "${!runs[@]}"; do
  read -r node engine <<<"${runs[$i]}"
  if [ -e "$reports/overtime" ]; then
    echo "not run: the suite's time was up" >"$reports/$i"
    continue
  fi
  run_suite "$node" "$engine" "$reports/$i" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for i in "${!runs[@]}"; do
  read -r node engine <<<"${runs[$i]}"
  echo "== Tests on $engine, Node $("$node" --version)"
  cat "$reports/$i"
done
if [ -e "$reports/overtime" ]; then
  cat "$reports/overtime"
  status=1
fi
exit "$status"
