import {cleanup, fireEvent, render, screen} from '@testing-library/react';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {InlineMarkdown, Markdown} from '../src/components/Markdown';
import {isSafeHref, parseMarkdown, tableRowsAsText} from '../src/markdown';
import {NavigateProvider} from '../src/navigation';
import {citation} from './fakeNetwork';

afterEach(cleanup);

function renderMd(text: string, extra: Partial<React.ComponentProps<typeof Markdown>> = {}) {
  return render(<Markdown text={text} {...extra} />).container;
}

describe('safe Markdown rendering', () => {
  it('shows raw HTML as text, never as elements', () => {
    const attack = '<script>window.__pwned = 1</script> and <img src=x onerror="window.__pwned=2"> <b>bold?</b>\n\n<iframe src="https://evil.test"></iframe>';
    const container = renderMd(attack);
    expect(container.querySelector('script, img, iframe, b')).toBeNull();
    expect(container.textContent).toContain('<script>window.__pwned = 1</script>');
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned=2">');
    expect((window as unknown as {__pwned?: number}).__pwned).toBeUndefined();
  });

  it('keeps HTML inside code blocks and inline code as text', () => {
    const container = renderMd('Use `<div onclick=x>`:\n\n```html\n<script>alert(1)</script>\n```');
    expect(container.querySelector('script, div[onclick]')).toBeNull();
    expect(container.querySelector('pre')?.textContent).toContain('<script>alert(1)</script>');
  });

  it('drops unsafe link targets and keeps safe ones', () => {
    const container = renderMd('[a](javascript:alert(1)) [b](data:text/html,x) [c](//evil.test/x) [d](/docs/intro#setup) [e](https://git-scm.com)');
    const hrefs = Array.from(container.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/docs/intro#setup', 'https://git-scm.com']);
    expect(container.textContent).toContain(' b c d e');
    expect(container.innerHTML).not.toMatch(/href="(javascript|data):/i);
    expect(isSafeHref('JaVaScRiPt:alert(1)')).toBe(false);
    expect(isSafeHref('/\t/evil')).toBe(false);
  });

  it('resolves reference links through the same check', () => {
    const container = renderMd('[merging][m] and [bad][x]\n\n[m]: /docs/branching/merging\n[x]: javascript:alert(1)');
    expect(Array.from(container.querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual(['/docs/branching/merging']);
    expect(container.textContent).toBe('merging and bad');
  });

  it('renders emphasis, lists, quotes, headings and tables', () => {
    const container = renderMd('# Title\n\n**Bold** and *em* and `code`.\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n> quoted\n\n| a | b |\n| - | - |\n| 1 | 2 |');
    expect(container.querySelector('strong')?.textContent).toBe('Title');
    expect(container.querySelectorAll('ul > li')).toHaveLength(3);
    expect(container.querySelector('ul ul li')?.textContent).toBe('nested');
    expect(container.querySelectorAll('ol > li')).toHaveLength(2);
    expect(container.querySelector('blockquote')?.textContent).toBe('quoted');
    expect(container.querySelector('td')?.textContent).toBe('1');
    expect(container.querySelector('em')?.textContent).toBe('em');
    expect(container.querySelector('h1, h2, h3')).toBeNull();
  });

  it('renders GFM tables with inline Markdown in their cells, strikethrough and decoded entities', () => {
    const container = renderMd('| Command | Effect |\n| :-- | --: |\n| `git fetch` | **downloads** only [1] |\n\n~~old~~ &amp; new', {citations: [citation]});
    expect(Array.from(container.querySelectorAll('th')).map((th) => th.textContent)).toEqual(['Command', 'Effect']);
    expect(container.querySelector('td code')?.textContent).toBe('git fetch');
    expect(container.querySelector('td strong')?.textContent).toBe('downloads');
    expect(container.querySelector('td a.bookchat-marker')?.textContent).toBe('[1]');
    expect(container.querySelectorAll('td')[1].getAttribute('style')).toContain('text-align: right');
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(container.textContent).toContain('old & new');
  });

  it('keeps [n] inside code as text and renders tight list items without paragraphs', () => {
    const container = renderMd('- `arr[1]` is [1]\n- two', {citations: [citation]});
    expect(container.querySelector('li > p')).toBeNull();
    expect(container.querySelector('li code')?.textContent).toBe('arr[1]');
    expect(container.querySelectorAll('a.bookchat-marker')).toHaveLength(1);
  });

  it('reads excerpts as inline Markdown only', () => {
    const {container} = render(<InlineMarkdown text={'1. Run `git init` and **commit**\n# not a heading <b>x</b>'} />);
    expect(container.querySelector('ol, li, p, b')).toBeNull();
    expect(container.querySelector('code')?.textContent).toBe('git init');
    expect(container.textContent).toBe('1. Run git init and commit # not a heading <b>x</b>');
  });

  it('highlights fenced code and makes it copyable', () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', {value: {writeText}, configurable: true});
    const container = renderMd('```js\nconst merged = git.merge("feature");\n```');
    expect(container.querySelectorAll('pre span.token').length).toBeGreaterThan(1);
    fireEvent.click(screen.getByRole('button', {name: 'Copy code'}));
    expect(writeText).toHaveBeenCalledWith('const merged = git.merge("feature");');
  });

  it('renders a still-streaming unclosed fence as code', () => {
    expect(parseMarkdown('```sh\ngit status').children).toMatchObject([{type: 'code', lang: 'sh', value: 'git status'}]);
  });

  it('links [n] markers to their citation and leaves unknown numbers as text', () => {
    const onCite = vi.fn();
    const container = renderMd('Merges move the pointer [1]. See [2].', {citations: [citation], onCite, citeIdPrefix: 'c'});
    const marker = container.querySelector('a.bookchat-marker')!;
    expect(marker.getAttribute('href')).toBe('#c-1');
    expect(marker.getAttribute('aria-label')).toBe('Source 1: Fast-forward merges');
    fireEvent.click(marker);
    expect(onCite).toHaveBeenCalledWith(1);
    expect(container.textContent).toContain('See [2].');
  });

  it('navigates site links client-side and opens other sites in a new tab', () => {
    const navigate = vi.fn();
    const {container} = render(
      <NavigateProvider value={navigate}>
        <Markdown text="[merging](/docs/branching/merging#x) and [Git](https://git-scm.com)" />
      </NavigateProvider>,
    );
    const [internal, external] = Array.from(container.querySelectorAll('a'));
    fireEvent.click(internal);
    expect(navigate).toHaveBeenCalledWith('/docs/branching/merging#x');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(external.getAttribute('rel')).toContain('noopener');
  });
});

describe('table rows in an excerpt', () => {
  it('become text: cells after the first follow a colon, rows are separated by semicolons', () => {
    expect(tableRowsAsText('| `100644` | Normal file | | `120000` | Symbolic link |')).toBe('`100644`: Normal file; `120000`: Symbolic link');
    expect(tableRowsAsText('| Debian, Ubuntu | APT | `sudo apt install git` |')).toBe('Debian, Ubuntu: APT, `sudo apt install git`');
    expect(tableRowsAsText('| Command | Effect | | --- | :-: | | `git log` | Lists commits |')).toBe('Command: Effect; `git log`: Lists commits');
  });

  it('keep the prose around them, and pipes inside code or escaped', () => {
    expect(tableRowsAsText('| `main...feature` | Commits in either branch but not in both | `HEAD~3` means three steps back.')).toBe(
      '`main...feature`: Commits in either branch but not in both. `HEAD~3` means three steps back.',
    );
    expect(tableRowsAsText('Options: | `a|b` | Either \\| or |')).toBe('Options: `a|b`: Either \\| or');
    expect(tableRowsAsText('| ``x ` | y`` | one cell |')).toBe('``x ` | y``: one cell');
  });

  it('leave text without table rows alone', () => {
    for (const text of ['Use `a | b` to pipe.', 'A | B is a choice.', 'Plain prose.', '`git log --format="%h | %s"` prints both.']) {
      expect(tableRowsAsText(text)).toBe(text);
    }
  });
});
