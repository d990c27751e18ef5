/** The browser half of @bookchat/docusaurus-theme: the widget, usable outside Docusaurus too. */
export {BookChat, type BookChatProps} from './components/BookChat';
export {useChat, type ChatStatus, type UseChatOptions, type UseChatResult} from './useChat';
export {createTransport, parseSSE, ApiError, StreamError, isAbortError, type Transport} from './transport';
export {publishCurrentDoc, useCurrentDoc} from './currentDoc';
export {findChapter, normalizePath} from './chapters';
export {Markdown} from './components/Markdown';
export type {ChatMessage, SendOptions} from './messages';
export type {ChatError} from './errors';
export type * from './types';
export {parseShortcut, type Shortcut} from './shortcut';
export {DEFAULT_LABELS, type Labels} from './labels';
