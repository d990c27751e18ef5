#!/usr/bin/env bash
# The web half of bookchat: the theme package @bookchat/docusaurus-theme (frontend/), the
# Docusaurus site that uses it (website/) and the authors' insights page (insights/, served by the
# API at /insights).
#   scripts/web.sh install   npm ci when node_modules is missing or older than the lockfile, then
#                            the insights page when it is missing or older than its sources
#   scripts/web.sh insights  build the insights page into backend/src/bookchat/api/insights_page
#   scripts/web.sh theme     build the theme package (frontend/lib: what `npm pack` ships)
#   scripts/web.sh test      unit tests + typecheck + build + browser tests (needs the backend venv)
#   scripts/web.sh build     static site into website/build (BOOKCHAT_API_URL, default http://127.0.0.1:8000)
#   scripts/web.sh serve     build, then serve it on 127.0.0.1:3000 (PORT to change)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# The browser tests run Debian's chromium: nothing may fetch a browser build of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

INSIGHTS_PAGE=backend/src/bookchat/api/insights_page

deps() {
  if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
}

install() {
  deps
  if [ ! -f "$INSIGHTS_PAGE/index.html" ] || [ -n "$(find insights/src insights/index.html insights/vite.config.ts insights/package.json package-lock.json -newer "$INSIGHTS_PAGE/index.html" -print -quit)" ]; then
    insights
  fi
}

# The page the API serves at /insights: built into the backend package (git ignores the folder).
insights() {
  npm run --silent build --workspace @bookchat/insights -- --logLevel warn
}

ensure_chromium() {
  if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
    echo "web.sh: installing Debian's chromium for the browser tests" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
}

# The site uses the theme as an installed package would: from its built lib/, never its source.
theme() {
  npm run --silent build --workspace @bookchat/docusaurus-theme
}

build() {
  install
  theme
  npm run build --workspace website
}

# Playwright Test (website/playwright.config.mjs) starts the backend and serves the build itself;
# it ends with the plain "N passed, N failed" line and a non-zero exit when a test failed.
e2e() {
  npm run --silent test:e2e --workspace website -- "$@"
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

test_all() {
  install
  local status=0
  echo "== theme unit tests (vitest)"
  npm run --silent test --workspace @bookchat/docusaurus-theme || status=1
  echo "== insights page unit tests (vitest)"
  npm run --silent test --workspace @bookchat/insights || status=1
  echo "== typecheck"
  npm run --silent typecheck --workspace @bookchat/docusaurus-theme || status=1
  npm run --silent typecheck --workspace @bookchat/insights || status=1
  npm run --silent typecheck --workspace website || status=1
  echo "== theme package build (tsc -> frontend/lib)"
  theme || { echo "web.sh: theme build failed" >&2; echo "0 passed, 1 failed"; return 1; }
  echo "== build (for the browser tests: the API URL is baked in at build time)"
  local api_port started
  api_port="$(free_port)"
  started=$(date +%s)
  if (cd website && BOOKCHAT_API_URL="http://127.0.0.1:${api_port}" npx docusaurus build --out-dir .e2e-build); then
    echo "web.sh: build took $(( $(date +%s) - started )) s"
  else
    echo "web.sh: build failed" >&2
    echo "0 passed, 1 failed"
    return 1
  fi
  echo "== browser tests (Playwright)"
  ensure_chromium
  BOOKCHAT_E2E_API_PORT="$api_port" BOOKCHAT_E2E_BUILD_DIR="$ROOT/website/.e2e-build" e2e || status=1
  return $status
}

serve() {
  BOOKCHAT_API_URL="${BOOKCHAT_API_URL:-http://127.0.0.1:8000}" build
  cd website
  # exec node itself (not npm/npx) so that stopping this pid stops the server.
  exec node ../node_modules/@docusaurus/core/bin/docusaurus.mjs serve --host 127.0.0.1 --port "${PORT:-3000}" --no-open
}

case "${1:-}" in
  install) install ;;
  insights) deps; insights ;;
  test) test_all ;;
  theme) install; theme ;;
  unit) install; npm run --silent test --workspace @bookchat/docusaurus-theme ;;
  e2e) install; theme; ensure_chromium; shift; e2e "$@" ;;
  build) build ;;
  serve) serve ;;
  *) echo "usage: $0 {install|insights|theme|test|unit|e2e|build|serve}" >&2; exit 2 ;;
esac
