import React, {useCallback} from 'react';
import {useLabels} from '../labels';
import type {ChatMessage} from '../messages';
import {SiteLink} from '../navigation';
import type {Rating} from '../types';
import {CitationList} from './CitationList';
import {CopyButton} from './CopyButton';
import {FeedbackButtons} from './FeedbackButtons';
import {Markdown} from './Markdown';
import {RelatedPlaces} from './RelatedPlaces';

/** Props of MessageView. */
export interface MessageViewProps {
  message: ChatMessage;
  /** The question this answer replies to (for "Search the whole book"). */
  question?: ChatMessage;
  onSearchBook?: (question: ChatMessage) => void;
  onRate?: (messageId: string, rating: Rating) => Promise<void>;
  onNavigated?: () => void;
  /** The chapter of the page the reader is on: book-wide places elsewhere name their chapter. */
  readerChapter?: string;
}

const SCOPE_LABEL = {book: 'wholeBook', chapter: 'thisChapter', selection: 'selection'} as const;

/** One question or answer; abstentions are styled apart from grounded answers. */
export function MessageView({message, question, onSearchBook, onRate, onNavigated, readerChapter}: MessageViewProps): React.JSX.Element {
  const labels = useLabels();
  const citePrefix = `bookchat-cite-${message.id}`;
  const focusCitation = useCallback(
    (index: number) => {
      const el = document.getElementById(`${citePrefix}-${index}`);
      if (!el) return;
      el.scrollIntoView({block: 'nearest', behavior: 'smooth'});
      el.focus({preventScroll: true});
    },
    [citePrefix],
  );

  if (message.role === 'user') {
    return (
      <div className="bookchat-msg bookchat-msg-user">
        {message.selection ? <blockquote className="bookchat-quote">{message.selection}</blockquote> : null}
        <p className="bookchat-question">{message.text}</p>
        {message.mode !== 'book' ? <span className="bookchat-scope-tag">{labels[SCOPE_LABEL[message.mode]]}</span> : null}
      </div>
    );
  }

  if (!message.complete && message.text === '') {
    return (
      <div className="bookchat-msg bookchat-msg-assistant bookchat-msg-pending" aria-busy="true">
        <span className="bookchat-dots" aria-hidden="true"><span /><span /><span /></span>
        <span className="bookchat-pending-text">{labels.searching}</span>
      </div>
    );
  }

  const abstained = message.status === 'abstained';
  const related = message.status === 'related';
  const finished = message.complete && !message.stopped;
  // Places are named by chapter when they lie outside the one asked about (or read, book-wide).
  const askedChapter = message.mode === 'chapter' ? (question?.chapter ?? message.chapter) : readerChapter;
  const places = abstained ? [] : (message.related ?? []);
  return (
    <div
      className={`bookchat-msg bookchat-msg-assistant bookchat-msg-${abstained ? 'abstained' : related ? 'related' : 'grounded'}`}
      aria-busy={!message.complete}
      data-status={message.status ?? ''}>
      {abstained ? (
        <p className="bookchat-abstain-label">
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path fill="currentColor" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-2h2v2zm0-4h-2V7h2v6z" />
          </svg>
          {message.mode === 'chapter' ? labels.notCoveredChapter : message.mode === 'selection' ? labels.notCoveredSelection : labels.notCoveredBook}
        </p>
      ) : null}
      {message.shortAnswer && message.status === 'grounded' ? (
        <p className="bookchat-short-answer">
          <strong>{message.shortAnswer}</strong>
        </p>
      ) : null}
      <Markdown text={message.text} citations={message.citations} onCite={focusCitation} citeIdPrefix={citePrefix} />
      {message.stopped ? <p className="bookchat-note">{labels.stopped}</p> : null}
      {message.notice ? (
        <p className="bookchat-note bookchat-notice" title={message.notice}>
          {labels.untranslated}
        </p>
      ) : null}
      {message.warnings?.length ? (
        <ul className="bookchat-warnings">{message.warnings.map((w, i) => <li key={i}>{w}</li>)}</ul>
      ) : null}
      {related ? <RelatedPlaces places={places} kind="closest" chapter={askedChapter} onNavigated={onNavigated} /> : null}
      {finished && (abstained || related) && message.mode !== 'book' && question ? (
        <div className="bookchat-abstain-actions">
          {abstained && message.suggestedChapter ? (
            <p className="bookchat-suggested">
              {labels.coveredIn}{' '}
              <SiteLink href={message.suggestedChapter.section_url || message.suggestedChapter.url} onNavigated={onNavigated}>
                {message.suggestedChapter.title}
                {message.suggestedChapter.section ? ` — ${message.suggestedChapter.section}` : ''}
              </SiteLink>
            </p>
          ) : null}
          <button type="button" className="bookchat-btn bookchat-btn-primary" onClick={() => onSearchBook?.(question)}>
            {labels.searchWholeBook}
          </button>
        </div>
      ) : null}
      {!abstained && !related ? <CitationList citations={message.citations} idPrefix={citePrefix} onNavigated={onNavigated} /> : null}
      {!abstained && !related ? <RelatedPlaces places={places} kind="also" chapter={askedChapter} onNavigated={onNavigated} /> : null}
      {finished ? (
        <div className="bookchat-actions">
          <CopyButton text={message.text} label={labels.copyAnswer} short={labels.copy} />
          {message.messageId && onRate ? (
            <FeedbackButtons rating={message.rating} onRate={(r) => onRate(message.messageId!, r)} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
