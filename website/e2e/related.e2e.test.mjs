// Browser tests of the three outcomes of a question (issue #60) against the real backend: a
// grounded answer with more places "Also in the book", a `related` outcome showing the closest
// sections instead of an answer, and an abstention that shows nothing.
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from '@playwright/test';
import {colors, contrast} from './colors.mjs';
import {ask, askTheBook, chooseScope, followCitation, openPage, openPanel} from './panel.mjs';
import {ARTIFACTS} from './stack.mjs';

// The book answers the first; it comes close on the second ("Commit ranges" says what `HEAD~3`
// means) with no passage judged to answer, which no eval row asks; it has nothing on the third.
const GROUNDED = 'What is the difference between git fetch and git pull?';
const RELATED = 'what does HEAD~1 mean?';
const OFF_TOPIC = 'What is a good recipe for sourdough bread?';

async function shot(page, name) {
  await page.screenshot({path: join(ARTIFACTS, name), fullPage: false});
}

/** The stream's final event: the response the widget shows. */
async function doneEvent(streamed) {
  const match = (await streamed.text()).match(/event: done\r?\ndata: (.*)/);
  assert.ok(match, 'the stream ends with a done event');
  return JSON.parse(match[1]);
}

/** Section, href and "where" line of each card of a list. */
async function cards(list) {
  return list.locator('.bookchat-related-place').evaluateAll((items) =>
    items.map((li) => ({
      section: li.querySelector('.bookchat-related-link')?.textContent,
      href: li.querySelector('.bookchat-related-link')?.getAttribute('href'),
      where: li.querySelector('.bookchat-related-where')?.textContent ?? '',
      highlighted: li.querySelector('.bookchat-related-excerpt mark')?.textContent ?? '',
    })),
  );
}

