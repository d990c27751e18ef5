/** Types of the bookchat HTTP API (specs/001-bookchat/api.md). */

export type Mode = 'book' | 'chapter' | 'selection';
/** grounded: a passage answers; related: none does, but the book comes close (see `related`);
 * abstained: nothing in the book is close. */
export type AnswerStatus = 'grounded' | 'related' | 'abstained';
export type Rating = 'up' | 'down';

export interface Citation {
  index: number;
  chunk_id: string;
  path: string;
  doc_id: string;
  chapter: string;
  chapter_title: string;
  section: string;
  url: string;
  excerpt: string;
  score?: number;
}

/** A place in the book close to the question: a section, linked, with its sentences nearest it. */
export interface RelatedSection {
  /** The page's title. */
  title: string;
  /** The section's heading (the page title for the text before the first heading). */
  section: string;
  /** Lands on the section's heading (site-relative, e.g. /docs/branching/merging#aborting). */
  url: string;
  path: string;
  /** The chapter's key. */
  chapter: string;
  chapter_title: string;
  /** The one or two sentences of the section nearest the question, as Markdown. */
  excerpt: string;
  score?: number;
}

export interface SuggestedChapter {
  key: string;
  title: string;
  url: string;
  section?: string | null;
  section_url?: string | null;
}

export interface QueryRequest {
  question: string;
  mode?: Mode;
  chapter?: string;
  selection?: string;
  page?: string;
  conversation_id?: string;
  top_k?: number;
  /** Docs version name ("current", "1.0"); absent: the index's default version. */
  version?: string;
  /** Site locale ("fr"); absent: the index's default locale. */
  locale?: string;
}

/** The book edition the reader is on: which docs version and locale answers come from. */
export interface Edition {
  version?: string;
  locale?: string;
}

export interface QueryResponse {
  answer: string;
  /** The reader's predicted answer span ("Git 2.23 or newer"); null for a passage, an abstention or generated text. */
  short_answer?: string | null;
  status: AnswerStatus;
  mode: Mode;
  citations: Citation[];
  confidence: number;
  generator: string;
  model: string | null;
  hallucination_flag?: boolean;
  unsupported_sentences?: string[];
  suggested_chapter: SuggestedChapter | null;
  /** More places in the book, best first: beside a grounded answer ("Also in the book"), or
   * instead of one when the status is `related`; empty when abstained (absent from older APIs). */
  related?: RelatedSection[];
  warnings: string[];
  /** Set when the answer comes from the default locale's text (the cited page is not translated). */
  notice?: string | null;
  corpus_version: string;
  conversation_id: string;
  message_id: string;
  latency_ms?: number;
  /** True when the server answered from its answer cache (the same question was asked before). */
  cached?: boolean;
}

export interface StreamMeta {
  mode: Mode;
  status: AnswerStatus;
  citations: Citation[];
  conversation_id: string;
  message_id: string;
  corpus_version: string;
  generator: string;
  cached?: boolean;
}

export interface ChapterPage {
  path: string;
  doc_id: string;
  title: string;
  url: string;
}

export interface Chapter {
  key: string;
  title: string;
  url: string;
  pages: ChapterPage[];
}

export interface StoredMessage {
  id: string;
  created_at: string;
  question: string;
  mode: Mode;
  chapter: string | null;
  selection: string | null;
  answer: string;
  status: AnswerStatus;
  citations: Citation[];
  generator: string;
  latency_ms?: number;
  rating: Rating | null;
  suggested_chapter?: SuggestedChapter | null;
  /** The answer's short answer as it was given (null when there was none). */
  short_answer?: string | null;
  /** The places in the book shown with the answer, as they were given. */
  related?: RelatedSection[];
}

export interface Conversation {
  id: string;
  created_at: string;
  messages: StoredMessage[];
}

/** What the reader is looking at, published by the site's DocItem/Layout wrapper. */
export interface CurrentDoc {
  id: string;
  title: string;
  permalink: string;
  frontMatter: Record<string, unknown>;
  /** The doc's docs version name ("current", "1.0"). */
  version?: string;
}
