import {DEFAULT_LABELS, fill, type Labels} from './labels';
import {ApiError, StreamError} from './transport';

/** An error as the reader sees it: a sentence, plus the wait a 429 asked for. */
export interface ChatError {
  message: string;
  status: number;
  retryAfter: number | null;
}

/**
 * Turns any failure into reader-facing text. Server details are shown only where the API writes
 * them for readers (400s about the request); others (stack-ish 5xx texts, the 404 that names an
 * endpoint, 422 lists) would confuse or leak, so they get fixed sentences.
 */
export function toChatError(error: unknown, labels: Labels = DEFAULT_LABELS): ChatError {
  if (error instanceof ApiError) {
    const {status, detail, retryAfter} = error;
    if (status === 429) {
      const wait = retryAfter ?? null;
      return {
        status,
        retryAfter: wait,
        message:
          wait === null
            ? labels.errorRateLimited
            : wait === 1
              ? labels.errorRateLimitedWaitOne
              : fill(labels.errorRateLimitedWait, {seconds: wait}),
      };
    }
    if (status === 0) {
      return {status, retryAfter: null, message: labels.errorOffline};
    }
    if (status === 400 && typeof detail === 'string' && detail.length <= 300) {
      return {status, retryAfter: null, message: detail};
    }
    if (status === 422) {
      return {status, retryAfter: null, message: labels.errorInvalid};
    }
    if (status === 404) {
      return {status, retryAfter: null, message: labels.errorNotFound};
    }
    if (status === 503) {
      return {status, retryAfter: null, message: labels.errorUnavailable};
    }
    return {status, retryAfter: null, message: labels.errorGeneric};
  }
  if (error instanceof StreamError) {
    return {status: 200, retryAfter: null, message: labels.errorInterrupted};
  }
  return {status: -1, retryAfter: null, message: labels.errorGeneric};
}
