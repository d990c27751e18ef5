// What the browser tests do with the panel: open a page, open the panel, pick a scope, ask.
import {SITE_URL, backendLogTail} from './stack.mjs';

/** Opens a fresh browser context (empty localStorage) and records page errors and API traffic. */
export async function openPage(browser, path, options = {}, siteUrl = SITE_URL) {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}, ...options});
  const page = await context.newPage();
  const errors = [];
  const queries = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => {
    if (request.url().includes('/api/query')) queries.push({url: request.url(), body: request.postDataJSON()});
  });
  await page.goto(siteUrl + path);
  await page.waitForSelector('html[data-has-hydrated="true"]');
  return {page, context, errors, queries};
}

export async function openPanel(page) {
  await page.click('.bookchat-launcher');
  await page.waitForSelector('#bookchat-panel');
  await page.waitForFunction(() => document.activeElement?.classList.contains('bookchat-input'));
}

export async function chooseScope(page, label) {
  await page.click(`.bookchat-scope label:has-text("${label}")`);
}

/** Types a question, sends it with Enter and waits until the answer has finished streaming. */
export async function ask(page, question, logTail = backendLogTail) {
  const before = await page.locator('.bookchat-msg-assistant').count();
  await page.fill('.bookchat-input', question);
  const response = page.waitForResponse((r) => r.url().endsWith('/api/query/stream'));
  await page.press('.bookchat-input', 'Enter');
  const streamed = await response;
  try {
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('.bookchat-msg-assistant:not(.bookchat-msg-pending)').length > n &&
        !document.querySelector('.bookchat-msg-assistant[aria-busy="true"]') &&
        !document.querySelector('.bookchat-msg-pending'),
      before,
      {timeout: 30_000},
    );
  } catch (error) {
    const panel = await page.textContent('#bookchat-panel').catch(() => '(no panel)');
    throw new Error(`no finished answer for "${question}" (HTTP ${streamed.status()}); panel: ${panel}\nbackend log tail: ${logTail(800)}`, {cause: error});
  }
  const last = page.locator('.bookchat-msg-assistant').last();
  return {streamed, last, status: await last.getAttribute('data-status')};
}

/** Opens `path` in a fresh context, opens the panel and asks the whole book `question`. */
export async function askTheBook(browser, question, path = '/docs/') {
  const opened = await openPage(browser, path);
  await openPanel(opened.page);
  await chooseScope(opened.page, 'Whole book');
  return {...opened, ...(await ask(opened.page, question))};
}


/**
 * Clicks a citation link and waits until the page at its path shows its heading in the viewport;
 * returns the heading's tag name (null when the link has no #anchor).
 */
export async function followCitation(page, link) {
  const href = await link.getAttribute('href');
  const [path, hash] = href.split('#');
  await link.click();
  await page.waitForURL((u) => u.pathname.replace(/\/$/, '') === path.replace(/\/$/, '') && u.hash === (hash ? `#${hash}` : ''));
  if (!hash) return null;
  const heading = await page.waitForFunction((id) => {
    const el = document.getElementById(id);
    if (!el || !/^H[1-6]$/.test(el.tagName)) return null;
    const r = el.getBoundingClientRect();
    return r.top >= -2 && r.top < window.innerHeight ? el.tagName : null;
  }, decodeURIComponent(hash));
  return heading.jsonValue();
}

/** The hrefs of an answer's source links. */
export async function citationHrefs(answer) {
  return answer.locator('.bookchat-citation-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
}
