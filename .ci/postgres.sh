#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on 127.0.0.1 for the test suite and print its URL.
# Installs Debian's server package when no server binary is present.
set -euo pipefail
PORT="${SLEUTH_PG_PORT:-54329}"
DATA="${SLEUTH_PG_DATA:-/tmp/sleuth-pg-$PORT}"
bin=""
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && bin="$d"; done
if [ -z "$bin" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && bin="$d"; done
fi
id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if ! as_pg "$bin/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  rm -rf "$DATA"; mkdir -p "$DATA"; chown postgres "$DATA" 2>/dev/null || true
  as_pg "$bin/initdb" -D "$DATA" -U sleuth --auth=trust -E UTF8 >/dev/null
  as_pg "$bin/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w \
    -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
fi
echo "postgresql+psycopg://sleuth@127.0.0.1:$PORT/postgres"
