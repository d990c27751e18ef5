// Starts what the browser tests need on free 127.0.0.1 ports: the built site (a tiny static
// server), the real backend with the sample book ingested into a temporary data dir, and
// Debian's Chromium through playwright-core. Everything started here is stopped by its pid.
import {spawn, spawnSync} from 'node:child_process';
import {createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {createServer} from 'node:http';
import {createServer as createNetServer} from 'node:net';
import {tmpdir} from 'node:os';
import {dirname, extname, join, normalize, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

export const WEBSITE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = resolve(WEBSITE, '..');
export const ARTIFACTS = join(WEBSITE, 'test-results');
const BOOKCHAT = join(REPO, 'backend', '.venv', 'bin', 'bookchat');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Asks the OS for a free port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createNetServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function log(message) {
  process.stderr.write(`[e2e] ${message}\n`);
}

/** Builds the site with the API URL baked in, unless BOOKCHAT_E2E_BUILD_DIR names a ready build. */
export function buildSite(apiUrl) {
  const ready = process.env.BOOKCHAT_E2E_BUILD_DIR;
  if (ready && existsSync(join(ready, 'index.html')) && bakesApiUrl(ready, apiUrl)) return resolve(ready);
  const out = join(WEBSITE, '.e2e-build');
  log(`building the site for ${apiUrl}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(REPO, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs'), 'build', '--out-dir', out], {
    cwd: WEBSITE,
    env: {...process.env, BOOKCHAT_API_URL: apiUrl, NO_UPDATE_NOTIFIER: '1'},
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`docusaurus build failed:\n${result.stdout}\n${result.stderr}`);
  if (!bakesApiUrl(out, apiUrl)) throw new Error(`the build does not contain ${apiUrl}: customFields.bookchatApiUrl is not wired`);
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

/** True when the built JS bundles carry `apiUrl` (customFields are frozen at build time). */
function bakesApiUrl(dir, apiUrl) {
  const assets = join(dir, 'assets', 'js');
  if (!existsSync(assets)) return false;
  return readdirSync(assets).some((f) => f.endsWith('.js') && readFileSync(join(assets, f), 'utf8').includes(`"${apiUrl}"`));
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
  '.woff2': 'font/woff2',
};

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

/** Serves a static build on 127.0.0.1:port (404.html for unknown paths). */
export function serveStatic(root, port) {
  const server = createServer((req, res) => {
    const file = fileForPath(root, new URL(req.url, 'http://x').pathname);
    const target = file ?? join(root, '404.html');
    res.writeHead(file ? 200 : 404, {'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream'});
    createReadStream(target).pipe(res);
  });
  return new Promise((resolveServer) => server.listen(port, '127.0.0.1', () => resolveServer(server)));
}

/** Runs a bookchat CLI command synchronously with the test's data dir. */
export function bookchat(args, env) {
  if (!existsSync(BOOKCHAT)) throw new Error(`${BOOKCHAT} is missing: install the backend first`);
  return spawnSync(BOOKCHAT, args, {cwd: REPO, env: {...process.env, HF_HUB_OFFLINE: '1', ...env}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
}

/** Ingests the sample book into a fresh data dir and starts `bookchat serve`; resolves once /health answers. */
export async function startBackend({apiPort, siteOrigin}) {
  const dataDir = process.env.BOOKCHAT_E2E_DATA_DIR || mkdtempSync(join(tmpdir(), 'bookchat-e2e-'));
  const env = {
    BOOKCHAT_DATA_DIR: dataDir,
    BOOKCHAT_CORS_ORIGINS: siteOrigin,
    BOOKCHAT_RATE_LIMIT: 'off',
    OPENAI_AGENTS_DISABLE_TRACING: '1',
  };
  log(`ingesting website/docs into ${dataDir}`);
  const ingest = bookchat(['ingest', '--docs', join(WEBSITE, 'docs')], env);
  if (ingest.status !== 0) throw new Error(`bookchat ingest failed:\n${ingest.stdout}\n${ingest.stderr}`);
  const child = spawn(BOOKCHAT, ['serve', '--host', '127.0.0.1', '--port', String(apiPort)], {
    cwd: REPO,
    env: {...process.env, HF_HUB_OFFLINE: '1', ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${apiPort}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bookchat serve exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`bookchat serve did not become healthy in 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    env,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!process.env.BOOKCHAT_E2E_DATA_DIR) rmSync(dataDir, {recursive: true, force: true});
    },
  };
}

/** Launches Debian's Chromium headless through playwright-core (never a downloaded browser). */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (scripts/web.sh test does it)`);
  const {chromium} = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
    ],
  });
}

/** Starts everything; returns handles and a stop() that undoes it all. */
export async function startStack() {
  mkdirSync(ARTIFACTS, {recursive: true});
  const apiPort = Number(process.env.BOOKCHAT_E2E_API_PORT) || (await freePort());
  const sitePort = await freePort();
  const siteOrigin = `http://127.0.0.1:${sitePort}`;
  // BOOKCHAT_E2E_API_URL points the suite at a backend that is already running (debugging only).
  const external = process.env.BOOKCHAT_E2E_API_URL;
  const buildDir = buildSite(external || `http://127.0.0.1:${apiPort}`);
  const backend = external
    ? {url: external, env: {BOOKCHAT_DATA_DIR: process.env.BOOKCHAT_DATA_DIR ?? ''}, stop: async () => undefined}
    : await startBackend({apiPort, siteOrigin});
  const site = await serveStatic(buildDir, sitePort);
  const browser = await launchBrowser();
  return {
    apiUrl: backend.url,
    siteUrl: siteOrigin,
    buildDir,
    backend,
    browser,
    async stop() {
      await browser.close().catch(() => undefined);
      await new Promise((r) => site.close(r));
      site.closeAllConnections?.();
      await backend.stop();
    },
  };
}
