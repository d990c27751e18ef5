#!/usr/bin/env bash
# Start the local Postgres and Redis the tests use, when they are installed but down.
# Prints what it did; never fails (the tests themselves say what is missing).
set -u
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! up 5432 && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  echo "==> starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
if ! up 6379 && command -v redis-server >/dev/null 2>&1; then
  echo "==> starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
fi
for _ in $(seq 1 20); do
  up 5432 && up 6379 && break
  sleep 0.5
done
exit 0
