"""Read the book in a forked worker process while `bookchat ingest` opens the store and loads
the model.

Reading and chunking Markdown, counting the word pieces the model will read and building the
catalog's outlines are pure Python, as is most of importing torch: in a thread they would only
take turns for the GIL, so a fresh ingest ran them one after the other. A worker process runs
them beside the model load instead. It is forked before the store is opened or the model loaded
(no other threads, no locks or files of theirs to inherit), builds the corpus and whichever of
the rest the ingest asks for, then sends them. Should the worker fail, what it did not send is
computed here instead, so errors surface as they would without it.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from bookchat.ingest.corpus import Corpus
from bookchat.ingest.sync import count_pieces
from bookchat.markdown.unit_layout import chunk_sentences

# Below this many texts to embed (a few edited sections) counting them here takes milliseconds,
# less than waiting for the worker to count the whole book.
_COUNT_HERE_BELOW = 1_000


def corpus_texts(corpus: Corpus) -> list[str]:
    """Every text a full ingest of `corpus` embeds: each chunk's text, then its sentences."""
    return [t for c in corpus.chunks for t in (c.embed_text, *chunk_sentences(c.payload))]


_RESULTS: dict[str, Callable[[Corpus], Any]] = {
    "word_pieces": lambda corpus: count_pieces(corpus_texts(corpus)),
    "catalog_fields": lambda corpus: corpus.catalog_fields(),
}


def _work(read: Callable[[], Corpus], conn: Connection) -> None:
    # Ctrl-C reaches the whole process group: the parent reports it and stops this worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        corpus = read()
        # All computed before anything is sent: a send blocks until the parent reads, which it
        # does only once the model is loaded.
        results = [(name, _RESULTS[name](corpus)) for name in conn.recv()]
        for message in [("corpus", corpus), *results]:
            conn.send(message)
    except BaseException:  # noqa: S110
        # The parent computes what is missing itself and meets the same error there.
        pass
    finally:
        conn.close()


class ReadAhead:
    """The corpus, its catalog fields and word pieces, computed by a worker process."""

    def __init__(self, read: Callable[[], Corpus]) -> None:
        self._read = read
        self._got: dict[str, Any] = {}
        self._asked = {"corpus"}
        self._told = False
        self._worker: BaseProcess | None = None
        # Where processes cannot fork (Windows), everything is computed in this process.
        self._open = "fork" in multiprocessing.get_all_start_methods()
        if not self._open:
            return
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self._worker = context.Process(target=_work, args=(read, child), daemon=True)
        # The worker's collections then skip every object it inherits: touching them would copy
        # their memory pages one by one (the library's corpus took 2.7 s in the worker, 1.9 s
        # here). This process's own collections go on as before.
        gc.freeze()
        try:
            self._worker.start()
        finally:
            gc.unfreeze()
        child.close()  # the worker's end: EOF here once the worker exits
        self._open = True

    def ask(self, *, word_pieces: bool, catalog_fields: bool) -> None:
        """Say what the ingest will want besides the corpus (once, before asking for the corpus,
        which the worker sends only after this)."""
        if self._told:
            return
        self._told = True
        names = [
            n
            for n, wanted in (("word_pieces", word_pieces), ("catalog_fields", catalog_fields))
            if wanted
        ]
        try:
            if self._open:
                self._conn.send(names)
        except OSError:  # the worker is gone: everything is computed here
            self._open = False
        self._asked.update(names)

    def _wait(self, name: str, *, block: bool = True) -> Any:
        """The worker's result `name`, or None when it will not come (or not yet, unblocked)."""
        while name in self._asked and name not in self._got and self._open:
            if not block and not self._conn.poll():
                return None
            try:
                key, value = self._conn.recv()
            except (EOFError, OSError):
                self._open = False
                break
            self._got[key] = value
        return self._got.get(name)

    def corpus(self) -> Corpus:
        """The book as it should be indexed (waits for the worker)."""
        self.ask(word_pieces=False, catalog_fields=False)  # unless asked already
        corpus = self._wait("corpus")
        if corpus is None:
            corpus = self._got["corpus"] = self._read()
        return corpus  # type: ignore[no-any-return]

    def catalog_fields(self) -> dict[str, Any]:
        """`Corpus.catalog_fields()` of the corpus."""
        fields = self._wait("catalog_fields")
        return fields if fields is not None else self.corpus().catalog_fields()

    def word_pieces(self, texts: Sequence[str]) -> dict[str, int]:
        """Word pieces the model reads of each of `texts` (texts of the corpus)."""
        counted = self._wait("word_pieces", block=len(texts) >= _COUNT_HERE_BELOW) or {}
        here = count_pieces([t for t in texts if t not in counted])
        return {t: counted[t] if t in counted else here[t] for t in texts}

    def close(self) -> None:
        """Stop the worker (it may still be working for an ingest that ended early)."""
        if self._worker is None:
            return
        if self._worker.is_alive():
            self._worker.terminate()
        self._worker.join()
        self._conn.close()
