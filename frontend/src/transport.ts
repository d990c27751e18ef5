/**
 * The only module that talks to the network: JSON calls and the SSE answer stream of the
 * bookchat API, all over `fetch` so that every request can be cancelled with an AbortSignal.
 */
import {createParser} from 'eventsource-parser';
import type {
  Chapter,
  Edition,
  Conversation,
  QueryRequest,
  QueryResponse,
  Rating,
  StreamMeta,
} from './types';

/** An HTTP error answered by the API (or a failed connection, with `status` 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: unknown;
  /** Seconds from the `Retry-After` header of a 429, when present. */
  readonly retryAfter: number | null;

  constructor(status: number, detail: unknown, retryAfter: number | null = null) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/** The stream started but ended with an `error` event or without a `done` event. */
export class StreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamError';
  }
}

/** True for the error that `fetch` and our readers throw when their signal is aborted. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as {name?: unknown}).name === 'AbortError'
  );
}

/** One Server-Sent Event: its `event` name (default "message") and its joined `data` lines. */
export interface SSEEvent {
  event: string;
  data: string;
}

/**
 * Reads a byte stream as Server-Sent Events. Chunks may split events, lines, the CRLF pair and
 * multi-byte UTF-8 characters anywhere: the decoder keeps partial characters and
 * eventsource-parser keeps partial lines, so this loop only adds cancellation and the end of
 * the stream.
 */
export async function* parseSSE(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SSEEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const ready: SSEEvent[] = [];
  const parser = createParser({
    onEvent: (message) => ready.push({event: message.event || 'message', data: message.data}),
  });
  let lastChar = '';
  const onAbort = () => {
    reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (signal?.aborted) throw abortError();
      const {value, done} = await reader.read();
      if (signal?.aborted) throw abortError();
      const text = done ? decoder.decode() : decoder.decode(value, {stream: true});
      if (text) {
        parser.feed(text);
        lastChar = text[text.length - 1];
      }
      // The parser holds a final "\r" back until it knows whether "\n" follows; at the end of
      // the stream it was a line end of its own. (An unterminated last event is still dropped.)
      if (done && lastChar === '\r') parser.feed('\n');
      yield* ready.splice(0);
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock?.();
  }
}

function abortError(): Error {
  const error = new Error('The operation was aborted.');
  error.name = 'AbortError';
  return error;
}

/** Callbacks for the events of `/api/query/stream` that come before `done`. */
export interface StreamHandlers {
  onMeta?: (meta: StreamMeta) => void;
  onDelta?: (text: string) => void;
}

/** The bookchat API client; `fetchImpl` is injectable so tests fake only the network. */
export interface Transport {
  query(request: QueryRequest, signal?: AbortSignal): Promise<QueryResponse>;
  streamQuery(
    request: QueryRequest,
    handlers: StreamHandlers,
    signal?: AbortSignal,
  ): Promise<QueryResponse>;
  chapters(signal?: AbortSignal): Promise<Chapter[]>;
  getConversation(id: string, signal?: AbortSignal): Promise<Conversation>;
  deleteConversation(id: string, signal?: AbortSignal): Promise<void>;
  feedback(messageId: string, rating: Rating, comment?: string): Promise<void>;
}

/**
 * Creates a Transport for the API at `baseUrl` (e.g. "http://127.0.0.1:8000"). `edition` is read
 * at each request (the reader moves between versions and locales without a new transport).
 */
export function createTransport(
  baseUrl: string,
  fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
  edition: () => Edition = () => ({}),
): Transport {
  const root = baseUrl.replace(/\/+$/, '');

  // Only the fields that are set: an API without editions keeps accepting the request.
  function editionFields(): Edition {
    const {version, locale} = edition();
    return {...(version ? {version} : {}), ...(locale ? {locale} : {})};
  }

  async function request(
    path: string,
    init: RequestInit & {json?: unknown} = {},
  ): Promise<Response> {
    const {json, ...rest} = init;
    const headers: Record<string, string> = {Accept: 'application/json'};
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(`${root}${path}`, {
        ...rest,
        headers: {...headers, ...(rest.headers as Record<string, string> | undefined)},
        body: json === undefined ? rest.body : JSON.stringify(json),
      });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(0, null);
    }
    if (!response.ok) throw await toApiError(response);
    return response;
  }

  async function readJson<T>(response: Response): Promise<T> {
    try {
      return (await response.json()) as T;
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(response.status, null);
    }
  }

  return {
    async query(body, signal) {
      const response = await request('/api/query', {method: 'POST', json: {...body, ...editionFields()}, signal});
      return readJson<QueryResponse>(response);
    },

    async streamQuery(body, handlers, signal) {
      const response = await request('/api/query/stream', {
        method: 'POST',
        json: {...body, ...editionFields()},
        signal,
        headers: {Accept: 'text/event-stream'},
      });
      if (!response.body) throw new StreamError('The answer stream is empty.');
      for await (const message of parseSSE(response.body, signal)) {
        let payload: unknown;
        try {
          payload = JSON.parse(message.data);
        } catch {
          throw new StreamError('The answer stream is malformed.');
        }
        if (message.event === 'meta') handlers.onMeta?.(payload as StreamMeta);
        else if (message.event === 'delta') handlers.onDelta?.((payload as {text: string}).text ?? '');
        else if (message.event === 'done') return payload as QueryResponse;
        else if (message.event === 'error') {
          const detail = (payload as {detail?: unknown}).detail;
          throw new StreamError(typeof detail === 'string' ? detail : 'The answer failed.');
        }
      }
      throw new StreamError('The answer stream ended early.');
    },

    async chapters(signal) {
      const params = new URLSearchParams(editionFields() as Record<string, string>).toString();
      return readJson<Chapter[]>(await request(`/api/chapters${params ? `?${params}` : ''}`, {signal}));
    },

    async getConversation(id, signal) {
      const response = await request(`/api/conversations/${encodeURIComponent(id)}`, {signal});
      return readJson<Conversation>(response);
    },

    async deleteConversation(id, signal) {
      await request(`/api/conversations/${encodeURIComponent(id)}`, {method: 'DELETE', signal});
    },

    async feedback(messageId, rating, comment) {
      const json: Record<string, string> = {message_id: messageId, rating};
      if (comment) json.comment = comment;
      await request('/api/feedback', {method: 'POST', json});
    },
  };
}

async function toApiError(response: Response): Promise<ApiError> {
  let detail: unknown = null;
  try {
    detail = ((await response.json()) as {detail?: unknown}).detail ?? null;
  } catch {
    // Proxies answer with HTML pages: the status alone has to do.
  }
  return new ApiError(response.status, detail, parseRetryAfter(response.headers.get('Retry-After')));
}

/** Reads a Retry-After header (seconds or an HTTP date) as whole seconds from now. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
