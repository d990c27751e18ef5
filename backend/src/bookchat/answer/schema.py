"""The query request and response, and the errors a request can meet (specs/001-bookchat/api.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints, field_validator

Mode = Literal["book", "chapter", "selection"]
# grounded: a passage answers; related: none answers, but these places in the book come close;
# abstained: nothing in the book is close (or a selection does not answer).
Status = Literal["grounded", "related", "abstained"]

# "Has a character that is not white space", with white space as the validator strips it
# (Unicode White_Space): the published schema then rejects exactly the blank texts the API does.
NON_BLANK = r"[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
Question = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000, pattern=NON_BLANK)
]
Selection = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=10000, pattern=NON_BLANK)
]
# What each mode needs, for the OpenAPI document. Validation stays in one flat model so a missing
# `chapter` or `selection` keeps its 400 and its sentence (AnswerService raises MissingInput).
MODE_RULES: list[JsonValue] = [
    {"title": "Book mode", "properties": {"mode": {"const": "book"}}},
    {
        "title": "Chapter mode",
        "properties": {"mode": {"const": "chapter"}, "chapter": {"type": "string", "minLength": 1}},
        "required": ["mode", "chapter"],
    },
    {
        "title": "Selection mode",
        "properties": {
            "mode": {"const": "selection"},
            "selection": {"type": "string", "pattern": NON_BLANK},
        },
        "required": ["mode", "selection"],
    },
]


class QueryRequest(BaseModel):
    """A question about the book, a chapter, or a selected passage."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": MODE_RULES})

    question: Question
    mode: Mode = "book"
    chapter: Annotated[str, Field(max_length=200)] | None = None
    selection: Selection | None = None
    page: Annotated[str, Field(max_length=2000)] | None = None
    conversation_id: Annotated[str, Field(max_length=200)] | None = None
    # The Docusaurus docs version ("current", "1.0") and locale ("fr") the reader is on; absent:
    # the index's default version and locale. Unknown ones are a 404 naming the known ones.
    version: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    locale: Annotated[str, Field(min_length=1, max_length=50)] | None = None
    top_k: Annotated[int, Field(ge=1, le=10)] = 5

    @field_validator("top_k", mode="before")
    @classmethod
    def _json_integer(cls, value: object) -> object:
        """JSON Schema's integer: 5 or 5.0, never `true` or "5" (which lax pydantic would take)."""
        if isinstance(value, bool | str):
            raise ValueError("must be an integer")
        return value


class Citation(BaseModel):
    """One cited section (or the selection), numbered as the answer's [n] markers."""

    index: int
    chunk_id: str
    path: str
    doc_id: str
    chapter: str
    chapter_title: str
    section: str
    url: str
    excerpt: str
    score: float
    # False: the page is not translated into the requested locale; its text is the default
    # locale's, at the requested locale's URL (the response's `notice` says so).
    localized: bool = True


class RelatedSection(BaseModel):
    """A place in the book close to the question: its section, linked, and its closest words."""

    title: str  # the page's title
    section: str  # the section's heading (the page title for text before the first heading)
    url: str  # lands on the section's heading
    path: str
    chapter: str
    chapter_title: str
    # The one or two sentences of the section closest to the question, as the book writes them.
    excerpt: str
    score: float


class SuggestedChapter(BaseModel):
    """The chapter that covers a question asked of another chapter."""

    key: str
    title: str
    url: str
    section: str
    section_url: str


class QueryResponse(BaseModel):
    """The answer with its citations and how far to trust it."""

    answer: str
    # The reader's predicted answer span ("Git 2.23 or newer"); null when the answer is a
    # passage, an abstention or generated.
    short_answer: str | None = None
    status: Status
    mode: Mode
    citations: list[Citation]
    confidence: float
    generator: Literal["extractive", "llm"] = "extractive"
    model: str | None = None
    hallucination_flag: bool = False
    unsupported_sentences: list[str] = Field(default_factory=list)
    suggested_chapter: SuggestedChapter | None = None
    # More places in the book, best first: beside a grounded answer ("Also in the book"), or
    # instead of one when the status is `related`; empty when abstained.
    related: list[RelatedSection] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    # The edition answered from (None only in selection mode before any ingest).
    version: str | None = None
    locale: str | None = None
    # Set when a citation's page is not translated into `locale` yet (the text is the default
    # locale's): a sentence the widget may show, or replace with its own translated one.
    notice: str | None = None
    corpus_version: str | None
    # None only when the conversation store was unavailable (a warning then says so).
    conversation_id: str | None
    message_id: str | None
    latency_ms: float
    # True when the answer was served from the answer cache (the same question was answered on the
    # same edition before); ids and latency_ms are still this request's own.
    cached: bool = False


@dataclass(frozen=True, slots=True)
class Streamed:
    """`meta` for the first event; then `deltas` (text, then the final response) if any."""

    meta: QueryResponse
    deltas: AsyncIterator[str | QueryResponse] | None = None


class IndexNotReady(Exception):
    """Nothing has been ingested yet, so the book cannot be searched."""


class UnknownChapter(Exception):
    """The chapter key is not in the catalog."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class MissingInput(Exception):
    """A field the chosen mode needs is absent (e.g. `chapter` in chapter mode)."""

    def __init__(self, field: str, mode: str) -> None:
        super().__init__(field)
        self.field = field
        self.mode = mode
