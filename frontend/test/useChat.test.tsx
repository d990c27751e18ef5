import {act, renderHook, waitFor} from '@testing-library/react';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {createTransport} from '../src/transport';
import {useChat, type ChatStatus} from '../src/useChat';
import {answerEvents, citation, controllableStream, fakeFetch, json, sse, sseResponse} from './fakeNetwork';

const KEY = 'bookchat:test';

function setup(routes: Parameters<typeof fakeFetch>[0]) {
  const net = fakeFetch(routes);
  const transport = createTransport('http://api.test', net.fetch);
  const statuses: ChatStatus[] = [];
  const hook = renderHook(() => {
    const chat = useChat({transport, storageKey: KEY});
    if (statuses[statuses.length - 1] !== chat.status) statuses.push(chat.status);
    return chat;
  });
  return {net, hook, statuses};
}

const tick = () => new Promise((r) => setTimeout(r, 5));

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('useChat', () => {
  it('goes ready → submitted → streaming → ready and builds the answer from the stream', async () => {
    const body = controllableStream();
    const {hook, statuses, net} = setup({'POST /api/query/stream': () => sseResponse(body.stream)});
    act(() => hook.result.current.send('  What is a fast-forward?  ', {mode: 'chapter', chapter: 'branching'}));
    expect(hook.result.current.status).toBe('submitted');
    expect(hook.result.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const [meta, d1, d2, done] = answerEvents({mode: 'chapter'});
    await act(async () => {
      body.push(meta + d1);
      await tick();
    });
    expect(hook.result.current.status).toBe('streaming');
    expect(hook.result.current.messages[1].text).toBe('A fast-forward merge ');
    expect(hook.result.current.messages[1].complete).toBe(false);
    await act(async () => {
      body.push(d2 + done);
      body.close();
      await tick();
    });
    const chat = hook.result.current;
    expect(chat.status).toBe('ready');
    expect(statuses).toEqual(['ready', 'submitted', 'streaming', 'ready']);
    expect(chat.messages[0]).toMatchObject({role: 'user', text: 'What is a fast-forward?', mode: 'chapter'});
    expect(chat.messages[1]).toMatchObject({status: 'grounded', messageId: 'msg-1', complete: true, citations: [citation]});
    expect(chat.conversationId).toBe('conv-1');
    expect(localStorage.getItem(KEY)).toBe('conv-1');
    expect(net.calls[0].body).toEqual({question: 'What is a fast-forward?', mode: 'chapter', chapter: 'branching'});
  });

  it('sends follow-ups in the same conversation, and selection mode with its page', async () => {
    const {hook, net} = setup({'POST /api/query/stream': () => sseResponse(answerEvents())});
    act(() => hook.result.current.send('first'));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    act(() => hook.result.current.send('second', {mode: 'selection', selection: 'git merge --ff-only', page: '/docs/branching/merging'}));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(net.calls[1].body).toEqual({
      question: 'second',
      mode: 'selection',
      selection: 'git merge --ff-only',
      page: '/docs/branching/merging',
      conversation_id: 'conv-1',
    });
    expect(hook.result.current.messages).toHaveLength(4);
  });

  it('ends in error with a reader message, and regenerate retries the same question', async () => {
    const {hook, net} = setup({
      'POST /api/query/stream': [() => json({detail: 'boom'}, 500), () => sseResponse(answerEvents())],
    });
    act(() => hook.result.current.send('q', {mode: 'book'}));
    await waitFor(() => expect(hook.result.current.status).toBe('error'));
    expect(hook.result.current.error?.message).toMatch(/Something went wrong/);
    expect(hook.result.current.messages.map((m) => m.role)).toEqual(['user']);
    act(() => hook.result.current.regenerate());
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(hook.result.current.error).toBeNull();
    expect(hook.result.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(net.calls[1].body).toEqual({question: 'q', mode: 'book'});
  });

  it('reports a stream error event as an error status', async () => {
    const {hook} = setup({'POST /api/query/stream': () => sseResponse([sse('delta', {text: 'par'}), sse('error', {detail: 'x'})])});
    act(() => hook.result.current.send('q'));
    await waitFor(() => expect(hook.result.current.status).toBe('error'));
    expect(hook.result.current.error?.message).toMatch(/interrupted/);
  });

  it('says when to retry after a 429', async () => {
    const {hook} = setup({'POST /api/query/stream': () => json({detail: 'Rate limit exceeded'}, 429, {'Retry-After': '42'})});
    act(() => hook.result.current.send('q'));
    await waitFor(() => expect(hook.result.current.status).toBe('error'));
    expect(hook.result.current.error).toMatchObject({status: 429, retryAfter: 42});
    expect(hook.result.current.error?.message).toMatch(/42 seconds/);
  });

  it('stop() aborts the stream, keeps the partial answer and returns to ready', async () => {
    const body = controllableStream();
    const {hook, net} = setup({'POST /api/query/stream': () => sseResponse(body.stream)});
    act(() => hook.result.current.send('q'));
    const [meta, d1] = answerEvents();
    await act(async () => {
      body.push(meta + d1);
      await tick();
    });
    act(() => hook.result.current.stop());
    expect(hook.result.current.status).toBe('ready');
    expect(hook.result.current.messages[1]).toMatchObject({text: 'A fast-forward merge ', stopped: true, complete: true});
    expect(net.calls[0].signal?.aborted).toBe(true);
    await act(tick);
    expect(hook.result.current.status).toBe('ready');
  });

  it('stop() before any text drops the empty answer', async () => {
    const body = controllableStream();
    const {hook} = setup({'POST /api/query/stream': () => sseResponse(body.stream)});
    act(() => hook.result.current.send('q'));
    act(() => hook.result.current.stop());
    expect(hook.result.current.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('reloads the remembered conversation after a page refresh', async () => {
    localStorage.setItem(KEY, 'conv-9');
    const {hook, net} = setup({
      'GET /api/conversations/conv-9': () =>
        json({
          id: 'conv-9',
          created_at: 'now',
          messages: [
            {id: 'm1', created_at: 'now', question: 'Old question', mode: 'book', chapter: null, selection: null, answer: 'Old answer [1]', status: 'grounded', citations: [citation], generator: 'extractive', rating: 'up'},
          ],
        }),
    });
    await waitFor(() => expect(hook.result.current.messages).toHaveLength(2));
    expect(hook.result.current.messages[1]).toMatchObject({text: 'Old answer [1]', messageId: 'm1', rating: 'up'});
    expect(hook.result.current.conversationId).toBe('conv-9');
    expect(net.calls[0].url).toBe('http://api.test/api/conversations/conv-9');
  });

  it('starts fresh when the remembered conversation is gone (404)', async () => {
    localStorage.setItem(KEY, 'gone');
    const {hook} = setup({'GET /api/conversations/': () => json({detail: 'Unknown conversation'}, 404)});
    await waitFor(() => expect(localStorage.getItem(KEY)).toBeNull());
    expect(hook.result.current.conversationId).toBeNull();
    expect(hook.result.current.messages).toEqual([]);
  });

  it('continues in a new conversation when the server lost the current one', async () => {
    localStorage.setItem(KEY, 'lost');
    const {hook, net} = setup({
      'GET /api/conversations/': () => json({id: 'lost', created_at: 'now', messages: []}),
      'POST /api/query/stream': [() => json({detail: 'Unknown conversation'}, 404), () => sseResponse(answerEvents({conversation_id: 'fresh'}))],
    });
    await act(tick);
    act(() => hook.result.current.send('q'));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    const posts = net.calls.filter((c) => c.method === 'POST');
    expect((posts[0].body as {conversation_id?: string}).conversation_id).toBe('lost');
    expect((posts[1].body as {conversation_id?: string}).conversation_id).toBeUndefined();
    expect(localStorage.getItem(KEY)).toBe('fresh');
  });

  it('clear() forgets the conversation', async () => {
    const {hook} = setup({'POST /api/query/stream': () => sseResponse(answerEvents())});
    act(() => hook.result.current.send('q'));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    act(() => hook.result.current.clear());
    expect(hook.result.current.messages).toEqual([]);
    expect(hook.result.current.conversationId).toBeNull();
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('rate() posts feedback and rolls back when it fails', async () => {
    const {hook, net} = setup({
      'POST /api/query/stream': () => sseResponse(answerEvents()),
      'POST /api/feedback': [() => json(null, 204), () => json({detail: 'nope'}, 500)],
    });
    act(() => hook.result.current.send('q'));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    await act(() => hook.result.current.rate('msg-1', 'up'));
    expect(hook.result.current.messages[1].rating).toBe('up');
    await act(async () => {
      await hook.result.current.rate('msg-1', 'down').catch(() => undefined);
    });
    expect(hook.result.current.messages[1].rating).toBe('up');
    expect(net.calls.filter((c) => c.url.endsWith('/api/feedback')).map((c) => c.body)).toEqual([
      {message_id: 'msg-1', rating: 'up'},
      {message_id: 'msg-1', rating: 'down'},
    ]);
  });

  it('shows the authoritative done answer when it differs from the streamed text', async () => {
    const {hook} = setup({'POST /api/query/stream': () => sseResponse(answerEvents({answer: 'Fixed.', status: 'abstained', citations: []}))});
    act(() => hook.result.current.send('q'));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(hook.result.current.messages[1]).toMatchObject({text: 'Fixed.', status: 'abstained', citations: []});
  });

  it('ignores blank questions', () => {
    const {hook, net} = setup({});
    act(() => hook.result.current.send('   '));
    expect(hook.result.current.status).toBe('ready');
    expect(net.calls).toHaveLength(0);
  });
});

