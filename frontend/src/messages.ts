import type {
  AnswerStatus,
  QueryRequest,
  Citation,
  Mode,
  QueryResponse,
  Rating,
  RelatedSection,
  StoredMessage,
  SuggestedChapter,
} from './types';

/** One entry of the conversation, shaped like the AI SDK's UIMessage plus bookchat's fields. */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  /** The question, or the answer's Markdown. */
  text: string;
  /** Answers only: the reader's predicted answer span, shown in bold above a grounded answer. */
  shortAnswer?: string | null;
  mode: Mode;
  chapter?: string;
  selection?: string;
  page?: string;
  /** Answers only: grounded, related or abstained (provisional until `complete`). */
  status?: AnswerStatus;
  citations: Citation[];
  /** Answers only: places in the book beside the answer, or instead of it when `related`. */
  related?: RelatedSection[];
  suggestedChapter?: SuggestedChapter | null;
  warnings?: string[];
  /** The server's note that the answer quotes the untranslated (default-locale) text. */
  notice?: string | null;
  /** The server's message id, needed for feedback. */
  messageId?: string;
  rating?: Rating | null;
  /** False while the answer streams in. */
  complete: boolean;
  /** True when the reader stopped the answer before it finished. */
  stopped?: boolean;
}

/** Options of one question: its scope and, in selection mode, the quoted text and its page. */
export interface SendOptions {
  mode?: Mode;
  chapter?: string;
  selection?: string;
  page?: string;
}

let counter = 0;

/** Returns a client-side id, unique within this page load. */
export function localId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/** Builds the reader's message from what was sent. */
export function userMessage(question: string, options: SendOptions): ChatMessage {
  return {
    id: localId('u'),
    role: 'user',
    text: question,
    mode: options.mode ?? 'book',
    chapter: options.chapter,
    selection: options.selection,
    page: options.page,
    citations: [],
    complete: true,
  };
}

/** Builds a finished answer from the authoritative response (`done` or `/api/query`). */
export function answerFromResponse(id: string, response: QueryResponse): ChatMessage {
  return {
    id,
    role: 'assistant',
    text: response.answer,
    shortAnswer: response.short_answer ?? null,
    mode: response.mode,
    status: response.status,
    citations: response.citations ?? [],
    related: response.related ?? [],
    suggestedChapter: response.suggested_chapter ?? null,
    warnings: response.warnings ?? [],
    notice: response.notice ?? null,
    messageId: response.message_id,
    rating: null,
    complete: true,
  };
}

/** Rebuilds the question/answer pairs of a conversation loaded from the server. */
export function messagesFromHistory(stored: StoredMessage[]): ChatMessage[] {
  return stored.flatMap((m) => [
    {
      id: `${m.id}-q`,
      role: 'user' as const,
      text: m.question,
      mode: m.mode,
      chapter: m.chapter ?? undefined,
      selection: m.selection ?? undefined,
      citations: [],
      complete: true,
    },
    {
      id: `${m.id}-a`,
      role: 'assistant' as const,
      text: m.answer,
      shortAnswer: m.short_answer ?? null,
      mode: m.mode,
      chapter: m.chapter ?? undefined,
      status: m.status,
      citations: m.citations ?? [],
      related: m.related ?? [],
      suggestedChapter: m.suggested_chapter ?? null,
      messageId: m.id,
      rating: m.rating ?? null,
      complete: true,
    },
  ]);
}

/** Builds the API request for a question; fields the mode does not use are left out. The page
 * goes with every mode: an overview of "this page" is answered from it. */
export function buildRequest(question: string, options: SendOptions): QueryRequest {
  const request: QueryRequest = {question, mode: options.mode ?? 'book'};
  if (request.mode === 'chapter') request.chapter = options.chapter;
  if (request.mode === 'selection') request.selection = options.selection;
  if (options.page) request.page = options.page;
  return request;
}
