import {act, cleanup, fireEvent, render, renderHook, screen, waitFor, within} from '@testing-library/react';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {BookChat} from '../src/components/BookChat';
import {createTransport} from '../src/transport';
import type {Chapter, CurrentDoc} from '../src/types';
import {useChat} from '../src/useChat';
import {answer, answerEvents, citation, fakeFetch, json, place, sseResponse} from './fakeNetwork';

const KEY = 'bookchat:related-test';
const chapters: Chapter[] = [
  {
    key: 'branching',
    title: 'Branching and Merging',
    url: '/docs/branching',
    pages: [{path: '03-branching/02-merging.md', doc_id: 'branching/merging', title: 'Merging', url: '/docs/branching/merging'}],
  },
  {
    key: 'collaboration',
    title: 'Working with Remotes',
    url: '/docs/collaboration',
    pages: [{path: '04-collaboration/01-remotes.md', doc_id: 'collaboration/remotes', title: 'Remotes', url: '/docs/collaboration/remotes'}],
  },
];
const doc: CurrentDoc = {id: 'branching/merging', title: 'Merging', permalink: '/docs/branching/merging', frontMatter: {}};

// Two places: one in the reader's chapter, one in another chapter (its page title differs from its heading).
const here = place();
const elsewhere = place({
  title: 'Remotes',
  section: 'Fetch versus pull',
  url: '/docs/collaboration/remotes#fetch-versus-pull',
  path: '04-collaboration/01-remotes.md',
  chapter: 'collaboration',
  chapter_title: 'Working with Remotes',
  excerpt: '`git pull` is **`git fetch`** followed by a merge. <b>not bold</b>',
});
const RELATED_SENTENCE = "I couldn't find a direct answer in the chapter “Branching and Merging”. These sections look closest:";

function mount(routes: Parameters<typeof fakeFetch>[0], navigate = vi.fn()) {
  const net = fakeFetch({'GET /api/chapters': () => json(chapters), ...routes});
  const transport = createTransport('http://api.test', net.fetch);
  render(<BookChat apiUrl="http://api.test" transport={transport} pathname={doc.permalink} doc={doc} navigate={navigate} storageKey={KEY} />);
  return {net, navigate};
}

async function ask(question: string, scope: 'This chapter' | 'Whole book' = 'Whole book') {
  fireEvent.click(screen.getByRole('button', {name: 'Ask the book'}));
  const input = await screen.findByRole('textbox', {name: 'Your question'});
  await waitFor(() => expect((screen.getByRole('radio', {name: 'This chapter'}) as HTMLInputElement).disabled).toBe(false));
  fireEvent.click(screen.getByRole('radio', {name: scope}));
  fireEvent.change(input, {target: {value: question}});
  fireEvent.keyDown(input, {key: 'Enter'});
  await screen.findByRole('button', {name: 'Copy answer'});
  return document.querySelector('.bookchat-msg-assistant') as HTMLElement;
}

/** The elements Tab visits inside `root`, in order (no positive tabindex is used anywhere). */
function tabbable(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('a[href], button, input, textarea, [tabindex]')].filter(
    (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled,
  );
}

function names(elements: HTMLElement[]): string[] {
  return elements.map((el) => el.getAttribute('aria-label') ?? el.textContent ?? '');
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('places in the book beside a grounded answer', () => {
  it('lists them under "Also in the book" after the sources, each linking to its heading with its sentences highlighted', async () => {
    const {navigate} = mount({'POST /api/query/stream': () => sseResponse(answerEvents({related: [elsewhere, here]}))});
    const reply = await ask('How do I get changes from the server?');
    expect(reply.getAttribute('data-status')).toBe('grounded');
    const sources = reply.querySelector('.bookchat-citations')!;
    const list = within(reply).getByRole('list', {name: 'Also in the book'});
    expect(sources.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Fetch versus pull', elsewhere.url],
      ['Aborting a merge', here.url],
    ]);
    const [first, second] = within(list).getAllByRole('listitem');
    // Another chapter than the reader's is named; the reader's own is not.
    expect(first.querySelector('.bookchat-related-where')?.textContent).toBe('Remotes · in “Working with Remotes”');
    expect(second.querySelector('.bookchat-related-where')?.textContent).toBe('Merging');
    // The excerpt is inline Markdown inside <mark>; its HTML stays text.
    const mark = first.querySelector('.bookchat-related-excerpt mark')!;
    expect(mark.querySelector('code')?.textContent).toBe('git pull');
    expect(mark.querySelector('strong code')?.textContent).toBe('git fetch');
    expect(mark.querySelector('b')).toBeNull();
    expect(mark.textContent).toContain('<b>not bold</b>');
    fireEvent.click(links[0]);
    expect(navigate).toHaveBeenCalledWith(elsewhere.url);
  });

  it('shows no "Also in the book" when there are none', async () => {
    mount({'POST /api/query/stream': () => sseResponse(answerEvents())});
    const reply = await ask('What is a fast-forward?');
    expect(reply.querySelector('.bookchat-citations')).not.toBeNull();
    expect(reply.textContent).not.toContain('Also in the book');
    expect(within(reply).queryByRole('list', {name: 'Also in the book'})).toBeNull();
  });

  it('keeps a keyboard order of sources, then places best first, then the answer actions', async () => {
    mount({'POST /api/query/stream': () => sseResponse(answerEvents({related: [elsewhere, here]}))});
    const reply = await ask('How do I get changes from the server?');
    expect(names(tabbable(reply))).toEqual([
      'Source 1: Fast-forward merges',
      citation.section,
      'Fetch versus pull',
      'Aborting a merge',
      'Copy answer',
      'Helpful',
      'Not helpful',
    ]);
    const link = within(reply).getByRole('link', {name: 'Fetch versus pull'});
    link.focus();
    expect(document.activeElement).toBe(link);
  });
});

