"""One fixture, three engines: each contract test runs on Edge, local qdrant-client and a server."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from qdrant_client import QdrantClient

from bookchat.vectorstore.base import Point, VectorStore
from bookchat.vectorstore.edge_store import EdgeStore
from bookchat.vectorstore.qdrant_client_store import QdrantClientStore
from tests.vectorstore.legacy import write_legacy_collection, write_legacy_edge

DIM = 384
COLLECTION = "contract"

# Without a server the "server" engine runs qdrant-client's in-memory mode, which speaks the same
# client API; the test id says which one ran.
_SERVER_URL = os.environ.get("QDRANT_URL")
_SERVER_ID = "server-url" if _SERVER_URL else "server-memory"


@dataclass
class StoreKit:
    """Opens stores of one engine; `persistent` says whether a reopen sees earlier writes.

    `legacy` writes points, with the engine's own API, where `open` will look, in the layout of
    an index made before sentence vectors were stored.
    """

    name: str
    opener: Callable[[], VectorStore]
    persistent: bool
    legacy: Callable[[Sequence[Point]], None]
    opened: list[VectorStore] = field(default_factory=list)

    def open(self) -> VectorStore:
        """Open a store and remember it so the fixture closes it."""
        store = self.opener()
        self.opened.append(store)
        return store


def _server_kit(collection: str) -> StoreKit:
    if _SERVER_URL:
        key = os.environ.get("QDRANT_API_KEY")
        url = _SERVER_URL

        def legacy(points: Sequence[Point]) -> None:
            client = QdrantClient(url=url, api_key=key)
            write_legacy_collection(client, collection, DIM, points)
            client.close()

        opener = lambda: QdrantClientStore.connect(url, key, collection, DIM)  # noqa: E731
        return StoreKit(_SERVER_ID, opener, True, legacy)
    # In-memory data lives in the client object, so every open shares one client.
    client = QdrantClient(":memory:")
    return StoreKit(
        _SERVER_ID,
        lambda: QdrantClientStore(client, collection, DIM),
        False,
        lambda points: write_legacy_collection(client, collection, DIM, points),
    )


def _local_legacy(folder: Path) -> Callable[[Sequence[Point]], None]:
    def write(points: Sequence[Point]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        client = QdrantClient(path=str(folder))
        write_legacy_collection(client, COLLECTION, DIM, points)
        client.close()

    return write


@pytest.fixture(
    params=[
        pytest.param("edge", id="edge"),
        pytest.param("local", id="local"),
        pytest.param("server", id=_SERVER_ID),
    ]
)
def kit(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreKit]:
    """A StoreKit for each engine, with every store it opened closed afterwards."""
    engine = request.param
    if engine == "edge":
        made = StoreKit(
            "edge",
            lambda: EdgeStore.open(tmp_path / "edge", COLLECTION, DIM),
            True,
            lambda points: write_legacy_edge(tmp_path / "edge" / COLLECTION, DIM, points),
        )
    elif engine == "local":
        made = StoreKit(
            "local",
            lambda: QdrantClientStore.open_local(tmp_path / "qdrant", COLLECTION, DIM),
            True,
            _local_legacy(tmp_path / "qdrant"),
        )
    else:
        # A fresh collection name per test keeps runs against a shared server independent.
        name = f"contract_{uuid.uuid4().hex[:12]}"
        made = _server_kit(name)
    yield made
    for store in made.opened:
        store.close()
    if engine == "server" and _SERVER_URL:
        client = QdrantClient(url=_SERVER_URL, api_key=os.environ.get("QDRANT_API_KEY"))
        for collection in (name, f"{name}__catalog"):
            if client.collection_exists(collection):
                client.delete_collection(collection)
        client.close()


@pytest.fixture
def store(kit: StoreKit) -> VectorStore:
    """An open, empty store of the engine under test."""
    return kit.open()


def unit_vectors(n: int, seed: int = 7, dim: int = DIM) -> np.ndarray:
    """n deterministic random unit vectors."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, dim)).astype(np.float32)
    unit: np.ndarray = x / np.linalg.norm(x, axis=1, keepdims=True)
    return unit
