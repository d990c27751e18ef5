import {ApiError, StreamError} from './transport';

/** An error as the reader sees it: a sentence, plus the wait a 429 asked for. */
export interface ChatError {
  message: string;
  status: number;
  retryAfter: number | null;
}

const GENERIC = 'Something went wrong while answering. Please try again.';

/**
 * Turns any failure into reader-facing text. Server details are shown only where the API writes
 * them for readers (400s about the request); others (stack-ish 5xx texts, the 404 that names an
 * endpoint, 422 lists) would confuse or leak, so they get fixed sentences.
 */
export function toChatError(error: unknown): ChatError {
  if (error instanceof ApiError) {
    const {status, detail, retryAfter} = error;
    if (status === 429) {
      const wait = retryAfter ?? null;
      return {
        status,
        retryAfter: wait,
        message:
          wait === null
            ? 'Too many questions in a short time. Please wait a moment and try again.'
            : `Too many questions in a short time. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
      };
    }
    if (status === 0) {
      return {status, retryAfter: null, message: 'Could not reach the book assistant. Check your connection and try again.'};
    }
    if (status === 400 && typeof detail === 'string' && detail.length <= 300) {
      return {status, retryAfter: null, message: detail};
    }
    if (status === 422) {
      return {status, retryAfter: null, message: 'The question could not be sent: it may be empty or too long (2,000 characters at most).'};
    }
    if (status === 404) {
      return {status, retryAfter: null, message: 'That chapter or conversation no longer exists. Start a new conversation or search the whole book.'};
    }
    if (status === 503) {
      return {status, retryAfter: null, message: 'The book assistant is not available right now. Please try again later.'};
    }
    return {status, retryAfter: null, message: GENERIC};
  }
  if (error instanceof StreamError) {
    return {status: 200, retryAfter: null, message: 'The answer was interrupted. Please try again.'};
  }
  return {status: -1, retryAfter: null, message: GENERIC};
}
