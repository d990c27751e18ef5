import {cleanup, fireEvent, render, screen, waitFor} from '@testing-library/react';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {BookChat} from '../src/components/BookChat';
import {DEFAULT_LABELS} from '../src/labels';
import {parseShortcut} from '../src/shortcut';
import {createTransport} from '../src/transport';
import type {Chapter, CurrentDoc, Edition} from '../src/types';
import {answerEvents, citation, fakeFetch, json, sseResponse} from './fakeNetwork';

const chapters: Chapter[] = [
  {key: 'start', title: 'Getting Started', url: '/docs/1.0/getting-started', pages: [{path: 'a.md', doc_id: 'getting-started/installing-git', title: 'Installing Git', url: '/docs/1.0/getting-started/installing-git'}]},
];
const doc: CurrentDoc = {id: 'getting-started/installing-git', title: 'Installing Git', permalink: '/docs/1.0/getting-started/installing-git', frontMatter: {}, version: '1.0'};

function net() {
  return fakeFetch({
    'GET /api/chapters': () => json(chapters),
    'POST /api/query/stream': () => sseResponse(answerEvents({notice: 'This answer comes from the en text.'})),
  });
}

/** Mounts BookChat with its own transport (as the theme does), on the fake network. */
function mount(network: ReturnType<typeof fakeFetch>, props: {edition?: Edition; labels?: Partial<typeof DEFAULT_LABELS>; shortcut?: string | false} = {}) {
  vi.stubGlobal('fetch', network.fetch);
  const view = render(<BookChat apiUrl="http://api.test" pathname={doc.permalink} doc={doc} storageKey="bookchat:editions-test" {...props} />);
  return {view, rerender: (next: typeof props) => view.rerender(<BookChat apiUrl="http://api.test" pathname={doc.permalink} doc={doc} storageKey="bookchat:editions-test" {...next} />)};
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the edition the reader is on', () => {
  it('goes with every question and with the chapter list, and follows the reader to another version', async () => {
    const network = net();
    const {rerender} = mount(network, {edition: {version: '1.0', locale: 'fr'}});
    fireEvent.click(screen.getByRole('button', {name: 'Ask the book'}));
    const input = await screen.findByRole('textbox', {name: 'Your question'});
    await waitFor(() => expect(network.calls.some((c) => c.url === 'http://api.test/api/chapters?version=1.0&locale=fr')).toBe(true));
    fireEvent.change(input, {target: {value: 'Which Git version?'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    await screen.findByText(/moves the pointer/);
    expect(network.calls.find((c) => c.method === 'POST')?.body).toMatchObject({question: 'Which Git version?', version: '1.0', locale: 'fr'});

    rerender({edition: {version: 'current', locale: 'fr'}});
    await waitFor(() => expect(network.calls.some((c) => c.url === 'http://api.test/api/chapters?version=current&locale=fr')).toBe(true));
  });

  it('sends no edition fields when none is known (an API without editions keeps working)', async () => {
    const network = fakeFetch({'POST /api/query': () => json({answer: 'x', status: 'grounded', mode: 'book', citations: [citation]})});
    await createTransport('http://api.test', network.fetch).query({question: 'q', mode: 'book'});
    await createTransport('http://api.test', network.fetch).chapters().catch(() => undefined);
    expect(network.calls[0].body).toEqual({question: 'q', mode: 'book'});
    expect(network.calls[1].url).toBe('http://api.test/api/chapters');
  });

  it('shows the untranslated-page notice in the reader\'s language', async () => {
    const network = net();
    mount(network, {edition: {locale: 'fr'}, labels: {launcher: 'Interroger le livre', yourQuestion: 'Votre question', untranslated: 'Texte original : page non traduite.'}});
    fireEvent.click(screen.getByRole('button', {name: 'Interroger le livre'}));
    const input = await screen.findByRole('textbox', {name: 'Votre question'});
    fireEvent.change(input, {target: {value: 'Comment rebaser ?'}});
    fireEvent.keyDown(input, {key: 'Enter'});
    expect((await screen.findByText('Texte original : page non traduite.')).getAttribute('title')).toBe('This answer comes from the en text.');
  });
});

describe('the keyboard shortcut', () => {
  it('parses mod as ⌘ on Apple systems and Ctrl elsewhere, and rejects unknown modifiers', () => {
    const mac = parseShortcut('mod+i', true)!;
    const pc = parseShortcut('mod+i', false)!;
    expect(mac.label).toBe('⌘I');
    expect(pc.label).toBe('Ctrl+I');
    const key = (init: KeyboardEventInit) => new KeyboardEvent('keydown', {key: 'i', ...init});
    expect(mac.matches(key({metaKey: true}))).toBe(true);
    expect(mac.matches(key({ctrlKey: true}))).toBe(false);
    expect(pc.matches(key({ctrlKey: true}))).toBe(true);
    expect(pc.matches(key({ctrlKey: true, shiftKey: true}))).toBe(false);
    expect(pc.matches(new KeyboardEvent('keydown', {key: 'k', ctrlKey: true}))).toBe(false);
    expect(parseShortcut('hyper+i', false)).toBeNull();
    expect(parseShortcut(false)).toBeNull();
  });

  it('opens the panel with the input focused; Ctrl+K (the search bar) does not', async () => {
    mount(net(), {shortcut: 'ctrl+i'});
    fireEvent.keyDown(window, {key: 'k', ctrlKey: true});
    expect(screen.queryByRole('textbox', {name: 'Your question'})).toBeNull();
    fireEvent.keyDown(window, {key: 'i', ctrlKey: true});
    const input = await screen.findByRole('textbox', {name: 'Your question'});
    await waitFor(() => expect(document.activeElement).toBe(input));
  });

  it('can be turned off', () => {
    mount(net(), {shortcut: false});
    fireEvent.keyDown(window, {key: 'i', ctrlKey: true});
    expect(screen.queryByRole('textbox', {name: 'Your question'})).toBeNull();
    expect(screen.getByRole('button', {name: 'Ask the book'}).getAttribute('aria-keyshortcuts')).toBeNull();
  });
});
