import React, {useCallback, useEffect, useMemo, useRef, useState} from 'react';
import {findChapter} from '../chapters';
import type {ChatMessage} from '../messages';
import {NavigateProvider, type Navigate} from '../navigation';
import {createTransport, type Transport} from '../transport';
import type {Chapter, CurrentDoc} from '../types';
import {useChat} from '../useChat';
import {ChatPanel} from './ChatPanel';
import {Launcher} from './Launcher';
import type {Scope} from './ScopeSwitch';
import {SelectionPopover} from './SelectionPopover';

/** Props of BookChat. */
export interface BookChatProps {
  /** Base URL of the bookchat API. */
  apiUrl: string;
  /** Shown in the panel header. */
  title?: string;
  /** The current page's path (sent as `page` with selections). */
  pathname: string;
  /** The doc being read, if any (its permalink picks the chapter). */
  doc: CurrentDoc | null;
  navigate?: Navigate;
  storageKey?: string;
  /** Replaces the HTTP client (tests). */
  transport?: Transport;
  contentSelector?: string;
}

const PHONE_QUERY = '(max-width: 600px)';

/** The whole widget: launcher, chat panel and the "Ask about this" popover. */
export function BookChat({apiUrl, title = 'Ask the book', pathname, doc, navigate, storageKey, transport, contentSelector}: BookChatProps): React.JSX.Element {
  const client = useMemo(() => transport ?? createTransport(apiUrl), [transport, apiUrl]);
  const chat = useChat({transport: client, storageKey});
  const [open, setOpen] = useState(false);
  const [quote, setQuote] = useState<string | null>(null);
  const [scope, setScope] = useState<Scope>('chapter');
  const [chapters, setChapters] = useState<Chapter[] | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);

  // The chapter list is only needed once the panel is used; a failure just leaves "Whole book".
  useEffect(() => {
    if (!open || chapters !== null) return;
    const controller = new AbortController();
    client.chapters(controller.signal).then(setChapters, () => undefined);
    return () => controller.abort();
  }, [open, chapters, client]);

  const chapter = useMemo(
    () => (chapters ? findChapter(chapters, doc?.permalink ?? pathname) : null),
    [chapters, doc, pathname],
  );

  const close = useCallback(() => {
    setOpen(false);
    // Return focus where it came from so keyboard readers are not dropped at the page top.
    setTimeout(() => launcherRef.current?.focus(), 0);
  }, []);

  const send = (question: string) => {
    if (quote !== null) {
      chat.send(question || 'Explain this passage.', {mode: 'selection', selection: quote, page: pathname});
      setQuote(null);
    } else if (scope === 'chapter' && chapter) {
      chat.send(question, {mode: 'chapter', chapter: chapter.key});
    } else {
      chat.send(question, {mode: 'book'});
    }
  };

  const askAbout = (text: string) => {
    setQuote(text);
    setOpen(true);
    setTimeout(() => inputRef.current?.focus(), 0);
  };

  const searchBook = (question: ChatMessage) => {
    setScope('book');
    chat.send(question.text, {mode: 'book'});
  };

  // On phones the panel covers the page: get out of the way once a source is opened.
  const onNavigated = () => {
    if (window.matchMedia?.(PHONE_QUERY).matches) setOpen(false);
  };

  const content = (
    <div className="bookchat-root">
      {!open ? <Launcher ref={launcherRef} onClick={() => setOpen(true)} expanded={false} /> : null}
      {open ? (
        <ChatPanel
          title={title}
          messages={chat.messages}
          status={chat.status}
          error={chat.error}
          scope={scope}
          onScopeChange={setScope}
          chapterTitle={chapter?.title ?? null}
          quote={quote}
          onRemoveQuote={() => {
            setQuote(null);
            inputRef.current?.focus();
          }}
          onSend={send}
          onStop={chat.stop}
          onRetry={chat.regenerate}
          onNewConversation={() => {
            chat.clear();
            setQuote(null);
            inputRef.current?.focus();
          }}
          onSearchBook={searchBook}
          onRate={chat.rate}
          onClose={close}
          onNavigated={onNavigated}
          inputRef={inputRef}
        />
      ) : null}
      <SelectionPopover onAsk={askAbout} contentSelector={contentSelector} />
    </div>
  );
  return navigate ? <NavigateProvider value={navigate}>{content}</NavigateProvider> : content;
}
