import React, {useCallback, useEffect, useMemo, useRef, useState} from 'react';
import {findChapter} from '../chapters';
import {DEFAULT_LABELS, LabelsProvider, type Labels} from '../labels';
import type {ChatMessage} from '../messages';
import {NavigateProvider, type Navigate} from '../navigation';
import {createTransport, type Transport} from '../transport';
import {parseShortcut} from '../shortcut';
import type {Chapter, CurrentDoc, Edition} from '../types';
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
  /** The current page's path (sent as `page` with every question: overviews of "this page" use it). */
  pathname: string;
  /** The doc being read, if any (its permalink picks the chapter). */
  doc: CurrentDoc | null;
  navigate?: Navigate;
  storageKey?: string;
  /** Replaces the HTTP client (tests). */
  transport?: Transport;
  contentSelector?: string;
  /** The version and locale the reader is on: answers and chapters come from that edition. */
  edition?: Edition;
  /** Keys that open the panel ("mod+i": ⌘I or Ctrl+I), or false for none. */
  shortcut?: string | false;
  /** Every string the reader sees (English by default): the Docusaurus theme passes the site's translations. */
  labels?: Partial<Labels>;
}

const PHONE_QUERY = '(max-width: 600px)';

/** The whole widget: launcher, chat panel and the "Ask about this" popover. */
export function BookChat({
  apiUrl,
  title = 'Ask the book',
  pathname,
  doc,
  navigate,
  storageKey,
  transport,
  contentSelector,
  edition,
  shortcut = 'mod+i',
  labels: labelOverrides,
}: BookChatProps): React.JSX.Element {
  // One transport for the widget's life (the conversation survives navigation); it reads the
  // edition of the page the reader is on at each request.
  const editionRef = useRef<Edition>({});
  editionRef.current = edition ?? {};
  const client = useMemo(() => transport ?? createTransport(apiUrl, undefined, () => editionRef.current), [transport, apiUrl]);
  const labels = useMemo(() => ({...DEFAULT_LABELS, ...labelOverrides}), [labelOverrides]);
  const chat = useChat({transport: client, storageKey, labels});
  const [open, setOpen] = useState(false);
  const [quote, setQuote] = useState<string | null>(null);
  const [scope, setScope] = useState<Scope>('chapter');
  const editionKey = `${edition?.version ?? ''}|${edition?.locale ?? ''}`;
  const [chapterList, setChapterList] = useState<{edition: string; chapters: Chapter[]} | null>(null);
  const chapters = chapterList?.edition === editionKey ? chapterList.chapters : null;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);

  // The chapter list (of the reader's edition) is only needed once the panel is used; a failure
  // just leaves "Whole book".
  useEffect(() => {
    if (!open || chapters !== null) return;
    const controller = new AbortController();
    client.chapters(controller.signal).then((list) => setChapterList({edition: editionKey, chapters: list}), () => undefined);
    return () => controller.abort();
  }, [open, chapters, client, editionKey]);

  const keys = useMemo(() => parseShortcut(shortcut), [shortcut]);
  useEffect(() => {
    if (!keys) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!keys.matches(event)) return;
      event.preventDefault();
      setOpen(true);
      setTimeout(() => inputRef.current?.focus(), 0);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [keys]);

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
      chat.send(question || labels.explainPassage, {mode: 'selection', selection: quote, page: pathname});
      setQuote(null);
    } else if (scope === 'chapter' && chapter) {
      // The page too: "summarize this page" is answered from the page the reader is on.
      chat.send(question, {mode: 'chapter', chapter: chapter.key, page: pathname});
    } else {
      chat.send(question, {mode: 'book', page: pathname});
    }
  };

  const askAbout = (text: string) => {
    setQuote(text);
    setOpen(true);
    setTimeout(() => inputRef.current?.focus(), 0);
  };

  const searchBook = (question: ChatMessage) => {
    setScope('book');
    chat.send(question.text, {mode: 'book', page: pathname});
  };

  // On phones the panel covers the page: get out of the way once a source is opened.
  const onNavigated = () => {
    if (window.matchMedia?.(PHONE_QUERY).matches) setOpen(false);
  };

  const content = (
    <div className="bookchat-root">
      {!open ? <Launcher ref={launcherRef} onClick={() => setOpen(true)} expanded={false} shortcut={keys?.label} /> : null}
      {open ? (
        <ChatPanel
          title={title}
          messages={chat.messages}
          status={chat.status}
          error={chat.error}
          scope={scope}
          onScopeChange={setScope}
          chapterTitle={chapter?.title ?? null}
          chapterKey={chapter?.key}
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
  const provided = <LabelsProvider value={labels}>{content}</LabelsProvider>;
  return navigate ? <NavigateProvider value={navigate}>{provided}</NavigateProvider> : provided;
}
