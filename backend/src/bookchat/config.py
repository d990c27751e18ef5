"""The one settings object: every knob bookchat has, read from the environment and `.env`."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

CommaList = Annotated[list[str], NoDecode]


class Settings(BaseSettings):
    """bookchat configuration; built once by the CLI or the app factory and passed down."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    # Where things live.
    data_dir: Path = Field(default=Path("data"), alias="BOOKCHAT_DATA_DIR")
    docs_dir: Path = Field(default=Path("website/docs"), alias="BOOKCHAT_DOCS_DIR")
    site_base_url: str = Field(default="/", alias="BOOKCHAT_SITE_BASE_URL")
    docs_route_base_path: str = Field(default="docs", alias="BOOKCHAT_DOCS_ROUTE_BASE_PATH")

    # Vector store: embedded unless QDRANT_URL is set.
    qdrant_url: str | None = Field(default=None, alias="QDRANT_URL")
    qdrant_api_key: SecretStr | None = Field(default=None, alias="QDRANT_API_KEY")
    collection: str = Field(default="bookchat", alias="BOOKCHAT_COLLECTION")
    embedded_engine: Literal["edge", "local"] = Field(
        default="edge", alias="BOOKCHAT_EMBEDDED_ENGINE"
    )

    # Chunking (why these numbers:
    # specs/001-bookchat/decisions/0001-chunks-of-256-word-pieces-with-overlap.md).
    chunk_max_tokens: int = Field(default=256, ge=64, le=256, alias="BOOKCHAT_CHUNK_MAX_TOKENS")
    chunk_overlap: float = Field(default=0.18, ge=0.0, le=0.4, alias="BOOKCHAT_CHUNK_OVERLAP")
    # Small batches keep peak memory down at no cost in speed
    # (specs/001-bookchat/decisions/0006-embeddings-onnx-for-questions-bfloat16-for-books.md).
    embed_batch_size: int = Field(default=16, ge=1, le=256, alias="BOOKCHAT_EMBED_BATCH_SIZE")
    embedding_backend: Literal["onnx", "torch"] = Field(
        default="onnx", alias="BOOKCHAT_EMBEDDING_BACKEND"
    )
    # Whole books (ingest, training): bf16 where the CPU computes bfloat16 natively, else the
    # backend above; the vectors are the same either way (decision 0006 above).
    ingest_embedding_backend: Literal["auto", "onnx", "torch", "bf16"] = Field(
        default="auto", alias="BOOKCHAT_INGEST_EMBEDDING_BACKEND"
    )
    model_cache_dir: Path = Field(
        default_factory=lambda: Path.home() / ".cache" / "bookchat", alias="BOOKCHAT_MODEL_CACHE"
    )
    # One thread per query keeps tail latency flat when the other cores are busy.
    embed_threads: int = Field(default=1, ge=1, le=64, alias="BOOKCHAT_EMBED_THREADS")

    # Retrieval and answering.
    min_chunk_score: float = Field(default=0.30, ge=-1.0, le=1.0, alias="BOOKCHAT_MIN_CHUNK_SCORE")
    # Torch threads of the answer reader, which finds the short answer in the quoted passage.
    reader_threads: int = Field(default=2, ge=1, le=64, alias="BOOKCHAT_READER_THREADS")
    answer_max_words: int = Field(default=120, ge=20, le=400, alias="BOOKCHAT_ANSWER_MAX_WORDS")
    # Fill the sentence cache in the background at start-up and after each ingest: stored sentence
    # vectors are copied in, and only an index built before they were stored is embedded, so the
    # first selections and checks of generated answers do not pay for it
    # (specs/001-bookchat/decisions/0008-stored-sentence-vectors.md).
    warm_sentence_cache: bool = Field(default=True, alias="BOOKCHAT_WARM_SENTENCE_CACHE")
    # Sentence vectors kept in memory (~1.5 KB each) for what is embedded at query time:
    # selections, checks of generated answers, an index without stored ones. 50,000 is ~77 MB.
    sentence_cache_size: int = Field(
        default=50_000, ge=1_000, le=2_000_000, alias="BOOKCHAT_SENTENCE_CACHE_SIZE"
    )

    # Answer cache (specs/001-bookchat/spec.md, "Answer cache"): repeated questions on the same
    # edition are answered from it. Unset: Redis when REDIS_URL is set (every worker shares it),
    # else in this process; "off" answers every question afresh.
    answer_cache: Literal["memory", "redis", "off"] | None = Field(
        default=None, alias="BOOKCHAT_ANSWER_CACHE"
    )
    # Bounds of the in-process cache (least recently used answers go first); Redis keeps entries
    # for the TTL only (its own maxmemory policy bounds it).
    answer_cache_entries: int = Field(
        default=5_000, ge=1, le=10_000_000, alias="BOOKCHAT_ANSWER_CACHE_ENTRIES"
    )
    answer_cache_mb: float = Field(default=64.0, gt=0, le=65_536, alias="BOOKCHAT_ANSWER_CACHE_MB")
    # A changed book never serves a stale answer (the key holds the index's corpus_version): the
    # TTL only bounds how long unasked answers take up room.
    answer_cache_ttl_s: int = Field(
        default=86_400, ge=1, le=31_536_000, alias="BOOKCHAT_ANSWER_CACHE_TTL"
    )

    # Generator.
    generator: Literal["extractive", "llm", "auto"] = Field(
        default="auto", alias="BOOKCHAT_GENERATOR"
    )
    openai_api_key: SecretStr | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")
    llm_model: str | None = Field(default=None, alias="BOOKCHAT_LLM_MODEL")
    llm_timeout_s: float = Field(default=30.0, gt=0, le=600, alias="BOOKCHAT_LLM_TIMEOUT")
    llm_tracing: bool = Field(default=False, alias="BOOKCHAT_LLM_TRACING")
    # Unset: the server's default. 0 makes a local model's answers repeatable.
    llm_temperature: float | None = Field(
        default=None, ge=0.0, le=2.0, alias="BOOKCHAT_LLM_TEMPERATURE"
    )
    # Whether the model may search the book for more passages (a tool call): "auto" lets it
    # choose, "first" makes it search once before answering (small local models never choose
    # to), "off" never offers the tool. A server found not to support tool calls gets "off".
    llm_search: Literal["auto", "first", "off"] = Field(default="auto", alias="BOOKCHAT_LLM_SEARCH")
    # At start-up, ask the server what it supports (answers, streaming, tool calls; logged once,
    # shown in /health) and use only that; `bookchat check-llm` runs the same probe.
    llm_probe: bool = Field(default=True, alias="BOOKCHAT_LLM_PROBE")
    # Below this cosine with its cited source a generated sentence is reported as unsupported
    # (calibrated on the sample book: specs/001-bookchat/decisions/0025-llm-answers.md).
    llm_min_sentence_support: float = Field(
        default=0.55, ge=-1.0, le=1.0, alias="BOOKCHAT_LLM_MIN_SENTENCE_SUPPORT"
    )

    # Conversations.
    database_url: SecretStr | None = Field(default=None, alias="DATABASE_URL")
    # Days questions are kept (the insights page reads them); older ones are deleted at start-up
    # and every hour. 0 keeps them forever.
    history_days: int = Field(default=90, ge=0, le=36_500, alias="BOOKCHAT_HISTORY_DAYS")
    # The book's address (scheme and host, e.g. https://book.example.org), so the insights page
    # links to its sections. Unset: the first of BOOKCHAT_CORS_ORIGINS, the site that asks.
    site_url: str | None = Field(default=None, alias="BOOKCHAT_SITE_URL")

    # HTTP.
    rate_limit: str = Field(default="20/minute", alias="BOOKCHAT_RATE_LIMIT")
    redis_url: SecretStr | None = Field(default=None, alias="REDIS_URL")
    trusted_proxies: CommaList = Field(default_factory=list, alias="TRUSTED_PROXIES")
    cors_origins: CommaList = Field(
        default_factory=lambda: ["http://127.0.0.1:3000", "http://localhost:3000"],
        alias="BOOKCHAT_CORS_ORIGINS",
    )
    log_level: str = Field(default="INFO", alias="BOOKCHAT_LOG_LEVEL")

    @field_validator("trusted_proxies", "cors_origins", mode="before")
    @classmethod
    def _split_commas(cls, value: object) -> object:
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    @field_validator("site_base_url")
    @classmethod
    def _normalise_base_url(cls, value: str) -> str:
        return "/" + value.strip("/") + "/" if value.strip("/") else "/"

    @field_validator("docs_route_base_path")
    @classmethod
    def _normalise_route(cls, value: str) -> str:
        return value.strip("/")

    @model_validator(mode="after")
    def _redis_cache_needs_redis(self) -> Settings:
        if self.answer_cache == "redis" and not self.redis_url:
            raise ValueError("BOOKCHAT_ANSWER_CACHE=redis needs REDIS_URL (the Redis to share)")
        return self

    @cached_property
    def embedded(self) -> bool:
        """True when the vector store lives in this process (no QDRANT_URL)."""
        return not self.qdrant_url

    @property
    def store_dir(self) -> Path:
        """Folder of the embedded vector store."""
        return self.data_dir / ("edge" if self.embedded_engine == "edge" else "qdrant")

    @property
    def book_origin(self) -> str | None:
        """Where the book is read (for links from the insights page): BOOKCHAT_SITE_URL, else the
        first CORS origin that names one site, else None."""
        if self.site_url:
            return self.site_url.rstrip("/")
        return next((o.rstrip("/") for o in self.cors_origins if o.strip() != "*"), None)

    @property
    def answer_cache_kind(self) -> Literal["memory", "redis", "off"]:
        """Where answers are cached: as set, else Redis when REDIS_URL is set, else memory."""
        if self.answer_cache is not None:
            return self.answer_cache
        return "redis" if self.redis_url else "memory"

    @property
    def llm_configured(self) -> bool:
        """True when a model is named and there is somewhere to send it."""
        return bool(self.llm_model and (self.openai_api_key or self.openai_base_url))

    @property
    def use_llm(self) -> bool:
        """Whether answers are generated by the language model."""
        if self.generator == "llm":
            return True
        return self.generator == "auto" and self.llm_configured
