"""Response and request models of the non-query endpoints."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bookchat.answer.schema import RelatedSection, SuggestedChapter


class ChapterPage(BaseModel):
    """A page of a chapter."""

    path: str
    doc_id: str
    title: str
    url: str
    # False: not translated into the requested locale (served with the default locale's text).
    localized: bool = True


class Chapter(BaseModel):
    """A chapter as GET /api/chapters lists it."""

    key: str
    title: str
    url: str
    pages: list[ChapterPage]


class GeneratorHealth(BaseModel):
    """Who writes the answers; for a model, what the start-up probe found it can do."""

    kind: Literal["extractive", "llm"]
    model: str | None = None
    # off: extractive answers; probing: the start-up probe is running; unprobed: it was turned
    # off (BOOKCHAT_LLM_PROBE=false); ready / limited / unusable: see bookchat.answer.llm.server.
    state: Literal["off", "probing", "unprobed", "ready", "limited", "unusable"]
    capabilities: dict[str, bool | None] = Field(default_factory=dict)


class AnswerCacheHealth(BaseModel):
    """Where answers are cached and what the cache holds now."""

    kind: Literal["memory", "redis", "off"]
    # unreachable: Redis is down or slow; questions are then answered without the cache.
    state: Literal["ok", "unreachable", "off"]
    entries: int = 0
    bytes: int = 0
    # False when Redis held more keys than one look counts: the figures are a floor.
    complete: bool = True


class Health(BaseModel):
    """Liveness and readiness of the server's dependencies."""

    status: Literal["ok", "degraded"]
    checks: dict[str, str]
    corpus_version: str | None
    chunks: int
    indexed_at: str | None
    sentence_cache: Literal["off", "warming", "warm"]
    # Not a check: a failing model never stops answers (they fall back to extractive ones).
    generator: GeneratorHealth
    # Not a check either: without its cache, bookchat answers every question afresh.
    answer_cache: AnswerCacheHealth


class IngestRequest(BaseModel):
    """What `bookchat ingest` asks a running server to do."""

    # Strict: "yes" or 1 would otherwise pass as booleans the schema says they are not.
    model_config = ConfigDict(extra="forbid", strict=True)

    docs_dir: str = Field(min_length=1, max_length=4096)
    # A built Docusaurus site: when given, its editions are ingested instead of `docs_dir`.
    site_dir: str | None = Field(default=None, min_length=1, max_length=4096)
    build_dir: str | None = Field(default=None, min_length=1, max_length=4096)
    dry_run: bool = False
    full: bool = False


class StoredCitation(BaseModel):
    """A citation as it was given with a stored answer."""

    model_config = ConfigDict(extra="allow")

    index: int
    url: str
    section: str


class StoredMessage(BaseModel):
    """One question and its answer in a conversation."""

    id: str
    created_at: str
    question: str
    mode: str
    chapter: str | None
    selection: str | None
    answer: str
    status: str
    citations: list[StoredCitation]
    generator: str
    latency_ms: float | None
    rating: Literal["up", "down"] | None
    suggested_chapter: SuggestedChapter | None = None
    # The reader's predicted answer span, as given with the answer (null when there was none).
    short_answer: str | None = None
    # The places in the book shown beside the answer or instead of it, as given with it.
    related: list[RelatedSection] = Field(default_factory=list)


class ConversationOut(BaseModel):
    """A conversation with its messages, oldest first."""

    id: str
    created_at: str
    messages: list[StoredMessage]


class FeedbackRequest(BaseModel):
    """A reader's rating of one answer (the last rating of a message wins)."""

    model_config = ConfigDict(extra="forbid")

    message_id: str = Field(min_length=1, max_length=200)
    rating: Literal["up", "down"]
    comment: str | None = Field(default=None, max_length=1000)