describe('a related outcome', () => {
  it('shows the sentence and the closest sections instead of an answer: no sources, no short answer', async () => {
    const related = answerEvents(
      {
        mode: 'chapter',
        status: 'related',
        answer: RELATED_SENTENCE,
        citations: [],
        short_answer: 'should not show',
        confidence: 0.2,
        related: [here, place({section: 'Resolving conflicts', url: '/docs/branching/merging#resolving-conflicts', excerpt: '| `git merge --abort` | Return to before the merge |'}), elsewhere],
      },
      [RELATED_SENTENCE],
    );
    const {net} = mount({'POST /api/query/stream': () => sseResponse(related)});
    const reply = await ask('my merge went wrong, how do I go back?', 'This chapter');
    expect((net.calls.find((c) => c.method === 'POST')!.body as {mode: string}).mode).toBe('chapter');
    expect(reply.getAttribute('data-status')).toBe('related');
    expect(reply.classList.contains('bookchat-msg-related')).toBe(true);
    expect(reply.querySelector('.bookchat-md')?.textContent).toBe(RELATED_SENTENCE);
    expect(reply.querySelector('.bookchat-citations')).toBeNull();
    expect(reply.querySelector('.bookchat-short-answer')).toBeNull();
    expect(reply.textContent).not.toContain('Sources');
    expect(reply.textContent).not.toContain('Also in the book');
    expect(reply.textContent).not.toContain('Not covered');
    const list = within(reply).getByRole('list', {name: 'Closest sections of the book'});
    expect(within(list).getAllByRole('link').map((a) => a.textContent)).toEqual(['Aborting a merge', 'Resolving conflicts', 'Fetch versus pull']);
    // Asked of "Branching and Merging": only the place in another chapter names its chapter.
    const where = within(list).getAllByRole('listitem').map((li) => li.querySelector('.bookchat-related-where')?.textContent);
    expect(where).toEqual(['Merging', 'Merging', 'Remotes · in “Working with Remotes”']);
    // A table row of the book reads as text, not as pipes.
    const row = within(list).getAllByRole('listitem')[1].querySelector('mark')!;
    expect(row.textContent).toBe('git merge --abort: Return to before the merge');
    expect(row.querySelector('code')?.textContent).toBe('git merge --abort');
    expect(within(reply).getByRole('button', {name: 'Search the whole book'})).toBeTruthy();
    // Screen readers hear the sentence and which sections follow.
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(`Answer: ${RELATED_SENTENCE} Aborting a merge; Resolving conflicts; Fetch versus pull`),
    );
  });
});

describe('an abstention', () => {
  it('shows no places and no sources, even if some came with it', async () => {
    const abstained = answerEvents(
      {status: 'abstained', answer: 'The book does not cover this question.', citations: [], related: [here]},
      ['The book does not cover this question.'],
    );
    mount({'POST /api/query/stream': () => sseResponse(abstained)});
    const reply = await ask('What is a good recipe for sourdough bread?');
    expect(reply.getAttribute('data-status')).toBe('abstained');
    expect(reply.textContent).toContain('Not covered by the book');
    expect(within(reply).queryAllByRole('list')).toEqual([]);
    expect(within(reply).queryAllByRole('link')).toEqual([]);
    expect(reply.querySelector('mark')).toBeNull();
  });
});

describe('the places travel with the answer', () => {
  it('from the stream\'s final event and from the JSON answer', async () => {
    const net = fakeFetch({
      'POST /api/query/stream': () => sseResponse(answerEvents({status: 'related', answer: RELATED_SENTENCE, citations: [], related: [here, elsewhere]}, [RELATED_SENTENCE])),
      'POST /api/query': () => json(answer({related: [elsewhere]})),
    });
    const transport = createTransport('http://api.test', net.fetch);
    const hook = renderHook(() => useChat({transport, storageKey: KEY}));
    act(() => hook.result.current.send('why is my repo so big'));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(hook.result.current.messages[1]).toMatchObject({status: 'related', related: [here, elsewhere], citations: []});
    expect((await transport.query({question: 'q'})).related).toEqual([elsewhere]);
  });

  it('when a remembered conversation is reloaded', async () => {
    localStorage.setItem(KEY, 'conv-7');
    const stored = (id: string, extra: Record<string, unknown>) => ({
      id,
      created_at: 'now',
      mode: 'book',
      chapter: null,
      selection: null,
      generator: 'extractive',
      rating: null,
      ...extra,
    });
    mount({
      'GET /api/conversations/conv-7': () =>
        json({
          id: 'conv-7',
          created_at: 'now',
          messages: [
            stored('m1', {question: 'How do I get changes?', answer: 'Use fetch [1].', status: 'grounded', citations: [citation], related: [elsewhere]}),
            stored('m2', {question: 'why is my repo so big', answer: RELATED_SENTENCE, status: 'related', citations: [], related: [here, elsewhere]}),
          ],
        }),
    });
    fireEvent.click(screen.getByRole('button', {name: 'Ask the book'}));
    const also = await screen.findByRole('list', {name: 'Also in the book'});
    expect(within(also).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([elsewhere.url]);
    const closest = screen.getByRole('list', {name: 'Closest sections of the book'});
    expect(within(closest).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([here.url, elsewhere.url]);
    const answers = document.querySelectorAll('.bookchat-msg-assistant');
    expect([...answers].map((a) => a.getAttribute('data-status'))).toEqual(['grounded', 'related']);
    expect(answers[1].querySelector('.bookchat-citations')).toBeNull();
  });
});
