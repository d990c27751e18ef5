// The authors' insights page (/insights on the API) in Chromium, over questions seeded into the
// running backend's conversation store by backend/tests/insights_data.py: the token once, the
// seeded counts in the charts' tables, a gap's link into the book, a wrong token's message.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from '@playwright/test';
import {API_URL, ARTIFACTS, BACKEND_ENV, DATA_DIR, REPO, SITE_URL} from './stack.mjs';

const PYTHON = join(REPO, 'backend', '.venv', 'bin', 'python');
// The seed's newest day is this many days ago: other tests' questions (today's) stay outside
// the period the page is asked about.
const DAYS_AGO = 4;
const SCRIPT = '<script>window.__pwned = 1</script><b>How do I rebase onto main?</b>';

function day(daysAgo) {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d.toISOString().slice(0, 10);
}

const SINCE = day(DAYS_AGO + 6);
const UNTIL = day(DAYS_AGO);
let token = '';

// Once per run: Playwright runs beforeAll again in the worker that replaces a failed one.
test.beforeAll(async () => {
  token = JSON.parse(readFileSync(join(DATA_DIR, 'server.json'), 'utf8')).token;
  assert.ok(token, 'bookchat serve wrote no admin token');
  const url = `${API_URL}/api/admin/insights?since=${SINCE}&until=${UNTIL}`;
  const before = await (await fetch(url, {headers: {Authorization: `Bearer ${token}`}})).json();
  if (before.totals.asked > 0) return;
  const seeded = spawnSync(PYTHON, ['-m', 'tests.insights_data', DATA_DIR, '--days-ago', String(DAYS_AGO)], {
    cwd: join(REPO, 'backend'),
    env: {...process.env, ...BACKEND_ENV},
    encoding: 'utf8',
  });
  assert.equal(seeded.status, 0, `seeding failed: ${seeded.stderr}`);
});

/** A fresh context on the insights page, recording page errors and every request URL. */
async function openInsights(browser, options = {}) {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}, acceptDownloads: true, ...options});
  const page = await context.newPage();
  const errors = [];
  const urls = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('request', (request) => urls.push(request.url()));
  await page.goto(`${API_URL}/insights`);
  await page.waitForSelector('#token');
  return {context, page, errors, urls};
}

async function signIn(page, withToken) {
  await page.fill('#token', withToken);
  await page.click('button:has-text("Open insights")');
}

/** Signs in and shows the seeded period. */
async function showSeededPeriod(page) {
  await signIn(page, token);
  await page.waitForSelector('form.filters');
  await page.fill('#filter-since', SINCE);
  await page.fill('#filter-until', UNTIL);
  const loaded = page.waitForResponse((r) => r.url().includes('/api/admin/insights') && r.url().includes(`until=${UNTIL}`));
  await page.click('form.filters button[type="submit"]');
  assert.equal((await loaded).status(), 200);
  await page.waitForFunction((until) => document.querySelector('#filter-until')?.value === until && !document.querySelector('[aria-busy="true"]'), UNTIL);
}

/** A table's body as rows of cell texts. */
async function rows(page, testId) {
  return page.locator(`[data-testid="${testId}"] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
}

test.describe('the insights page', () => {
  test('asks for the token once, then shows the seeded counts in the charts\u2019 tables, questions as text', async ({browser}) => {
    const {context, page, errors, urls} = await openInsights(browser);
    await showSeededPeriod(page);

    assert.equal(await page.locator('.tile:has(dt:text-is("Questions")) .big').textContent(), '7');
    assert.deepEqual(await rows(page, 'days-table'), [
      [day(DAYS_AGO + 1), '4', '2', '2', '0'],
      [UNTIL, '3', '2', '1', '1'],
    ]);
    const chapters = await rows(page, 'chapters-table');
    assert.deepEqual(chapters.map((r) => r[1]), ['3', '2', '2']);
    assert.deepEqual(chapters[0].slice(2), ['100%', '0%', '0']);
    const gaps = await rows(page, 'gaps-table');
    assert.deepEqual(gaps.map((r) => r.slice(1, 4)), [['2', '2', '0'], ['1', '1', '0'], ['1', '0', '1']]);
    assert.match(gaps[0][0], /^How do I sign commits with GPG\?/);
    assert.deepEqual((await rows(page, 'rated-down-table')).map((r) => [r[1], r[4]]), [['What does git reset --hard do?', 'too vague']]);
    assert.equal((await rows(page, 'cited-table'))[0][1], '3');

    // The question holding HTML is shown as its characters, and nothing in it ran.
    const shown = page.locator('[data-testid="gaps-table"] .question', {hasText: 'window.__pwned'});
    assert.equal(await shown.textContent(), SCRIPT);
    assert.equal(await page.locator('main script, main b').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);

    // Each chart's table downloads as CSV.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="days-table"]').locator('xpath=../..').getByRole('button', {name: /Download CSV/}).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    assert.match(csv, /Day,Asked,Answered,Declined,Rated down\r\n/);
    assert.ok(csv.includes(`${UNTIL},3,2,1,1`), csv);

    // The token went in a header, never a URL; the tab keeps it, so a reload asks for nothing.
    assert.ok(urls.every((u) => !u.includes(token)), 'the token appeared in a URL');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('bookchat-insights-token')), token);
    await page.reload();
    await page.waitForSelector('[data-testid="days-table"]');
    assert.equal(await page.locator('#token').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a gap links to the section of the book where its answer belongs', async ({browser}) => {
    const {context, page, errors} = await openInsights(browser);
    await showSeededPeriod(page);
    const link = page.locator('[data-testid="gaps-table"] tbody tr').first().locator('.section-link a');
    const href = await link.getAttribute('href');
    assert.ok(href.startsWith(`${SITE_URL}/docs/`), href);
    const [book] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await book.waitForLoadState();
    const target = new URL(href);
    assert.equal(new URL(book.url()).pathname.replace(/\/$/, ''), target.pathname.replace(/\/$/, ''));
    if (target.hash) {
      const heading = await book.waitForFunction((id) => {
        const el = document.getElementById(id);
        return el && /^H[1-6]$/.test(el.tagName) && el.getBoundingClientRect().top < window.innerHeight ? el.tagName : null;
      }, decodeURIComponent(target.hash.slice(1)));
      assert.match(await heading.jsonValue(), /^H[1-6]$/);
    } else {
      assert.ok(await book.locator('article h1').isVisible());
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a wrong token is refused with a clear message and not kept', async ({browser}) => {
    const {context, page} = await openInsights(browser);
    await signIn(page, 'not-the-token');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), /refused: it is not this server.s admin token/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('bookchat-insights-token')), null);
    assert.equal(await page.locator('[data-testid="days-table"]').count(), 0);
    await context.close();
  });

  test('light and dark, laptop and phone', async ({browser}) => {
    const laptop = {width: 1280, height: 900};
    const phone = {width: 390, height: 844};
    for (const [name, scheme, viewport] of [['light', 'light', laptop], ['dark', 'dark', laptop], ['phone-dark', 'dark', phone]]) {
      const {context, page, errors} = await openInsights(browser, {colorScheme: scheme, viewport});
      await showSeededPeriod(page);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, scheme === 'dark' ? 'rgb(22, 24, 29)' : 'rgb(246, 247, 249)');
      // Nothing wider than the screen: tables scroll inside their own boxes.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'the page scrolls sideways');
      await page.screenshot({path: join(ARTIFACTS, `insights-${name}.png`), fullPage: true});
      assert.deepEqual(errors, []);
      await context.close();
    }
  });
});
