#!/usr/bin/env bash
# Sourced by .ci/run: installs Debian's PostgreSQL 15 when missing, starts a throwaway cluster
# (initdb in a temp folder, a free loopback port, trust auth for user cairn) stopped at exit,
# and exports CAIRN_TEST_PG_URL so the suite runs on both backends.
PGBIN=/usr/lib/postgresql/15/bin
if [ ! -x "$PGBIN/initdb" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends postgresql-15 >/dev/null 2>&1 ||
    { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends postgresql-15 >/dev/null 2>&1; } ||
    echo "== could not install postgresql-15"
fi
if [ ! -x "$PGBIN/initdb" ]; then
  echo "== no PostgreSQL 15 server binaries: the PostgreSQL suites cannot run"
  exit 1
fi
pg_dir="$(mktemp -d /tmp/cairn-ci-pg.XXXXXX)"
pg_port="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
# initdb refuses to run as root: the cluster belongs to an unprivileged user.
pg_as() { if [ "$(id -u)" = 0 ]; then su -s /bin/sh nobody -c "$*"; else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown nobody "$pg_dir"
pg_as "$PGBIN/initdb -D $pg_dir/data -A trust -U cairn -E UTF8 --locale=C >$pg_dir/initdb.log 2>&1"
pg_as "$PGBIN/pg_ctl -D $pg_dir/data -w -l $pg_dir/server.log -o '-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off' start >/dev/null"
trap 'pg_as "$PGBIN/pg_ctl -D $pg_dir/data -m immediate stop" >/dev/null 2>&1; rm -rf "$pg_dir"' EXIT
export CAIRN_TEST_PG_URL="postgres://cairn@127.0.0.1:$pg_port/postgres"
echo "== PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port"
