// Browser tests: Playwright Test drives Debian's Chromium (never a downloaded browser) against
// the built site and the real backend, both started here as Playwright web servers on free
// 127.0.0.1 ports. `scripts/web.sh test` builds the site first; without a build this builds it
// (before the servers start: the backend ingests the build's route manifests).
import {defineConfig} from '@playwright/test';
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {dirname} from 'node:path';
import {
  API_URL,
  BACKEND_ENV,
  BACKEND_LOG,
  BOOKCHAT,
  BUILD_DIR,
  CHROMIUM,
  DATA_DIR,
  DOCUSAURUS,
  EXTERNAL_API_URL,
  KEEP_DATA_DIR,
  REPO,
  SITE_URL,
  WEBSITE,
  bakesApiUrl,
} from './e2e/stack.mjs';

if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (scripts/web.sh test does it)`);

if (!bakesApiUrl(BUILD_DIR, API_URL)) {
  const built = spawnSync(process.execPath, [DOCUSAURUS, 'build', '--out-dir', BUILD_DIR], {
    cwd: WEBSITE,
    env: {...process.env, BOOKCHAT_API_URL: API_URL, NO_UPDATE_NOTIFIER: '1'},
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`docusaurus build failed (exit ${built.status})`);
}

const q = (value) => `'${String(value).replaceAll("'", `'\\''`)}'`;
const sitePort = new URL(SITE_URL).port;

// The backend's output goes to a log (the tests quote its tail when an answer does not come):
// printed as it runs, one line per request would bury the test report.
const backend = {
  command: [
    `mkdir -p ${q(dirname(BACKEND_LOG))}`,
    ...(KEEP_DATA_DIR ? [] : [`rm -rf ${q(DATA_DIR)}`]),
    // Every version and locale, with the permalinks the build's route manifests list.
    `${q(BOOKCHAT)} ingest --site ${q(WEBSITE)} --build-dir ${q(BUILD_DIR)} >${q(BACKEND_LOG)} 2>&1 || { tail -n 40 ${q(BACKEND_LOG)} >&2; exit 1; }`,
    `exec ${q(BOOKCHAT)} serve --host 127.0.0.1 --port ${new URL(API_URL).port} >>${q(BACKEND_LOG)} 2>&1`,
  ].join(' && '),
  cwd: REPO,
  env: BACKEND_ENV,
  url: `${API_URL}/health`,
  timeout: 180_000,
  gracefulShutdown: {signal: 'SIGTERM', timeout: 5_000},
};

// `docusaurus serve` serves the build as a host would (clean URLs, 404.html), node itself run so
// that stopping it stops the server.
const serve = `exec node ${q(DOCUSAURUS)} serve --dir ${q(BUILD_DIR)} --host 127.0.0.1 --port ${sitePort} --no-open`;
const site = {
  command: serve,
  cwd: WEBSITE,
  env: {BOOKCHAT_API_URL: API_URL, NO_UPDATE_NOTIFIER: '1'},
  url: SITE_URL,
  timeout: 180_000,
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.e2e.test.mjs',
  outputDir: 'test-results/playwright',
  // One backend and one conversation store: the tests run in order, one at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 180_000,
  globalTimeout: 1_200_000,
  reporter: [['list'], ['./e2e/summary-reporter.mjs']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Without it Chromium still resolves Google hosts: only the loopback is reachable.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
      ],
    },
  },
  webServer: EXTERNAL_API_URL ? [site] : [backend, site],
});
