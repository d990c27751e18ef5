// The theme on a site we did not write: a fresh site from the official classic template, the theme
// installed from its `npm pack` tarball with one config line, built under /textbook/ with trailing
// slashes, ingested by `bookchat ingest --site`, served, and asked a question in Chromium.
// Everything lives in a temporary directory, removed afterwards.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from '@playwright/test';
import {ask, chooseScope, citationHrefs, followCitation, openPage, openPanel} from './panel.mjs';
import {BACKEND_ENV, BOOKCHAT, REPO, freePort} from './stack.mjs';

const CREATE_DOCUSAURUS = 'create-docusaurus@3.10.2';
const BASE_URL = '/textbook/';

let dir = '';
let log = '';
const servers = [];

/** Runs a command to completion, its output appended to the scaffold log (quoted when it fails). */
function run(command, args, cwd, env = {}) {
  try {
    const out = execFileSync(command, args, {cwd, env: {...process.env, CI: 'true', NO_UPDATE_NOTIFIER: '1', npm_config_fund: 'false', npm_config_audit: 'false', ...env}, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024});
    writeFileSync(log, `$ ${command} ${args.join(' ')}\n${out}\n`, {flag: 'a'});
    return out;
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${String(error.stdout ?? '').slice(-1500)}\n${String(error.stderr ?? '').slice(-3000)}`);
  }
}

function replaceOnce(text, search, replacement, what) {
  assert.ok(text.includes(search), `the template no longer has ${what}`);
  return text.replace(search, replacement);
}

async function waitFor(url, seconds) {
  for (let i = 0; i < seconds * 4; i += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${seconds} s; log: ${log}`);
}

function serve(command, args, cwd, env) {
  const child = spawn(command, args, {cwd, env: {...process.env, ...env}, stdio: ['ignore', 'ignore', 'pipe']});
  child.stderr.on('data', (chunk) => writeFileSync(log, chunk, {flag: 'a'}));
  servers.push(child);
}

test.describe('the theme on a fresh classic-template site', () => {
  let siteUrl = '';
  let site = '';
  let config = '';

  test.beforeAll(async () => {
    test.setTimeout(900_000);
    dir = mkdtempSync(join(tmpdir(), 'bookchat-scaffold-'));
    log = join(dir, 'scaffold.log');
    site = join(dir, 'site');
    const [apiPort, sitePort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    siteUrl = `http://127.0.0.1:${sitePort}`;

    // The package exactly as it would be published (prepack builds lib/).
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], join(REPO, 'frontend')));
    run('npx', ['--yes', CREATE_DOCUSAURUS, 'site', 'classic', '--typescript', '--package-manager', 'npm', '--skip-install'], dir);

    const pkgPath = join(site, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
    pkg.dependencies['@bookchat/docusaurus-theme'] = `file:../${packed.filename}`;
    // The template's @docsearch range pulls a release whose own dependency is missing (FACTS.md).
    pkg.overrides = {'@docsearch/react': '4.7.0'};
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));

    const configPath = join(site, 'docusaurus.config.ts');
    config = readFileSync(configPath, 'utf8');
    config = replaceOnce(config, "baseUrl: '/',", `baseUrl: '${BASE_URL}',\n  trailingSlash: true,`, 'baseUrl');
    config = replaceOnce(config, /url: '[^']*',/.exec(config)?.[0] ?? 'url:', "url: 'http://127.0.0.1',", 'url');
    // The one line an author adds.
    config = replaceOnce(config, '  presets: [', `  themes: [['@bookchat/docusaurus-theme', {apiUrl: '${apiUrl}'}]],\n\n  presets: [`, 'presets');
    writeFileSync(configPath, config);

    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], site);
    run('npm', ['run', 'build'], site);
    const env = {...BACKEND_ENV, BOOKCHAT_DATA_DIR: join(dir, 'data'), BOOKCHAT_CORS_ORIGINS: siteUrl};
    run(BOOKCHAT, ['ingest', '--site', site], REPO, env);

    serve(BOOKCHAT, ['serve', '--host', '127.0.0.1', '--port', String(apiPort)], REPO, env);
    serve(process.execPath, [join(site, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs'), 'serve', '--dir', 'build', '--host', '127.0.0.1', '--port', String(sitePort), '--no-open'], site, {});
    await waitFor(`${apiUrl}/health`, 120);
    await waitFor(`${siteUrl}${BASE_URL}`, 60);
  });

  test.afterAll(async () => {
    for (const child of servers) child.kill('SIGTERM');
    await Promise.all(servers.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  test('the panel answers and its citation lands on the exact heading under /textbook/', async ({browser}) => {
    const {page, context, errors, queries} = await openPage(browser, `${BASE_URL}docs/intro/`, {}, siteUrl);
    await openPanel(page);
    await chooseScope(page, 'Whole book');
    const {last, status} = await ask(page, 'How do I create a docs version?', () => readFileSync(log, 'utf8').slice(-800));
    assert.deepEqual([queries.at(-1).body.version, queries.at(-1).body.locale], ['current', 'en']);
    assert.equal(status, 'grounded');
    assert.match(await last.locator('.bookchat-md').textContent(), /docs:version|versioned_docs/);
    const links = await citationHrefs(last);
    assert.ok(links.length > 0 && links.every((h) => /^\/textbook\/docs\/.*\/(#.+)?$/.test(h)), links.join(' '));
    const source = last.locator('.bookchat-citation-link[href*="#"]').first();
    const [path, hash] = (await source.getAttribute('href')).split('#');
    assert.match(await followCitation(page, source), /^H[1-6]$/);
    assert.equal(new URL(page.url()).pathname, path);
    assert.equal(path, '/textbook/docs/tutorial-extras/manage-docs-versions/');
    assert.equal(new URL(page.url()).hash, `#${hash}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a misspelt option fails the build with a message naming it', () => {
    writeFileSync(join(site, 'docusaurus.bad.config.ts'), config.replace("{apiUrl: '", "{apiURL: '"));
    let failure = null;
    try {
      run('npx', ['docusaurus', 'build', '--config', 'docusaurus.bad.config.ts', '--out-dir', 'build-bad'], site);
    } catch (error) {
      failure = String(error.message);
    }
    assert.ok(failure, 'the build succeeded with a misspelt option');
    assert.match(failure, /"apiURL" is not allowed/);
    assert.match(failure, /"apiUrl" is required/);
  });
});
