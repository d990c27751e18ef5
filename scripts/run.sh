#!/usr/bin/env bash
# make run: build the sample book (every version and locale), ingest that build, then serve the
# API and the built site until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
API_PORT=${BOOKCHAT_PORT:-8000}
SITE_PORT=${SITE_PORT:-3000}
export HF_HUB_OFFLINE=1

echo "==> building the site (versions 2.0 and 1.0, English and French)"
BOOKCHAT_API_URL="http://127.0.0.1:${API_PORT}" scripts/web.sh build >/dev/null

# The theme wrote website/build/bookchat-routes.json and build/fr/bookchat-routes.json: ingest
# reads every doc of every version and locale, with its real URL, from them.
echo "==> ingesting the built book (bookchat ingest --site website)"
backend/.venv/bin/bookchat ingest --site website

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

backend/.venv/bin/bookchat serve --host 127.0.0.1 --port "$API_PORT" &
pids+=($!)
(cd website && exec npx docusaurus serve --host 127.0.0.1 --port "$SITE_PORT" --no-open >/dev/null) &
pids+=($!)

for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:${API_PORT}/health" >/dev/null 2>&1 \
     && curl -fsS "http://127.0.0.1:${SITE_PORT}/" >/dev/null 2>&1; then
    break
  fi
  sleep 0.5
done
cat <<MSG

  bookchat is running
    the book, with its chat:  http://127.0.0.1:${SITE_PORT}/docs/
    the 1.0 edition:          http://127.0.0.1:${SITE_PORT}/docs/1.0/
    in French:                http://127.0.0.1:${SITE_PORT}/fr/docs/
    the API:                  http://127.0.0.1:${API_PORT}/docs
  Edit website/docs, run 'scripts/web.sh build' and 'backend/.venv/bin/bookchat ingest --site website'
  in another terminal: the running server picks the changes up. Ctrl-C stops everything.

MSG
wait -n "${pids[@]}"
