import {cleanup, render} from '@testing-library/react';
import {afterEach, describe, expect, it} from 'vitest';
import {MessageView} from '../src/components/MessageView';
import {answerFromResponse, messagesFromHistory, type ChatMessage} from '../src/messages';
import type {QueryResponse, StoredMessage} from '../src/types';
import {answer, citation} from './fakeNetwork';

afterEach(cleanup);

const SPAN = 'Git 2.23 or newer';

function response(overrides: Record<string, unknown> = {}): QueryResponse {
  return answer({answer: '> You need Git 2.23 or newer [1].', ...overrides}) as QueryResponse;
}

function stored(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return {
    id: 'm1',
    created_at: 'now',
    question: 'Which Git do I need?',
    mode: 'book',
    chapter: null,
    selection: null,
    answer: 'You need Git 2.23 or newer [1].',
    status: 'grounded',
    citations: [citation],
    generator: 'extractive',
    rating: null,
    ...overrides,
  };
}

function renderAnswer(message: ChatMessage) {
  return render(<MessageView message={message} />).container;
}

describe('the short answer', () => {
  it('is carried from a live response and from a stored conversation', () => {
    expect(answerFromResponse('a1', response({short_answer: SPAN})).shortAnswer).toBe(SPAN);
    expect(answerFromResponse('a1', response()).shortAnswer).toBeNull();
    const [, reloaded] = messagesFromHistory([stored({short_answer: SPAN})]);
    expect(reloaded.shortAnswer).toBe(SPAN);
    const [, older] = messagesFromHistory([stored()]);
    expect(older.shortAnswer).toBeNull();
  });

  it('is shown first, in bold, before the quoted answer and its citations', () => {
    const container = renderAnswer(answerFromResponse('a1', response({short_answer: SPAN})));
    const shown = container.querySelector('.bookchat-short-answer');
    expect(shown?.querySelector('strong')?.textContent).toBe(SPAN);
    const quote = container.querySelector('.bookchat-md blockquote')!;
    const citations = container.querySelector('.bookchat-citations')!;
    expect(quote.textContent).toContain('You need Git 2.23 or newer');
    expect(shown!.compareDocumentPosition(quote) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(shown!.compareDocumentPosition(citations) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // First in the answer: nothing of the answer comes before it.
    expect(container.querySelector('.bookchat-msg-assistant')?.firstElementChild).toBe(shown);
  });

  it('shows nothing extra when the answer has none', () => {
    const container = renderAnswer(answerFromResponse('a1', response()));
    expect(container.querySelector('.bookchat-short-answer')).toBeNull();
    expect(container.querySelector('.bookchat-msg-assistant')?.firstElementChild?.className).toBe('bookchat-md');
    expect(container.querySelector('strong')).toBeNull();
  });

  it('is not shown on an abstention, even if one came with it', () => {
    const abstained = response({status: 'abstained', citations: [], answer: 'The book does not cover this.', short_answer: SPAN});
    const container = renderAnswer(answerFromResponse('a1', abstained));
    expect(container.querySelector('.bookchat-short-answer')).toBeNull();
    expect(container.textContent).not.toContain(SPAN);
  });
});
