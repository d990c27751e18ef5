import {createContext, useContext} from 'react';

/**
 * Every string the reader sees. English here; the Docusaurus theme passes the site's translations
 * (theme/BookChat/labels.ts, through translate()). `{name}` placeholders are filled by `fill`.
 */
export const DEFAULT_LABELS = {
  launcher: 'Ask the book',
  launcherShortcut: 'Ask the book ({shortcut})',
  newConversation: 'New conversation',
  close: 'Close',
  closeHint: 'Close (Esc)',
  emptyIntro: 'Ask anything about this book. Answers quote the book and link to their sources.',
  emptyTip: 'Tip: highlight text on a page and choose “Ask about this”.',
  retry: 'Retry',
  searching: 'Searching the book…',
  announceAnswer: 'Answer: {text}',
  announceNotCovered: 'Not covered. {text}',
  searchIn: 'Search in',
  thisChapter: 'This chapter',
  wholeBook: 'Whole book',
  selection: 'Selection',
  noChapter: 'This page is not part of a chapter',
  notCoveredChapter: 'Not covered in this chapter',
  notCoveredSelection: 'Not covered by the selection',
  notCoveredBook: 'Not covered by the book',
  stopped: 'Stopped.',
  untranslated: 'This answer comes from the original text: the cited page is not translated yet.',
  coveredIn: 'Covered in',
  searchWholeBook: 'Search the whole book',
  copyAnswer: 'Copy answer',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Copy failed',
  copyCode: 'Copy code',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  wasHelpful: 'Was this answer helpful?',
  ratingFailed: 'Could not save your rating.',
  sources: 'Sources',
  yourSelection: 'Your selection',
  source: 'Source',
  sourceN: 'Source {n}: {title}',
  alsoInBook: 'Also in the book',
  closestSections: 'Closest sections of the book',
  inChapter: 'in “{chapter}”',
  selectedText: 'Selected text',
  removeQuoteHint: 'Remove the quoted selection',
  removeQuote: 'Remove quote',
  placeholderSelection: 'Ask about the selection (Enter to explain it)',
  placeholder: 'Ask a question about the book',
  yourQuestion: 'Your question',
  stop: 'Stop',
  send: 'Send',
  askAboutThis: 'Ask about this',
  explainPassage: 'Explain this passage.',
  errorGeneric: 'Something went wrong while answering. Please try again.',
  errorRateLimited: 'Too many questions in a short time. Please wait a moment and try again.',
  errorRateLimitedWait: 'Too many questions in a short time. Try again in {seconds} seconds.',
  errorRateLimitedWaitOne: 'Too many questions in a short time. Try again in 1 second.',
  errorOffline: 'Could not reach the book assistant. Check your connection and try again.',
  errorInvalid: 'The question could not be sent: it may be empty or too long (2,000 characters at most).',
  errorNotFound: 'That chapter or conversation no longer exists. Start a new conversation or search the whole book.',
  errorUnavailable: 'The book assistant is not available right now. Please try again later.',
  errorInterrupted: 'The answer was interrupted. Please try again.',
};

export type Labels = typeof DEFAULT_LABELS;

const LabelsContext = createContext<Labels>(DEFAULT_LABELS);

/** Provides the widget's strings to its components. */
export const LabelsProvider = LabelsContext.Provider;

/** The widget's strings (English unless a LabelsProvider gives others). */
export function useLabels(): Labels {
  return useContext(LabelsContext);
}

/** Replaces `{name}` placeholders in a label. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