test.describe('the three outcomes of a question', () => {
  test('grounded: the cited answer, then "Also in the book" cards reachable by Tab, whose links land on their headings', async ({browser}) => {
    const {page, context, errors, streamed, last, status} = await askTheBook(browser, GROUNDED);
    assert.equal(status, 'grounded');
    const done = await doneEvent(streamed);
    assert.ok(done.related.length >= 1 && done.related.length <= 2, `up to two more places: ${JSON.stringify(done.related)}`);
    assert.ok((await last.locator('.bookchat-citation-link').count()) >= 1, 'the answer keeps its sources');
    const also = last.getByRole('list', {name: 'Also in the book'});
    const shown = await cards(also);
    assert.deepEqual(shown.map((c) => [c.section, c.href]), done.related.map((p) => [p.section, p.url]));
    assert.ok(shown.every((c) => c.highlighted.length > 10), `each card highlights its closest sentences: ${JSON.stringify(shown)}`);
    await last.locator('.bookchat-related').scrollIntoViewIfNeeded();
    await shot(page, 'related-grounded.png');

    // Tab goes from the last source to the first card's link, and shows where focus is.
    await last.locator('.bookchat-citation-link').last().focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return {href: el.getAttribute('href'), outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
    });
    assert.equal(focused.href, shown[0].href);
    assert.ok(focused.outline !== 'none' && focused.width >= 1, `visible focus: ${JSON.stringify(focused)}`);

    const target = also.locator('.bookchat-related-link[href*="#"]').first();
    assert.equal(await target.count(), 1, `a card links to a heading: ${JSON.stringify(shown)}`);
    assert.match(await followCitation(page, target), /^H[1-6]$/);
    assert.ok(await page.isVisible('#bookchat-panel'), 'the panel stays open on desktop');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('related: the closest sections instead of an answer, kept when the conversation reloads', async ({browser}) => {
    const {page, context, errors, streamed, last, status} = await askTheBook(browser, RELATED);
    assert.equal(status, 'related', `"${RELATED}" is no longer answered with status related: ${await last.textContent()}`);
    const done = await doneEvent(streamed);
    assert.ok(done.related.length >= 1 && done.related.length <= 3);
    assert.match(await last.locator('.bookchat-md').textContent(), /^I couldn't find a direct answer in the book\. These sections look closest:$/);
    assert.equal(await last.locator('.bookchat-citations, .bookchat-short-answer, .bookchat-marker').count(), 0, 'no sources and no short answer');
    assert.equal(await last.getByText('Also in the book').count(), 0);
    const closest = last.getByRole('list', {name: 'Closest sections of the book'});
    const shown = await cards(closest);
    assert.deepEqual(shown.map((c) => [c.section, c.href]), done.related.map((p) => [p.section, p.url]));
    assert.ok(shown.every((c) => c.href.startsWith('/docs/') && c.highlighted.length > 10), JSON.stringify(shown));
    await shot(page, 'related-related.png');

    await page.reload();
    await page.waitForSelector('html[data-has-hydrated="true"]');
    await openPanel(page);
    await page.waitForSelector('.bookchat-msg-related .bookchat-related-place');
    const reloaded = await cards(page.locator('.bookchat-msg-related').last().getByRole('list', {name: 'Closest sections of the book'}));
    assert.deepEqual(reloaded, shown);

    const link = page.locator('.bookchat-msg-related .bookchat-related-link').first();
    const heading = await followCitation(page, link);
    if (heading !== null) assert.match(heading, /^H[1-6]$/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Asked of "Branching and Merging": the chapter's closest sections, then the book's elsewhere.
  test('related in chapter mode: the chapter\'s closest sections, and those in another chapter named', async ({browser}) => {
    const {page, context, errors, queries} = await openPage(browser, '/docs/branching/branches');
    await openPanel(page);
    await page.waitForSelector('.bookchat-scope input[value="chapter"]:checked');
    const {streamed, last, status} = await ask(page, RELATED);
    assert.equal(queries.at(-1).body.chapter, 'branching');
    assert.equal(status, 'related', await last.textContent());
    const done = await doneEvent(streamed);
    const shown = await cards(last.getByRole('list', {name: 'Closest sections of the book'}));
    assert.equal(shown.length, done.related.length);
    assert.ok(done.related.some((p) => p.chapter !== 'branching'), `a place in another chapter: ${JSON.stringify(done.related)}`);
    done.related.forEach((p, i) => {
      const named = shown[i].where.includes(`in “${p.chapter_title}”`);
      assert.equal(named, p.chapter !== 'branching', `card ${i}: ${JSON.stringify(shown[i])}`);
    });
    // The reader can still widen the question to the whole book.
    assert.equal(await last.getByRole('button', {name: 'Search the whole book'}).count(), 1);
    await shot(page, 'related-chapter.png');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('abstained: an off-topic question shows no cards and no sources', async ({browser}) => {
    const {page, context, errors, streamed, last, status} = await askTheBook(browser, OFF_TOPIC);
    assert.equal(status, 'abstained');
    assert.deepEqual((await doneEvent(streamed)).related, []);
    assert.match(await last.textContent(), /Not covered by the book/);
    assert.equal(await last.locator('.bookchat-related, .bookchat-citations, mark, a').count(), 0);
    await shot(page, 'related-abstained.png');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('dark mode: the cards and their highlighted sentences keep readable contrast', async ({browser}) => {
    const {page, context, errors} = await openPage(browser, '/docs/', {colorScheme: 'dark'});
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    await openPanel(page);
    await chooseScope(page, 'Whole book');
    const {last, status} = await ask(page, RELATED);
    assert.equal(status, 'related');
    for (const selector of ['.bookchat-md p', '.bookchat-related-link', '.bookchat-related-where', '.bookchat-related-excerpt mark']) {
      const target = last.locator(selector).first();
      if (!(await target.count())) continue;
      const c = await colors(target);
      assert.ok(contrast(c.color, c.background) >= 4.5, `${selector} contrast ${contrast(c.color, c.background).toFixed(2)} ${JSON.stringify(c)}`);
    }
    await shot(page, 'related-dark.png');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('light mode: the cards keep readable contrast', async ({browser}) => {
    const {page, context, last} = await askTheBook(browser, GROUNDED);
    for (const selector of ['.bookchat-related-title', '.bookchat-related-link', '.bookchat-related-where', '.bookchat-related-excerpt mark']) {
      const target = last.locator(selector).first();
      if (!(await target.count())) continue;
      const c = await colors(target);
      assert.ok(contrast(c.color, c.background) >= 4.5, `${selector} contrast ${contrast(c.color, c.background).toFixed(2)} ${JSON.stringify(c)}`);
    }
    await context.close();
  });

  test('on a 390×844 phone the cards fit the width and a card\'s link opens its section', async ({browser}) => {
    const {page, context, errors} = await openPage(browser, '/docs/', {viewport: {width: 390, height: 844}, isMobile: true, hasTouch: true});
    await page.tap('.bookchat-launcher');
    await page.waitForSelector('#bookchat-panel');
    await chooseScope(page, 'Whole book');
    const {last, status} = await ask(page, RELATED);
    assert.equal(status, 'related');
    const overflow = await page.evaluate(() => {
      const list = document.querySelector('.bookchat-messages');
      const wide = [...document.querySelectorAll('.bookchat-related-place')].filter((el) => el.getBoundingClientRect().right > window.innerWidth);
      return {scroll: list.scrollWidth - list.clientWidth, wide: wide.length};
    });
    assert.deepEqual(overflow, {scroll: 0, wide: 0});
    await last.locator('.bookchat-related').scrollIntoViewIfNeeded();
    await shot(page, 'related-phone.png');
    const link = last.locator('.bookchat-related-link').first();
    const href = await link.getAttribute('href');
    await link.tap();
    await page.waitForURL((u) => `${u.pathname}${u.hash}`.replace(/\/(#|$)/, '$1') === href.replace(/\/(#|$)/, '$1'));
    assert.equal(await page.locator('#bookchat-panel').count(), 0, 'the panel steps aside after opening a section on a phone');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
