// A fake network for tests: only `fetch` is replaced; every module under test is real.

const encoder = new TextEncoder();

/** A pushable SSE body: tests decide when each chunk arrives and when the stream ends. */
export function controllableStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    push(text: string | Uint8Array) {
      controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text);
    },
    close() {
      controller.close();
    },
  };
}

/** A body that yields the given chunks in order. */
export function chunkedStream(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      c.close();
    },
  });
}

/** Formats one SSE event. */
export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: {'Content-Type': 'application/json', ...headers},
  });
}

/** An SSE response. */
export function sseResponse(body: ReadableStream<Uint8Array> | Array<string | Uint8Array>): Response {
  return new Response(Array.isArray(body) ? chunkedStream(body) : body, {
    status: 200,
    headers: {'Content-Type': 'text/event-stream'},
  });
}

export interface Call {
  url: string;
  method: string;
  body: unknown;
  signal?: AbortSignal | null;
}

type Handler = (call: Call) => Response | Promise<Response>;

/** A fake fetch routing "METHOD /path" (prefix match on the path) to handlers, recording calls. */
export function fakeFetch(routes: Record<string, Handler | Handler[]>) {
  const calls: Call[] = [];
  const queues = new Map(Object.entries(routes).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));
  const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const call: Call = {url, method, body: init.body ? JSON.parse(String(init.body)) : undefined, signal: init.signal};
    calls.push(call);
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const path = new URL(url).pathname;
    const key = [...queues.keys()].find((k) => {
      const [m, p] = k.split(' ');
      return m === method && path.startsWith(p);
    });
    if (!key) return json({detail: 'Not Found'}, 404);
    const entry = queues.get(key)!;
    const handler = Array.isArray(entry) ? (entry.length > 1 ? entry.shift()! : entry[0]) : entry;
    return handler(call);
  }) as typeof fetch;
  return {fetch: fetchImpl, calls};
}

export const citation = {
  index: 1,
  chunk_id: 'c1',
  path: '03-branching/02-merging.md',
  doc_id: 'branching/merging',
  chapter: 'branching',
  chapter_title: 'Branching and Merging',
  section: 'Fast-forward merges',
  url: '/docs/branching/merging#fast-forward-merges',
  excerpt: 'A fast-forward merge moves the branch pointer.',
  score: 0.7,
};

/** A complete `/api/query` response. */
export function answer(overrides: Record<string, unknown> = {}) {
  return {
    answer: 'A fast-forward merge moves the pointer [1].',
    status: 'grounded',
    mode: 'book',
    citations: [citation],
    confidence: 0.8,
    generator: 'extractive',
    model: null,
    hallucination_flag: false,
    unsupported_sentences: [],
    suggested_chapter: null,
    warnings: [],
    corpus_version: 'v1',
    conversation_id: 'conv-1',
    message_id: 'msg-1',
    latency_ms: 5,
    ...overrides,
  };
}

/** The SSE events of a full streamed answer. */
export function answerEvents(overrides: Record<string, unknown> = {}, deltas = ['A fast-forward merge ', 'moves the pointer [1].']) {
  const done = answer(overrides);
  return [
    sse('meta', {
      mode: done.mode,
      status: done.status,
      citations: done.citations,
      conversation_id: done.conversation_id,
      message_id: done.message_id,
      corpus_version: 'v1',
      generator: 'extractive',
    }),
    ...deltas.map((text) => sse('delta', {text})),
    sse('done', done),
  ];
}

/** A place in the book near the question (an entry of a response's `related`). */
export function place(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Merging',
    section: 'Aborting a merge',
    url: '/docs/branching/merging#aborting-a-merge',
    path: '03-branching/02-merging.md',
    chapter: 'branching',
    chapter_title: 'Branching and Merging',
    excerpt: '`git merge --abort` returns to the state before the merge.',
    score: 0.52,
    ...overrides,
  };
}
