"""The vector store: one small interface, an embedded engine and a Qdrant server behind it."""

from bookchat.vectorstore.base import (
    Hit,
    Point,
    SparseVector,
    StoreLocked,
    StoreUnavailable,
    VectorStore,
)
from bookchat.vectorstore.factory import open_store

__all__ = [
    "Hit",
    "Point",
    "SparseVector",
    "StoreLocked",
    "StoreUnavailable",
    "VectorStore",
    "open_store",
]
