import {describe, expect, it} from 'vitest';
import {toChatError} from '../src/errors';
import {ApiError, StreamError, createTransport, isAbortError, parseRetryAfter, parseSSE, type SSEEvent} from '../src/transport';
import {answer, answerEvents, chunkedStream, controllableStream, fakeFetch, json, sse, sseResponse} from './fakeNetwork';

const API = 'http://api.test';

async function collect(stream: ReadableStream<Uint8Array>): Promise<SSEEvent[]> {
  const events: SSEEvent[] = [];
  for await (const e of parseSSE(stream)) events.push(e);
  return events;
}

describe('parseSSE', () => {
  const text = 'event: meta\ndata: {"a":1}\n\n: keep-alive comment\n\nevent: delta\r\ndata: {"text":"héllo ✓ 🎉"}\r\n\r\nevent: done\rdata: line1\rdata: line2\r\r';
  const expected = [
    {event: 'meta', data: '{"a":1}'},
    {event: 'delta', data: '{"text":"héllo ✓ 🎉"}'},
    {event: 'done', data: 'line1\nline2'},
  ];

  it('parses events, comments, CRLF/CR line ends and multi-line data', async () => {
    expect(await collect(chunkedStream([text]))).toEqual(expected);
  });

  it('gives the same events whatever the byte boundary between two chunks', async () => {
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const events = await collect(chunkedStream([bytes.slice(0, cut), bytes.slice(cut)]));
      expect(events, `cut at byte ${cut}`).toEqual(expected);
    }
  });

  it('survives one byte per chunk (split UTF-8 characters and CRLF pairs)', async () => {
    const bytes = new TextEncoder().encode(text);
    const chunks = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(await collect(chunkedStream(chunks))).toEqual(expected);
  });

  it('drops an unterminated last event and events without data', async () => {
    expect(await collect(chunkedStream(['event: ping\n\n', 'event: meta\ndata: {}']))).toEqual([]);
  });
});

