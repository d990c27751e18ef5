import {useMemo} from 'react';
import {translate} from '@docusaurus/Translate';
import type {Labels} from '@bookchat/docusaurus-theme/client';

/**
 * BookChat's strings in the site's language: each one a translate() call with a literal id and
 * message, so `docusaurus write-translations` extracts them into i18n/<locale>/code.json.
 * `{name}` placeholders are left for the widget to fill.
 */
export default function useBookChatLabels(): Labels {
  return useMemo(
    () => ({
      launcher: translate({id: 'theme.bookchat.launcher', message: 'Ask the book'}),
      launcherShortcut: translate({id: 'theme.bookchat.launcherShortcut', message: 'Ask the book ({shortcut})'}),
      newConversation: translate({id: 'theme.bookchat.newConversation', message: 'New conversation'}),
      close: translate({id: 'theme.bookchat.close', message: 'Close'}),
      closeHint: translate({id: 'theme.bookchat.closeHint', message: 'Close (Esc)'}),
      emptyIntro: translate({id: 'theme.bookchat.emptyIntro', message: 'Ask anything about this book. Answers quote the book and link to their sources.'}),
      emptyTip: translate({id: 'theme.bookchat.emptyTip', message: 'Tip: highlight text on a page and choose “Ask about this”.', description: 'Names the askAboutThis button'}),
      retry: translate({id: 'theme.bookchat.retry', message: 'Retry'}),
      searching: translate({id: 'theme.bookchat.searching', message: 'Searching the book…'}),
      announceAnswer: translate({id: 'theme.bookchat.announceAnswer', message: 'Answer: {text}'}),
      announceNotCovered: translate({id: 'theme.bookchat.announceNotCovered', message: 'Not covered. {text}'}),
      searchIn: translate({id: 'theme.bookchat.searchIn', message: 'Search in'}),
      thisChapter: translate({id: 'theme.bookchat.thisChapter', message: 'This chapter'}),
      wholeBook: translate({id: 'theme.bookchat.wholeBook', message: 'Whole book'}),
      selection: translate({id: 'theme.bookchat.selection', message: 'Selection'}),
      noChapter: translate({id: 'theme.bookchat.noChapter', message: 'This page is not part of a chapter'}),
      notCoveredChapter: translate({id: 'theme.bookchat.notCoveredChapter', message: 'Not covered in this chapter'}),
      notCoveredSelection: translate({id: 'theme.bookchat.notCoveredSelection', message: 'Not covered by the selection'}),
      notCoveredBook: translate({id: 'theme.bookchat.notCoveredBook', message: 'Not covered by the book'}),
      stopped: translate({id: 'theme.bookchat.stopped', message: 'Stopped.'}),
      untranslated: translate({
        id: 'theme.bookchat.untranslated',
        message: 'This answer comes from the original text: the cited page is not translated yet.',
        description: 'Under an answer quoted from the default-locale text of a page not yet translated',
      }),
      coveredIn: translate({id: 'theme.bookchat.coveredIn', message: 'Covered in'}),
      searchWholeBook: translate({id: 'theme.bookchat.searchWholeBook', message: 'Search the whole book'}),
      copyAnswer: translate({id: 'theme.bookchat.copyAnswer', message: 'Copy answer'}),
      copy: translate({id: 'theme.bookchat.copy', message: 'Copy'}),
      copied: translate({id: 'theme.bookchat.copied', message: 'Copied'}),
      copyFailed: translate({id: 'theme.bookchat.copyFailed', message: 'Copy failed'}),
      copyCode: translate({id: 'theme.bookchat.copyCode', message: 'Copy code'}),
      helpful: translate({id: 'theme.bookchat.helpful', message: 'Helpful'}),
      notHelpful: translate({id: 'theme.bookchat.notHelpful', message: 'Not helpful'}),
      wasHelpful: translate({id: 'theme.bookchat.wasHelpful', message: 'Was this answer helpful?'}),
      ratingFailed: translate({id: 'theme.bookchat.ratingFailed', message: 'Could not save your rating.'}),
      sources: translate({id: 'theme.bookchat.sources', message: 'Sources'}),
      yourSelection: translate({id: 'theme.bookchat.yourSelection', message: 'Your selection'}),
      source: translate({id: 'theme.bookchat.source', message: 'Source'}),
      sourceN: translate({id: 'theme.bookchat.sourceN', message: 'Source {n}: {title}'}),
      alsoInBook: translate({id: 'theme.bookchat.alsoInBook', message: 'Also in the book', description: 'Heading of the other places in the book listed under an answer'}),
      closestSections: translate({
        id: 'theme.bookchat.closestSections',
        message: 'Closest sections of the book',
        description: 'Names (for screen readers) the sections listed when no passage answers the question',
      }),
      inChapter: translate({id: 'theme.bookchat.inChapter', message: 'in “{chapter}”', description: 'The chapter of a section listed under an answer'}),
      selectedText: translate({id: 'theme.bookchat.selectedText', message: 'Selected text'}),
      removeQuoteHint: translate({id: 'theme.bookchat.removeQuoteHint', message: 'Remove the quoted selection'}),
      removeQuote: translate({id: 'theme.bookchat.removeQuote', message: 'Remove quote'}),
      placeholderSelection: translate({id: 'theme.bookchat.placeholderSelection', message: 'Ask about the selection (Enter to explain it)'}),
      placeholder: translate({id: 'theme.bookchat.placeholder', message: 'Ask a question about the book'}),
      yourQuestion: translate({id: 'theme.bookchat.yourQuestion', message: 'Your question'}),
      stop: translate({id: 'theme.bookchat.stop', message: 'Stop'}),
      send: translate({id: 'theme.bookchat.send', message: 'Send'}),
      askAboutThis: translate({id: 'theme.bookchat.askAboutThis', message: 'Ask about this'}),
      explainPassage: translate({id: 'theme.bookchat.explainPassage', message: 'Explain this passage.'}),
      errorGeneric: translate({id: 'theme.bookchat.errorGeneric', message: 'Something went wrong while answering. Please try again.'}),
      errorRateLimited: translate({id: 'theme.bookchat.errorRateLimited', message: 'Too many questions in a short time. Please wait a moment and try again.'}),
      errorRateLimitedWait: translate({id: 'theme.bookchat.errorRateLimitedWait', message: 'Too many questions in a short time. Try again in {seconds} seconds.'}),
      errorRateLimitedWaitOne: translate({id: 'theme.bookchat.errorRateLimitedWaitOne', message: 'Too many questions in a short time. Try again in 1 second.'}),
      errorOffline: translate({id: 'theme.bookchat.errorOffline', message: 'Could not reach the book assistant. Check your connection and try again.'}),
      errorInvalid: translate({id: 'theme.bookchat.errorInvalid', message: 'The question could not be sent: it may be empty or too long (2,000 characters at most).'}),
      errorNotFound: translate({id: 'theme.bookchat.errorNotFound', message: 'That chapter or conversation no longer exists. Start a new conversation or search the whole book.'}),
      errorUnavailable: translate({id: 'theme.bookchat.errorUnavailable', message: 'The book assistant is not available right now. Please try again later.'}),
      errorInterrupted: translate({id: 'theme.bookchat.errorInterrupted', message: 'The answer was interrupted. Please try again.'}),
    }),
    [],
  );
}
