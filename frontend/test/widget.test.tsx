import {act, cleanup, fireEvent, render, screen, waitFor} from '@testing-library/react';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {findChapter} from '../src/chapters';
import {BookChat} from '../src/components/BookChat';
import {docSelectionText} from '../src/selection';
import {createTransport} from '../src/transport';
import type {Chapter, CurrentDoc} from '../src/types';
import {answerEvents, citation, fakeFetch, json, sseResponse} from './fakeNetwork';

const chapters: Chapter[] = [
  {key: 'intro', title: 'Introduction', url: '/docs/', pages: [{path: 'intro.md', doc_id: 'intro', title: 'Welcome', url: '/docs/'}]},
  {
    key: 'branching',
    title: 'Branching and Merging',
    url: '/docs/branching',
    pages: [{path: '03-branching/02-merging.md', doc_id: 'branching/merging', title: 'Merging', url: '/docs/branching/merging'}],
  },
];
const doc: CurrentDoc = {id: 'branching/merging', title: 'Merging', permalink: '/docs/branching/merging/', frontMatter: {}};

function mount(routes: Parameters<typeof fakeFetch>[0], props: {doc?: CurrentDoc | null; navigate?: (url: string) => void; pathname?: string} = {}) {
  const net = fakeFetch({'GET /api/chapters': () => json(chapters), ...routes});
  const transport = createTransport('http://api.test', net.fetch);
  const view = render(
    <div>
      <nav className="navbar"><p id="nav">Navbar text</p></nav>
      <article>
        <div className="theme-doc-markdown markdown">
          <p id="p1">A fast-forward merge only moves the branch pointer.</p>
          <p id="p2">Second paragraph.</p>
        </div>
      </article>
      <BookChat apiUrl="http://api.test" transport={transport} pathname={props.pathname ?? '/docs/branching/merging/'} doc={props.doc === undefined ? doc : props.doc} navigate={props.navigate} storageKey="bookchat:widget-test" />
    </div>,
  );
  return {net, view};
}

function posts(net: ReturnType<typeof fakeFetch>) {
  return net.calls.filter((c) => c.method === 'POST').map((c) => c.body as Record<string, unknown>);
}

async function openPanel() {
  fireEvent.click(screen.getByRole('button', {name: 'Ask the book'}));
  const input = await screen.findByRole('textbox', {name: 'Your question'});
  return input as HTMLTextAreaElement;
}

function select(startNode: Node, startOffset: number, endNode: Node, endOffset: number) {
  const range = document.createRange();
  range.setStart(startNode, startOffset);
  range.setEnd(endNode, endOffset);
  const selection = window.getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
  return selection;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  window.getSelection()?.removeAllRanges();
});

describe('findChapter', () => {
  it('matches a permalink to a chapter page ignoring trailing slashes and anchors', () => {
    expect(findChapter(chapters, '/docs/branching/merging/')?.key).toBe('branching');
    expect(findChapter(chapters, '/docs/branching/merging#fast')?.key).toBe('branching');
    expect(findChapter(chapters, '/docs')?.key).toBe('intro');
    expect(findChapter(chapters, '/docs/unknown')).toBeNull();
  });
});

describe('docSelectionText', () => {
  it('accepts selections that start in the doc, even when they end in the next block', () => {
    const {view} = mount({});
    const p1 = view.container.querySelector('#p1')!;
    const p2 = view.container.querySelector('#p2')!;
    // A triple-click selection: it ends at offset 0 of the next paragraph.
    expect(docSelectionText(select(p1.firstChild!, 0, p2, 0))).toBe('A fast-forward merge only moves the branch pointer.');
  });

  it('ignores selections that start in the navbar or in the panel', async () => {
    const {view} = mount({});
    const nav = view.container.querySelector('#nav')!;
    const p1 = view.container.querySelector('#p1')!;
    expect(docSelectionText(select(nav.firstChild!, 0, p1.firstChild!, 5))).toBeNull();
    await openPanel();
    const empty = screen.getByText(/Ask anything about this book/);
    expect(docSelectionText(select(empty.firstChild!, 0, empty.firstChild!, 10))).toBeNull();
  });
});

