"""A VectorStore wrapper that lets one call in at a time.

The embedded engines are not safe to read while another thread writes, and the server answers
queries while the admin hand-off ingests in a worker thread; each call holds the lock only for
itself, so queries interleave with an ingest's batches instead of waiting for the whole run.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from bookchat.vectorstore import VectorStore


class SerialStore:
    """Delegates every VectorStore method to `inner` under one lock.

    Every method is the same wrapper, so it is made on lookup rather than written out once per
    method; a method added to VectorStore is serialised without a change here. An index rebuild
    (`upgrade_layout`) holds the lock too, so queries wait until it is done."""

    def __init__(self, inner: VectorStore) -> None:
        self.inner = inner
        self._lock = threading.RLock()

    def __getattr__(self, name: str) -> Any:
        """`inner`'s method of this name, holding the lock while it runs."""
        if name.startswith("_"):  # copy, pickle and the like probe dunders before __init__ runs
            raise AttributeError(name)
        method = getattr(self.inner, name)
        if not callable(method):
            return method

        @functools.wraps(method)
        def locked(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return method(*args, **kwargs)

        return locked
