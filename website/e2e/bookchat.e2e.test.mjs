// Browser tests of the built site against the real backend (playwright.config.mjs starts both).
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from '@playwright/test';
import {colors, contrast, luminance} from './colors.mjs';
import {ask, askTheBook, chooseScope, followCitation, openPage, openPanel} from './panel.mjs';
import {API_URL, ARTIFACTS, BUILD_DIR, SITE_URL, bookchat, fileForPath} from './stack.mjs';

let chapters = [];

test.beforeAll(async () => {
  chapters = await (await fetch(`${API_URL}/api/chapters`)).json();
  assert.ok(Array.isArray(chapters) && chapters.length > 0, `GET /api/chapters returned ${JSON.stringify(chapters)}`);
});

/** A request body minus the conversation id, which follow-up questions carry. */
function withoutConversation(body) {
  const {conversation_id: _ignored, ...rest} = body;
  return rest;
}

function pageUrl(predicate) {
  for (const chapter of chapters) for (const p of chapter.pages) if (predicate(p, chapter)) return {page: p, chapter};
  throw new Error('no such page in /api/chapters');
}

/** Opens the first page matching `pathPattern` with the panel open in its chapter's scope. */
async function openInChapter(browser, pathPattern) {
  const {page: doc, chapter} = pageUrl((p) => pathPattern.test(p.path));
  const opened = await openPage(browser, doc.url);
  await openPanel(opened.page);
  await opened.page.waitForSelector('.bookchat-scope input[value="chapter"]:checked');
  return {...opened, doc, chapter};
}

async function shot(page, name) {
  await page.screenshot({path: join(ARTIFACTS, name), fullPage: false});
}

