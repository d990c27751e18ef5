import React, {useEffect, useLayoutEffect, useRef, useState} from 'react';
import type {ChatError} from '../errors';
import {fill, useLabels} from '../labels';
import type {ChatMessage} from '../messages';
import type {Rating} from '../types';
import type {ChatStatus} from '../useChat';
import {Composer} from './Composer';
import {MessageView} from './MessageView';
import {ScopeSwitch, type Scope} from './ScopeSwitch';

/** Props of ChatPanel. */
export interface ChatPanelProps {
  title: string;
  messages: ChatMessage[];
  status: ChatStatus;
  error: ChatError | null;
  scope: Scope;
  onScopeChange: (scope: Scope) => void;
  chapterTitle: string | null;
  /** The key of the chapter the reader's page is in, if any. */
  chapterKey?: string;
  quote: string | null;
  onRemoveQuote: () => void;
  onSend: (question: string) => void;
  onStop: () => void;
  onRetry: () => void;
  onNewConversation: () => void;
  onSearchBook: (question: ChatMessage) => void;
  onRate: (messageId: string, rating: Rating) => Promise<void>;
  onClose: () => void;
  onNavigated: () => void;
  inputRef: React.RefObject<HTMLTextAreaElement | null>;
}

/** The chat panel: a side panel on wide screens, full screen on phones (see styles.css). */
export function ChatPanel(props: ChatPanelProps): React.JSX.Element {
  const {messages, status, error, inputRef} = props;
  const listRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const busy = status === 'submitted' || status === 'streaming';
  const labels = useLabels();
  const announcement = useAnnouncement(messages, status);

  // Follow the streaming answer unless the reader scrolled up to read something else.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && stickToBottom.current) list.scrollTop = list.scrollHeight;
  }, [messages, status]);

  useEffect(() => {
    inputRef.current?.focus();
  }, [inputRef]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      props.onClose();
    }
  };

  return (
    <section
      id="bookchat-panel"
      className="bookchat-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby="bookchat-panel-title"
      onKeyDown={onKeyDown}>
      <header className="bookchat-header">
        <h2 id="bookchat-panel-title" className="bookchat-title">
          {props.title}
        </h2>
        <button
          type="button"
          className="bookchat-btn bookchat-btn-small"
          onClick={props.onNewConversation}
          disabled={messages.length === 0 && !busy}>
          {labels.newConversation}
        </button>
        <button type="button" className="bookchat-btn bookchat-btn-icon" onClick={props.onClose} aria-label={labels.close} title={labels.closeHint}>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path fill="currentColor" d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7l1.4-1.4 6.3 6.3 6.3-6.3z" />
          </svg>
        </button>
      </header>
      <ScopeSwitch
        scope={props.scope}
        onChange={props.onScopeChange}
        chapterTitle={props.chapterTitle}
        disabled={props.quote !== null}
      />
      <div
        className="bookchat-messages"
        ref={listRef}
        onScroll={(event) => {
          const el = event.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}>
        {messages.length === 0 ? (
          <div className="bookchat-empty">
            <p>{labels.emptyIntro}</p>
            <p>{labels.emptyTip}</p>
          </div>
        ) : (
          messages.map((message, i) => (
            <MessageView
              key={message.id}
              message={message}
              question={message.role === 'assistant' ? messages[i - 1] : undefined}
              onSearchBook={props.onSearchBook}
              onRate={props.onRate}
              onNavigated={props.onNavigated}
              readerChapter={props.chapterKey}
            />
          ))
        )}
        {error ? (
          <div className="bookchat-error" role="alert">
            <p>{error.message}</p>
            <button type="button" className="bookchat-btn bookchat-btn-primary" onClick={props.onRetry}>
              {labels.retry}
            </button>
          </div>
        ) : null}
      </div>
      <div className="bookchat-sr" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
      <Composer
        ref={inputRef}
        busy={busy}
        quote={props.quote}
        onRemoveQuote={props.onRemoveQuote}
        onSend={props.onSend}
        onStop={props.onStop}
      />
    </section>
  );
}

/** Announces finished answers once, not every streamed fragment (screen readers would stutter). */
function useAnnouncement(messages: ChatMessage[], status: ChatStatus): string {
  const labels = useLabels();
  const [text, setText] = useState('');
  const previous = useRef(status);
  const last = messages[messages.length - 1];
  const key = last && last.role === 'assistant' && last.complete ? last.id : null;
  useEffect(() => {
    const wasBusy = previous.current === 'submitted' || previous.current === 'streaming';
    previous.current = status;
    if (status === 'submitted') setText(labels.searching);
    else if (status === 'ready' && wasBusy && key && last) {
      const template = last.status === 'abstained' ? labels.announceNotCovered : labels.announceAnswer;
      // Instead of an answer, the sections are what the reader needs to hear about.
      const places = last.status === 'related' ? (last.related ?? []).map((p) => p.section || p.title) : [];
      const said = [last.text, places.join('; ')].join(' ').trim().replace(/\s+/g, ' ').slice(0, 400);
      setText(fill(template, {text: said}));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, key]);
  return text;
}
