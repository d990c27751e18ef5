"""Response and request models of the non-query endpoints."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ChapterPage(BaseModel):
    """A page of a chapter."""

    path: str
    doc_id: str
    title: str
    url: str


class Chapter(BaseModel):
    """A chapter as GET /api/chapters lists it."""

    key: str
    title: str
    url: str
    pages: list[ChapterPage]


class Health(BaseModel):
    """Liveness and readiness of the server's dependencies."""

    status: Literal["ok", "degraded"]
    checks: dict[str, str]
    corpus_version: str | None
    chunks: int
    indexed_at: str | None
    sentence_cache: Literal["off", "warming", "warm"]


class IngestRequest(BaseModel):
    """What `bookchat ingest` asks a running server to do."""

    model_config = ConfigDict(extra="forbid")

    docs_dir: str = Field(min_length=1, max_length=4096)
    dry_run: bool = False
    full: bool = False