test.describe('bookchat in the built site', () => {
  test('every URL in /api/chapters and in the index resolves to a built page and anchor', () => {
    const urls = new Set();
    for (const chapter of chapters) {
      urls.add(chapter.url);
      for (const p of chapter.pages) urls.add(p.url);
    }
    const listed = bookchat(['urls']);
    assert.equal(listed.status, 0, `bookchat urls failed: ${listed.stderr}`);
    const indexed = listed.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    assert.ok(indexed.length > 20, `bookchat urls printed only ${indexed.length} urls`);
    indexed.forEach((u) => urls.add(u));
    const broken = [];
    for (const url of urls) {
      const [path, hash] = url.split('#');
      const file = fileForPath(BUILD_DIR, path);
      if (!file) {
        broken.push(`${url}: no page`);
        continue;
      }
      if (hash) {
        const html = readFileSync(file, 'utf8');
        const id = decodeURIComponent(hash);
        // The built HTML is minified: attribute values may be unquoted.
        const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (!new RegExp(`\\sid=(["']?)${escaped}\\1[\\s>]`).test(html)) broken.push(`${url}: no element with id "${id}"`);
      }
    }
    assert.deepEqual(broken, [], `${broken.length} of ${urls.size} URLs are broken`);
  });

  test('the home page leads to the book, and a book-wide question streams a grounded, cited answer', async ({browser}) => {
    const {page, context, errors, queries} = await openPage(browser, '/');
    await page.waitForURL(/\/docs\/?$/);
    await openPanel(page);
    await chooseScope(page, 'Whole book');
    const {streamed, last, status} = await ask(page, 'What is the difference between git fetch and git pull?');
    assert.match(streamed.headers()['content-type'], /text\/event-stream/);
    const events = await streamed.text();
    assert.match(events, /event: meta/);
    assert.match(events, /event: delta/);
    assert.match(events, /event: done/);
    assert.equal(queries.at(-1).body.mode, 'book');
    assert.equal(status, 'grounded');
    const citations = last.locator('.bookchat-citation-link');
    assert.ok((await citations.count()) >= 1, 'a grounded answer lists its sources');
    assert.ok((await last.locator('.bookchat-marker').count()) >= 1, 'the answer has [n] markers');
    await shot(page, 'desktop-book-answer.png');

    // Thumbs up reaches the API.
    const feedback = page.waitForResponse((r) => r.url().endsWith('/api/feedback'));
    await last.getByRole('button', {name: 'Helpful', exact: true}).click();
    assert.equal((await feedback).status(), 204);

    // A citation navigates client-side to its page and heading, and the panel keeps its state.
    const href = await citations.first().getAttribute('href');
    assert.match(href, /^\/docs\/.*#.+/);
    assert.match(await followCitation(page, citations.first()), /^H[1-6]$/);
    assert.ok(await page.isVisible('#bookchat-panel'), 'the panel stays open on desktop');
    assert.ok((await page.locator('.bookchat-msg-assistant').count()) >= 1, 'the conversation survives navigation');
    await shot(page, 'desktop-citation-landing.png');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('chapter scope answers from the chapter; a question it does not answer shows the closest sections and offers the whole book', async ({browser}) => {
    const {page, context, errors, queries, doc: remotes, chapter} = await openInChapter(browser, /remotes/);
    assert.equal((await page.textContent('.bookchat-scope-chapter')).trim(), chapter.title);

    const inChapter = await ask(page, 'What is the difference between fetch and pull?');
    // The page's edition goes along: the current version (2.0), in English.
    assert.deepEqual(withoutConversation(queries.at(-1).body), {question: 'What is the difference between fetch and pull?', mode: 'chapter', chapter: chapter.key, page: remotes.url, version: 'current', locale: 'en'});
    assert.equal(inChapter.status, 'grounded');

    const outside = await ask(page, 'How do I install Git on Windows?');
    assert.equal(queries.at(-1).body.mode, 'chapter');
    // The book covers it in another chapter: the closest sections, that one with its chapter named.
    assert.equal(outside.status, 'related');
    assert.equal(await outside.last.locator('.bookchat-citations').count(), 0);
    const elsewhere = outside.last.locator('.bookchat-related-place', {hasText: 'in “Getting Started”'});
    assert.ok((await elsewhere.count()) >= 1, await outside.last.textContent());
    assert.match(await elsewhere.first().locator('.bookchat-related-link').getAttribute('href'), /^\/docs\/getting-started\/.*#/);
    await shot(page, 'desktop-chapter-related.png');
    const response = page.waitForResponse((r) => r.url().endsWith('/api/query/stream'));
    await outside.last.getByRole('button', {name: 'Search the whole book'}).click();
    await response;
    await page.waitForFunction(() => !document.querySelector('.bookchat-msg-assistant[aria-busy="true"], .bookchat-msg-pending'));
    assert.deepEqual(withoutConversation(queries.at(-1).body), {question: 'How do I install Git on Windows?', mode: 'book', page: remotes.url, version: 'current', locale: 'en'});
    assert.equal(await page.locator('.bookchat-msg-assistant').last().getAttribute('data-status'), 'grounded');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('an overview question shows the chapter outline, and its section links land on their headings', async ({browser}) => {
    const {page, context, errors, queries, doc: merging, chapter} = await openInChapter(browser, /merging/);
    const outline = await ask(page, 'Give me an overview of this chapter.');
    assert.equal(outline.status, 'grounded');
    assert.equal(queries.at(-1).body.page, merging.url);
    assert.match(await outline.last.textContent(), new RegExp(`An outline of the chapter “${chapter.title}”`));
    const sections = outline.last.locator('li a[href^="/docs/"]:not(.bookchat-citation-link)');
    assert.ok((await sections.count()) >= 3, 'the outline links at least three sections');
    const hrefs = await sections.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.every((h) => h.startsWith('/docs/branching/')), `links stay in the chapter: ${hrefs}`);
    await shot(page, 'desktop-chapter-overview.png');
    const target = hrefs.find((h) => h.includes('#'));
    assert.match(await followCitation(page, outline.last.locator(`a[href="${target}"]`).first()), /^H[1-6]$/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('highlighting doc text → "Ask about this" asks in selection mode', async ({browser}) => {
    const {page: internals} = pageUrl((p) => /internals/.test(p.path));
    const {page, context, errors, queries} = await openPage(browser, internals.url);
    const pathname = new URL(page.url()).pathname;

    // A selection in the navbar offers nothing.
    await page.evaluate(() => {
      const title = document.querySelector('.navbar__title');
      const range = document.createRange();
      range.selectNodeContents(title);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      title.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
    });
    await page.waitForTimeout(150);
    assert.equal(await page.locator('.bookchat-ask-selection').count(), 0);

    const paragraph = page.locator('.theme-doc-markdown p:has-text("content-addressable")').first();
    await paragraph.click({clickCount: 3});
    await page.click('.bookchat-ask-selection');
    await page.waitForSelector('#bookchat-panel .bookchat-composer-quote');
    const quote = (await page.textContent('.bookchat-composer-quote .bookchat-quote')).trim();
    assert.ok(quote.length > 20, 'the quote holds the selected paragraph');
    assert.ok((await paragraph.textContent()).replace(/\s+/g, ' ').includes(quote.replace(/\s+/g, ' ').slice(0, 40)));
    await page.waitForFunction(() => document.activeElement?.classList.contains('bookchat-input'));
    await shot(page, 'desktop-selection-quote.png');

    const {status} = await ask(page, "What is each object's key?");
    const body = queries.at(-1).body;
    assert.equal(body.mode, 'selection');
    assert.equal(body.page, pathname);
    assert.equal(body.selection.replace(/\s+/g, ' '), quote.replace(/\s+/g, ' '));
    assert.equal(status, 'grounded');
    assert.equal(await page.locator('.bookchat-composer-quote').count(), 0, 'the quote is used once');
    await shot(page, 'desktop-selection-answer.png');

    // The quote can be removed to go back to the normal scopes.
    await paragraph.click({clickCount: 3});
    await page.click('.bookchat-ask-selection');
    await page.click('button[aria-label="Remove the quoted selection"]');
    assert.equal(await page.locator('.bookchat-composer-quote').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('an out-of-book question abstains and raw HTML stays text', async ({browser}) => {
    const {page, context, errors, status, last} = await askTheBook(browser, 'What is the capital of Australia?');
    assert.equal(status, 'abstained');
    assert.equal(await last.locator('.bookchat-citations').count(), 0);
    assert.match(await last.textContent(), /Not covered by the book/);
    await shot(page, 'desktop-out-of-book.png');

    await ask(page, '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> What is a commit?');
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.equal(await page.locator('#bookchat-panel .bookchat-messages img, #bookchat-panel .bookchat-messages script').count(), 0);
    assert.match(await page.locator('.bookchat-msg-user').last().textContent(), /<img src=x onerror=/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('dark mode follows the site and keeps readable contrast', async ({browser}) => {
    const {page, context, errors} = await openPage(browser, '/docs/', {colorScheme: 'dark'});
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    const launcher = await colors(page.locator('.bookchat-launcher'));
    assert.ok(contrast(launcher.color, launcher.background) >= 4.5, `launcher contrast ${JSON.stringify(launcher)}`);
    await openPanel(page);
    await chooseScope(page, 'Whole book');
    const {last} = await ask(page, 'How do I undo the last commit?');
    const panel = await colors(page.locator('#bookchat-panel .bookchat-title'));
    assert.ok(luminance(panel.background) < 0.1, `dark panel background, got ${panel.background}`);
    for (const selector of ['.bookchat-title', '.bookchat-question', '.bookchat-md p', '.bookchat-citation-link', '.bookchat-citation-excerpt', '.bookchat-btn-primary']) {
      const target = selector === '.bookchat-md p' || selector.startsWith('.bookchat-citation') ? last.locator(selector).first() : page.locator(selector).first();
      if (!(await target.count())) continue;
      const c = await colors(target);
      assert.ok(contrast(c.color, c.background) >= 4.5, `${selector} contrast ${contrast(c.color, c.background).toFixed(2)} ${JSON.stringify(c)}`);
    }
    await shot(page, 'dark-answer.png');
    // Switching the site's toggle switches the widget too, without a reload.
    await page.keyboard.press('Escape');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await page.click('.bookchat-launcher');
    const light = await colors(page.locator('#bookchat-panel .bookchat-title'));
    assert.ok(luminance(light.background) > 0.8, `light panel background, got ${light.background}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('light mode contrast', async ({browser}) => {
    const {page, context, last} = await askTheBook(browser, 'How do I undo the last commit?');
    for (const selector of ['.bookchat-title', '.bookchat-question', '.bookchat-md p', '.bookchat-citation-link', '.bookchat-citation-excerpt', '.bookchat-btn-primary', '.bookchat-scope label.is-active']) {
      const target = selector === '.bookchat-md p' || selector.startsWith('.bookchat-citation') ? last.locator(selector).first() : page.locator(selector).first();
      if (!(await target.count())) continue;
      const c = await colors(target);
      assert.ok(contrast(c.color, c.background) >= 4.5, `${selector} contrast ${contrast(c.color, c.background).toFixed(2)} ${JSON.stringify(c)}`);
    }
    await context.close();
  });

  test('on a 390×844 phone the launcher covers no content and the panel is full screen', async ({browser}) => {
    const {page: merging} = pageUrl((p) => /merging/.test(p.path));
    const {page, context, errors} = await openPage(browser, merging.url, {viewport: {width: 390, height: 844}, isMobile: true, hasTouch: true});
    const launcher = await page.locator('.bookchat-launcher').boundingBox();
    const navbar = await page.locator('.navbar').boundingBox();
    assert.ok(launcher.y >= navbar.y && launcher.y + launcher.height <= navbar.y + navbar.height, 'the launcher sits inside the navbar');
    const overlaps = await page.evaluate(({x, y, width, height}) => {
      // Anything interactive or textual of the navbar under the launcher?
      const hits = [];
      for (const el of document.querySelectorAll('.navbar__brand, .navbar__toggle, .navbar__items--right > *')) {
        const r = el.getBoundingClientRect();
        if (r.width && r.height && r.left < x + width && r.right > x && r.top < y + height && r.bottom > y) hits.push(el.className);
      }
      return hits;
    }, launcher);
    assert.deepEqual(overlaps, [], 'the launcher does not cover navbar items');
    await shot(page, 'phone-page.png');

    await page.tap('.bookchat-launcher');
    await page.waitForSelector('#bookchat-panel');
    const panel = await page.locator('#bookchat-panel').boundingBox();
    assert.deepEqual([panel.x, panel.y, panel.width, panel.height], [0, 0, 390, 844]);
    await chooseScope(page, 'Whole book');
    const {last} = await ask(page, 'How does a fast-forward merge work?');
    await shot(page, 'phone-panel.png');
    const link = last.locator('.bookchat-citation-link').first();
    if (await link.count()) {
      const href = await link.getAttribute('href');
      await link.tap();
      await page.waitForURL((u) => `${u.pathname}${u.hash}`.replace(/\/(#|$)/, '$1') === href.replace(/\/(#|$)/, '$1'));
      assert.equal(await page.locator('#bookchat-panel').count(), 0, 'the panel steps aside after opening a source on a phone');
      await shot(page, 'phone-citation-landing.png');
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the widget causes no layout shift while loading, opening and answering', async ({browser}) => {
    const context = await browser.newContext({viewport: {width: 1280, height: 900}});
    await context.addInitScript(() => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts.push(entry.value);
      }).observe({type: 'layout-shift', buffered: true});
    });
    const page = await context.newPage();
    await page.goto(`${SITE_URL}/docs/`);
    await page.waitForSelector('html[data-has-hydrated="true"]');
    await page.waitForSelector('.bookchat-launcher');
    await openPanel(page);
    await chooseScope(page, 'Whole book');
    await ask(page, 'What is a commit?');
    const total = await page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));
    assert.ok(total < 0.01, `cumulative layout shift ${total}`);
    await context.close();
  });

  test('keyboard: Enter opens, focus lands in the input, Shift+Enter adds a line, Esc closes, Ctrl+I opens', async ({browser}) => {
    const {page, context} = await openPage(browser, '/docs/');
    await page.focus('.bookchat-launcher');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.classList.contains('bookchat-input'));
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    assert.equal(await page.inputValue('.bookchat-input'), 'first line\nsecond line');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#bookchat-panel', {state: 'detached'});
    await page.waitForFunction(() => document.activeElement?.classList.contains('bookchat-launcher'), null, {timeout: 2000});

    // Ctrl+I (⌘I on macOS) opens the panel from anywhere on the page; Ctrl+K is left to search.
    assert.equal(await page.getAttribute('.bookchat-launcher', 'aria-keyshortcuts'), 'Ctrl+I');
    await page.locator('.theme-doc-markdown p').first().click();
    await page.keyboard.press('Control+k');
    await page.waitForTimeout(200);
    assert.equal(await page.locator('#bookchat-panel').count(), 0);
    await page.keyboard.press('Control+i');
    await page.waitForFunction(() => document.activeElement?.classList.contains('bookchat-input'));
    await context.close();
  });

  test('the conversation reloads after a refresh and "New conversation" starts over', async ({browser}) => {
    const {page, context, errors} = await askTheBook(browser, 'What does git stash do?');
    await page.reload();
    await page.waitForSelector('html[data-has-hydrated="true"]');
    await openPanel(page);
    await page.waitForSelector('.bookchat-msg-user:has-text("What does git stash do?")');
    assert.ok((await page.locator('.bookchat-msg-assistant').count()) >= 1);
    await page.click('button:has-text("New conversation")');
    assert.equal(await page.locator('.bookchat-msg-user').count(), 0);
    await page.reload();
    await page.waitForSelector('html[data-has-hydrated="true"]');
    await openPanel(page);
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.bookchat-msg-user').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
