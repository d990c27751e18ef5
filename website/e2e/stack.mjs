// Where the browser tests find what playwright.config.mjs starts: the built site, the real
// backend with the sample book ingested, and Debian's Chromium. Playwright loads this module in
// its runner and again in every worker, so each choice made here (free ports) is remembered in
// an environment variable that the workers inherit: all of them see the same stack.
import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {createServer} from 'node:net';
import {dirname, join, normalize, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

export const WEBSITE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = resolve(WEBSITE, '..');
/** Screenshots and the backend's data and log (Playwright's own output goes below it). */
export const ARTIFACTS = join(WEBSITE, 'test-results');
export const BOOKCHAT = join(REPO, 'backend', '.venv', 'bin', 'bookchat');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const DOCUSAURUS = join(REPO, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');

/** Asks the OS for a free port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function remembered(name, choose) {
  process.env[name] ||= String(await choose());
  return process.env[name];
}

const apiPort = await remembered('BOOKCHAT_E2E_API_PORT', freePort);
const sitePort = await remembered('BOOKCHAT_E2E_SITE_PORT', freePort);

export const SITE_URL = `http://127.0.0.1:${sitePort}`;
/** BOOKCHAT_E2E_API_URL points the suite at a backend that is already running (debugging only). */
export const EXTERNAL_API_URL = process.env.BOOKCHAT_E2E_API_URL || '';
export const API_URL = EXTERNAL_API_URL || `http://127.0.0.1:${apiPort}`;
/** A ready build (scripts/web.sh test makes one) is used when it carries API_URL; else one is built. */
export const BUILD_DIR = resolve(process.env.BOOKCHAT_E2E_BUILD_DIR || join(WEBSITE, '.e2e-build'));
/** BOOKCHAT_E2E_DATA_DIR keeps the index between runs; by default each run ingests afresh. */
export const KEEP_DATA_DIR = Boolean(process.env.BOOKCHAT_E2E_DATA_DIR);
export const DATA_DIR = process.env.BOOKCHAT_E2E_DATA_DIR || join(ARTIFACTS, 'backend-data');
export const BACKEND_LOG = join(ARTIFACTS, 'backend.log');

/** The environment of the backend under test (and of the CLI commands the tests run). */
export const BACKEND_ENV = EXTERNAL_API_URL
  ? {BOOKCHAT_DATA_DIR: process.env.BOOKCHAT_DATA_DIR ?? ''}
  : {
      BOOKCHAT_DATA_DIR: DATA_DIR,
      BOOKCHAT_CORS_ORIGINS: SITE_URL,
      BOOKCHAT_RATE_LIMIT: 'off',
      HF_HUB_OFFLINE: '1',
      OPENAI_AGENTS_DISABLE_TRACING: '1',
    };

/** True when the built JS bundles carry `apiUrl` (the theme's options are frozen at build time). */
export function bakesApiUrl(dir, apiUrl) {
  const assets = join(dir, 'assets', 'js');
  if (!existsSync(join(dir, 'index.html')) || !existsSync(assets)) return false;
  return readdirSync(assets).some((f) => f.endsWith('.js') && readFileSync(join(assets, f), 'utf8').includes(`"${apiUrl}"`));
}

/** Maps a URL path to the built file Docusaurus wrote for it, or null. */
export function fileForPath(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split(/[?#]/)[0]);
  } catch {
    return null;
  }
  const base = normalize(join(root, path));
  if (!base.startsWith(root)) return null;
  for (const candidate of [base, join(base, 'index.html'), `${base.replace(/\/$/, '')}.html`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Runs a bookchat CLI command synchronously against the backend's data dir. */
export function bookchat(args) {
  if (!existsSync(BOOKCHAT)) throw new Error(`${BOOKCHAT} is missing: install the backend first`);
  return spawnSync(BOOKCHAT, args, {cwd: REPO, env: {...process.env, ...BACKEND_ENV}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
}

/** The end of the backend's log, for failure messages. */
export function backendLogTail(chars = 800) {
  try {
    return readFileSync(BACKEND_LOG, 'utf8').slice(-chars);
  } catch {
    return '(no backend log)';
  }
}
