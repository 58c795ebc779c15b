#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the tests on 127.0.0.1:${PGPORT:-55432} and prints its URL.
# Uses Debian's postgresql package (apt-get install postgresql); runs the server as user postgres
# when started as root. Stop it with: scripts/pg-test-server.sh stop [fast|immediate] (immediate: as
# a crash of the server would, for the fault tests). `status` exits 0 while it runs.
set -euo pipefail
PGPORT=${PGPORT:-55432}
PGDATA=${PGDATA:-/tmp/buildcop-pgdata-$PGPORT}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] || { echo "no PostgreSQL server installed (apt-get install postgresql)" >&2; exit 3; }
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
if [ "${1:-}" = status ]; then as_pg "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1 && exit 0 || exit 1; fi
if [ "${1:-}" = stop ]; then as_pg "$PGBIN/pg_ctl -D $PGDATA -m ${2:-fast} -w stop" >/dev/null 2>&1 || true; exit 0; fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$PGDATA"; chmod 700 "$PGDATA"
  as_pg "$PGBIN/initdb -D $PGDATA -U postgres -A trust -E UTF8 --no-locale" >/dev/null
fi
as_pg "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1 ||
  as_pg "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/server.log -w -t 60 -o '-c listen_addresses=127.0.0.1 -p $PGPORT -k /tmp -c fsync=off -c max_connections=200' start" >/dev/null
echo "postgresql://postgres@127.0.0.1:$PGPORT/postgres"
