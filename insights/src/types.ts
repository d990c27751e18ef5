// GET /api/admin/insights, as the backend's InsightsReport dataclass declares it.

export interface Totals {
  asked: number;
  grounded: number;
  abstained: number;
  /** Neither answered nor declined: the book's closest places shown instead of an answer. */
  related: number;
  rated_up: number;
  rated_down: number;
}

export interface Day {
  day: string;
  asked: number;
  grounded: number;
  abstained: number;
  related: number;
  rated_down: number;
}

export interface ChapterRow {
  chapter: string | null;
  title: string;
  url: string | null;
  asked: number;
  grounded: number;
  abstained: number;
  related: number;
  rated_down: number;
  answered_share: number;
  declined_share: number;
}

export interface SectionLink {
  section: string;
  chapter_title: string;
  url: string;
}

export interface CitedSection extends SectionLink {
  answers: number;
}

export interface Gap {
  question: string;
  asked: number;
  abstained: number;
  rated_down: number;
  examples: string[];
  last_asked: string;
  closest: SectionLink | null;
}

export interface RatedDown {
  asked_on: string;
  question: string;
  answer_start: string;
  section: string | null;
  url: string | null;
  comment: string | null;
}

export interface Insights {
  since: string;
  until: string;
  version: string | null;
  locale: string | null;
  book_url: string | null;
  totals: Totals;
  days: Day[];
  chapters: ChapterRow[];
  cited_sections: CitedSection[];
  gaps: Gap[];
  rated_down: RatedDown[];
  latency: {p50_ms: number | null; p95_ms: number | null; measured: number};
  answer_cache: {hits: number; recorded: number; hit_share: number | null};
}

/** What the author asks for; empty strings mean "the server's default" / "all". */
export interface Filters {
  since: string;
  until: string;
  version: string;
  locale: string;
}
