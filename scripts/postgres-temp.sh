#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback and prints its DIR and URL; `stop DIR` stops it.
#   start [PORT]          for tests: no fsync, no synchronous commit (a crash loses nothing a test needs)
#   start PORT durable    for benchmarks: PostgreSQL's own durability settings, as a deployment runs
#   pause DIR             stops the server (fast: sessions are ended, as in a restart) and keeps its data
#   resume DIR            starts a paused server again with the options it was started with
# Used by scripts/test.sh and the benchmarks. Runs the server as the `postgres` user when root.
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL server binaries not found (install Debian's postgresql package)" >&2
  exit 1
fi

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "${1:-}" = stop ]; then
  as_pg "$bindir/pg_ctl" -D "$2/data" -m fast stop >/dev/null
  rm -rf "$2"
  exit 0
fi

if [ "${1:-}" = pause ]; then
  as_pg "$bindir/pg_ctl" -D "$2/data" -m fast -w stop >/dev/null
  exit 0
fi

if [ "${1:-}" = resume ]; then
  as_pg "$bindir/pg_ctl" -D "$2/data" -l "$2/log" -w -o "$(cat "$2/options")" start >/dev/null
  exit 0
fi

port=${2:-54329}
durability="-c fsync=off -c synchronous_commit=off"
[ "${3:-}" = durable ] && durability=""
dir=$(mktemp -d /tmp/parley-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_pg "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
echo "-c listen_addresses=127.0.0.1 -p $port -k $dir $durability -c max_connections=200" >"$dir/options"
as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
"$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres parley
echo "$dir postgres://postgres@127.0.0.1:$port/parley"
