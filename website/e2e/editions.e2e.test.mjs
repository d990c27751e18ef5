// Versions and locales of the sample book in the browser: the 1.0 snapshot says Git 2.17 where
// the current 2.0 says Git 2.23, and the French build cites French pages under /fr/.
import assert from 'node:assert/strict';
import {test} from '@playwright/test';
import {ask, chooseScope, citationHrefs, followCitation, openPage, openPanel} from './panel.mjs';

const VERSION_QUESTION = 'Which Git version does the book require?';

/** Asks VERSION_QUESTION of the page's edition: the answer `says` its fact, `never` the other edition's, and cites only `links`. */
async function askEdition(page, queries, {version, says, never, links}) {
  const answer = await ask(page, VERSION_QUESTION);
  assert.equal(queries.at(-1).body.version, version);
  assert.equal(answer.status, 'grounded');
  const text = await answer.last.locator('.bookchat-md').textContent();
  assert.match(text, says);
  assert.doesNotMatch(text, never);
  const hrefs = await citationHrefs(answer.last);
  assert.ok(hrefs.length > 0 && hrefs.every(links), hrefs.join(' '));
  return answer;
}

test.describe('versions and locales of the sample book', () => {
  test('2.0 and 1.0 each answer with their own fact and their own URLs, across a version switch', async ({browser}) => {
    const {page, context, errors, queries} = await openPage(browser, '/docs/getting-started/installing-git');
    await openPanel(page);
    await chooseScope(page, 'Whole book');
    await askEdition(page, queries, {
      version: 'current',
      says: /Git 2\.23 or newer/,
      never: /2\.17/,
      links: (h) => h.startsWith('/docs/') && !h.startsWith('/docs/1.0/'),
    });

    // The navbar's version dropdown moves to the same page of 1.0 without a reload: the panel
    // stays, and the next question goes to the 1.0 edition.
    await page.locator('.navbar a.dropdown__link', {hasText: /^1\.0$/}).dispatchEvent('click');
    await page.waitForURL(/\/docs\/1\.0\/getting-started\/installing-git/);
    assert.ok(await page.isVisible('#bookchat-panel'), 'the panel survives the version switch');
    const old = await askEdition(page, queries, {
      version: '1.0',
      says: /Git 2\.17 or newer/,
      never: /2\.23/,
      links: (h) => h.startsWith('/docs/1.0/'),
    });

    const source = old.last.locator('.bookchat-citation-link[href*="#verifying-the-installation"]').first();
    assert.match(await followCitation(page, source), /^H[1-6]$/);
    assert.match(page.url(), /\/docs\/1\.0\/getting-started\/installing-git#verifying-the-installation$/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a French page: French buttons, a French answer cited with its /fr/ URL, and the untranslated fallback said so', async ({browser}) => {
    const {page, context, errors, queries} = await openPage(browser, '/fr/docs/getting-started/installing-git');
    assert.equal(await page.locator('.bookchat-launcher').getAttribute('aria-label'), 'Interroger le livre');
    await openPanel(page);
    assert.equal(await page.getAttribute('.bookchat-input', 'placeholder'), 'Posez une question sur le livre');
    await chooseScope(page, 'Tout le livre');
    const french = await ask(page, 'Comment installer Git sous Windows ?');
    assert.deepEqual([queries.at(-1).body.version, queries.at(-1).body.locale], ['current', 'fr']);
    assert.equal(french.status, 'grounded');
    assert.match(await french.last.locator('.bookchat-md').textContent(), /Git for Windows\s+fournit/);
    assert.equal(await french.last.locator('.bookchat-notice').count(), 0, 'a translated page needs no notice');
    const source = french.last.locator('.bookchat-citation-link').first();
    assert.equal(await source.getAttribute('href'), '/fr/docs/getting-started/installing-git#installer-sous-windows');
    assert.match(await followCitation(page, source), /^H[1-6]$/);
    assert.match(await page.textContent('#installer-sous-windows'), /^Installer sous Windows/);

    // Rebasing is not translated yet: the English text answers, the link stays French, the notice says so.
    const fallback = await ask(page, 'How does git rebase work?');
    assert.equal(fallback.status, 'grounded');
    assert.match(await fallback.last.locator('.bookchat-notice').textContent(), /Cette réponse vient du texte original/);
    const links = await citationHrefs(fallback.last);
    assert.ok(links.length > 0 && links.every((h) => h.startsWith('/fr/docs/')), links.join(' '));
    assert.deepEqual(errors, []);
    await context.close();
  });
});