describe('BookChat', () => {
  it('opens with focus in the input, sends on Enter, keeps Shift+Enter for new lines, closes on Esc', async () => {
    const {net} = mount({'POST /api/query/stream': () => sseResponse(answerEvents())});
    const input = await openPanel();
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, {target: {value: 'line one'}});
    fireEvent.keyDown(input, {key: 'Enter', shiftKey: true});
    expect(posts(net)).toHaveLength(0);
    fireEvent.keyDown(input, {key: 'Enter'});
    await screen.findByRole('button', {name: 'Copy answer'});
    expect(posts(net)).toHaveLength(1);
    expect(input.value).toBe('');
    fireEvent.keyDown(input, {key: 'Escape'});
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', {name: 'Ask the book'})));
  });

  it('shows HTML in a question as text and announces the finished answer', async () => {
    mount({'POST /api/query/stream': () => sseResponse(answerEvents())});
    const input = await openPanel();
    fireEvent.change(input, {target: {value: '<img src=x onerror="window.__q=1"> what?'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    await screen.findByRole('button', {name: 'Copy answer'});
    const dialog = screen.getByRole('dialog');
    expect(dialog.querySelector('img')).toBeNull();
    expect(dialog.textContent).toContain('<img src=x onerror="window.__q=1"> what?');
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Answer: A fast-forward merge moves the pointer/));
  });

  it('asks in chapter scope on doc pages and navigates client-side from a citation', async () => {
    const navigate = vi.fn();
    const {net} = mount({'POST /api/query/stream': () => sseResponse(answerEvents({mode: 'chapter'}))}, {navigate});
    const input = await openPanel();
    await waitFor(() => expect((screen.getByRole('radio', {name: 'This chapter'}) as HTMLInputElement).checked).toBe(true));
    expect(screen.getByText('Branching and Merging')).toBeTruthy();
    fireEvent.change(input, {target: {value: 'What is a fast-forward?'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    const link = await screen.findByRole('link', {name: citation.section});
    expect(posts(net)[0]).toEqual({question: 'What is a fast-forward?', mode: 'chapter', chapter: 'branching', page: '/docs/branching/merging/'});
    expect(link.getAttribute('href')).toBe(citation.url);
    fireEvent.click(link);
    expect(navigate).toHaveBeenCalledWith(citation.url);
  });

  it('uses the whole book when the page is in no chapter', async () => {
    const {net} = mount({'POST /api/query/stream': () => sseResponse(answerEvents())}, {doc: null, pathname: '/about'});
    (await openPanel());
    await waitFor(() => expect(net.calls.some((c) => c.url.endsWith('/api/chapters'))).toBe(true));
    expect((screen.getByRole('radio', {name: 'Whole book'}) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', {name: 'This chapter'}) as HTMLInputElement).disabled).toBe(true);
  });

  it('offers the whole book and the suggested chapter after a chapter abstention', async () => {
    const abstained = answerEvents(
      {
        mode: 'chapter',
        status: 'abstained',
        citations: [],
        answer: 'This chapter does not cover that.',
        suggested_chapter: {key: 'intro', title: 'Introduction', url: '/docs/', section: 'Setup', section_url: '/docs/#setup'},
      },
      ['This chapter does not cover that.'],
    );
    const navigate = vi.fn();
    const {net} = mount({'POST /api/query/stream': [() => sseResponse(abstained), () => sseResponse(answerEvents())]}, {navigate});
    const input = await openPanel();
    await waitFor(() => expect((screen.getByRole('radio', {name: 'This chapter'}) as HTMLInputElement).checked).toBe(true));
    fireEvent.change(input, {target: {value: 'How do I install Git?'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    await screen.findByText('Not covered in this chapter');
    expect(document.querySelector('.bookchat-msg-abstained')).not.toBeNull();
    fireEvent.click(screen.getByRole('link', {name: 'Introduction — Setup'}));
    expect(navigate).toHaveBeenCalledWith('/docs/#setup');
    fireEvent.click(screen.getByRole('button', {name: 'Search the whole book'}));
    await waitFor(() => expect(posts(net)).toHaveLength(2));
    expect(posts(net)[1]).toMatchObject({question: 'How do I install Git?', mode: 'book'});
    expect((screen.getByRole('radio', {name: 'Whole book'}) as HTMLInputElement).checked).toBe(true);
  });

  it('asks about a highlighted passage in selection mode, and the quote can be removed', async () => {
    const {net, view} = mount({'POST /api/query/stream': () => sseResponse(answerEvents({mode: 'selection'}))});
    const p1 = view.container.querySelector('#p1')!;
    select(p1.firstChild!, 2, p1.firstChild!, 20);
    await act(async () => {
      fireEvent.mouseUp(p1);
      await new Promise((r) => setTimeout(r, 5));
    });
    fireEvent.click(screen.getByRole('button', {name: 'Ask about this'}));
    const quote = await screen.findByLabelText('Selected text');
    expect(quote.textContent).toBe('fast-forward merge');
    fireEvent.click(screen.getByRole('button', {name: 'Remove the quoted selection'}));
    expect(screen.queryByLabelText('Selected text')).toBeNull();

    select(p1.firstChild!, 2, p1.firstChild!, 20);
    await act(async () => {
      fireEvent.mouseUp(p1);
      await new Promise((r) => setTimeout(r, 5));
    });
    fireEvent.click(screen.getByRole('button', {name: 'Ask about this'}));
    const input = screen.getByRole('textbox', {name: 'Your question'});
    fireEvent.keyDown(input, {key: 'Enter'});
    await screen.findByRole('button', {name: 'Copy answer'});
    expect(posts(net)[0]).toEqual({
      question: 'Explain this passage.',
      mode: 'selection',
      selection: 'fast-forward merge',
      page: '/docs/branching/merging/',
    });
  });

  it('shows errors with a Retry button', async () => {
    const {net} = mount({
      'POST /api/query/stream': [() => json({detail: 'slow down'}, 429, {'Retry-After': '3'}), () => sseResponse(answerEvents())],
    });
    const input = await openPanel();
    fireEvent.change(input, {target: {value: 'q'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    expect((await screen.findByRole('alert')).textContent).toMatch(/Try again in 3 seconds/);
    fireEvent.click(screen.getByRole('button', {name: 'Retry'}));
    await screen.findByRole('button', {name: 'Copy answer'});
    expect(posts(net)).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends thumbs feedback and starts a new conversation', async () => {
    const {net} = mount({
      'POST /api/query/stream': () => sseResponse(answerEvents()),
      'POST /api/feedback': () => json(null, 204),
    });
    const input = await openPanel();
    fireEvent.change(input, {target: {value: 'q'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    await screen.findByRole('button', {name: 'Copy answer'});
    fireEvent.click(screen.getByRole('button', {name: 'Helpful'}));
    await waitFor(() => expect(screen.getByRole('button', {name: 'Helpful'}).getAttribute('aria-pressed')).toBe('true'));
    expect(posts(net)[1]).toEqual({message_id: 'msg-1', rating: 'up'});
    expect(localStorage.getItem('bookchat:widget-test')).toBe('conv-1');
    fireEvent.click(screen.getByRole('button', {name: 'New conversation'}));
    expect(screen.getByText(/Ask anything about this book/)).toBeTruthy();
    expect(localStorage.getItem('bookchat:widget-test')).toBeNull();
  });
});
