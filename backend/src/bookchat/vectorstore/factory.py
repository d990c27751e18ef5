"""Choose and open the configured vector store."""

from __future__ import annotations

from bookchat.config import Settings
from bookchat.embedding.embedder import DIMENSIONS
from bookchat.vectorstore.base import VectorStore


def open_store(settings: Settings, dim: int = DIMENSIONS) -> VectorStore:
    """Open the store the settings name: a Qdrant server when QDRANT_URL is set, else embedded."""
    if settings.qdrant_url:
        from bookchat.vectorstore.qdrant_client_store import QdrantClientStore

        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return QdrantClientStore.connect(settings.qdrant_url, key, settings.collection, dim)
    if settings.embedded_engine == "edge":
        from bookchat.vectorstore.edge_store import EdgeStore

        return EdgeStore.open(settings.store_dir, settings.collection, dim)
    from bookchat.vectorstore.qdrant_client_store import QdrantClientStore

    return QdrantClientStore.open_local(settings.store_dir, settings.collection, dim)