describe('createTransport().streamQuery', () => {
  it('posts the request and reports meta, deltas and the authoritative done payload', async () => {
    const net = fakeFetch({'POST /api/query/stream': () => sseResponse(answerEvents({answer: 'Corrected [1].'}))});
    const transport = createTransport(`${API}/`, net.fetch);
    const deltas: string[] = [];
    let metaStatus = '';
    const done = await transport.streamQuery(
      {question: 'What is a fast-forward?', mode: 'book'},
      {onMeta: (m) => (metaStatus = m.status), onDelta: (t) => deltas.push(t)},
    );
    expect(net.calls[0].url).toBe(`${API}/api/query/stream`);
    expect(net.calls[0].body).toEqual({question: 'What is a fast-forward?', mode: 'book'});
    expect(metaStatus).toBe('grounded');
    expect(deltas.join('')).toBe('A fast-forward merge moves the pointer [1].');
    expect(done.answer).toBe('Corrected [1].');
  });

  it('parses events split across arbitrary network chunks', async () => {
    const whole = answerEvents().join('');
    const chunks = whole.match(/[\s\S]{1,7}/g)!;
    const net = fakeFetch({'POST /api/query/stream': () => sseResponse(chunks)});
    const deltas: string[] = [];
    const done = await createTransport(API, net.fetch).streamQuery({question: 'q'}, {onDelta: (t) => deltas.push(t)});
    expect(deltas).toEqual(['A fast-forward merge ', 'moves the pointer [1].']);
    expect(done.message_id).toBe('msg-1');
  });

  it('turns an error event into a StreamError with its detail', async () => {
    const net = fakeFetch({'POST /api/query/stream': () => sseResponse([sse('meta', {}), sse('error', {detail: 'generator crashed'})])});
    const promise = createTransport(API, net.fetch).streamQuery({question: 'q'}, {});
    await expect(promise).rejects.toBeInstanceOf(StreamError);
    await expect(promise).rejects.toThrow('generator crashed');
  });

  it('fails when the stream ends without done', async () => {
    const net = fakeFetch({'POST /api/query/stream': () => sseResponse([sse('delta', {text: 'half'})])});
    await expect(createTransport(API, net.fetch).streamQuery({question: 'q'}, {})).rejects.toThrow(/ended early/);
  });

  it('is aborted mid-stream by its signal', async () => {
    const body = controllableStream();
    const net = fakeFetch({'POST /api/query/stream': () => sseResponse(body.stream)});
    const controller = new AbortController();
    const deltas: string[] = [];
    const promise = createTransport(API, net.fetch).streamQuery({question: 'q'}, {onDelta: (t) => deltas.push(t)}, controller.signal);
    body.push(sse('delta', {text: 'first'}));
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const error = await promise.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(deltas).toEqual(['first']);
    expect(net.calls[0].signal).toBe(controller.signal);
  });

  it('rejects with AbortError when aborted before the request', async () => {
    const controller = new AbortController();
    controller.abort();
    const net = fakeFetch({'POST /api/query/stream': () => sseResponse(answerEvents())});
    const error = await createTransport(API, net.fetch).streamQuery({question: 'q'}, {}, controller.signal).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });

  it('reports a 429 with its Retry-After before the stream starts', async () => {
    const net = fakeFetch({
      'POST /api/query/stream': () => json({detail: 'Rate limit exceeded: 20 per 1 minute. Try again in 7 seconds.'}, 429, {'Retry-After': '7'}),
    });
    const error = (await createTransport(API, net.fetch).streamQuery({question: 'q'}, {}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(7);
    expect(toChatError(error).message).toBe('Too many questions in a short time. Try again in 7 seconds.');
  });

  it('maps a refused connection to status 0', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const error = (await createTransport(API, failing).query({question: 'q'}).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(toChatError(error).message).toMatch(/Could not reach/);
  });
});

describe('error messages for readers', () => {
  it('shows a 400 detail, but never 5xx texts, 422 lists or the endpoint-naming 404', () => {
    expect(toChatError(new ApiError(400, 'mode "chapter" needs a chapter')).message).toBe('mode "chapter" needs a chapter');
    expect(toChatError(new ApiError(500, 'Traceback: KeyError')).message).not.toMatch(/Traceback/);
    expect(toChatError(new ApiError(422, [{loc: ['body', 'question'], msg: 'too long'}])).message).toMatch(/2,000/);
    expect(toChatError(new ApiError(404, 'Unknown chapter: see GET /api/chapters')).message).not.toMatch(/GET/);
    expect(toChatError(new ApiError(503, 'The book has not been indexed yet: run bookchat ingest')).message).not.toMatch(/ingest/);
    expect(toChatError(new ApiError(429, 'x', null)).message).toMatch(/wait a moment/);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(new Date(1_000_000 + 30_000).toUTCString(), 1_000_000)).toBe(30);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});

describe('JSON endpoints', () => {
  it('queries, lists chapters, loads and deletes conversations and sends feedback', async () => {
    const net = fakeFetch({
      'POST /api/query/stream': () => json({detail: 'unused'}, 500),
      'POST /api/query': () => json(answer()),
      'GET /api/chapters': () => json([{key: 'branching', title: 'Branching', url: '/docs/branching', pages: []}]),
      'GET /api/conversations/': () => json({id: 'c 1', created_at: 'now', messages: []}),
      'DELETE /api/conversations/': () => json(null, 204),
      'POST /api/feedback': () => json(null, 204),
    });
    const t = createTransport(API, net.fetch);
    expect((await t.query({question: 'q'})).status).toBe('grounded');
    expect((await t.chapters())[0].key).toBe('branching');
    expect((await t.getConversation('c 1')).id).toBe('c 1');
    await t.deleteConversation('c 1');
    await t.feedback('msg-1', 'up');
    expect(net.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      'POST /api/query',
      'GET /api/chapters',
      'GET /api/conversations/c%201',
      'DELETE /api/conversations/c%201',
      'POST /api/feedback',
    ]);
    expect(net.calls[4].body).toEqual({message_id: 'msg-1', rating: 'up'});
  });

  it('keeps the detail of an error response', async () => {
    const net = fakeFetch({'POST /api/feedback': () => json({detail: 'Unknown message'}, 404)});
    const error = (await createTransport(API, net.fetch).feedback('nope', 'down').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(404);
    expect(error.detail).toBe('Unknown message');
  });
});
