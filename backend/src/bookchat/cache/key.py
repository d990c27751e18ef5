"""The cache key: everything that can change an answer, and nothing that cannot.

An ingest that changes the book changes the index's corpus_version, and a deploy that changes how
answers are made changes the answerer's fingerprint: both retire every stale entry by themselves.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import bookchat
from bookchat.answer.reader import reader_version
from bookchat.answer.schema import QueryRequest
from bookchat.config import Settings

_SPACES = re.compile(r"\s+")
# "What is HEAD?" and "what is head" are one question; inner punctuation (`git reset --hard`,
# "C++") is kept, since it can name what is asked about.
_TRAILING = re.compile(r"[\s?!.;:,…。？！]+$")
_SOURCE = Path(bookchat.__file__).parent
# What makes answers: the code and model files of these packages (every one the answer service
# imports, config aside: its values are the settings below), and the settings below.
ANSWERING_PACKAGES = ("answer", "retrieval", "overview", "markdown", "embedding", "vectorstore")
_ANSWER_SETTINGS = (
    "min_chunk_score",
    "answer_max_words",
    "use_llm",
    "llm_model",
    "openai_base_url",
    "llm_temperature",
    "llm_search",
    "llm_min_sentence_support",
)


def normalised(question: str) -> str:
    """The question as the cache compares it: case folded, spacing collapsed, no end punctuation."""
    return _TRAILING.sub("", _SPACES.sub(" ", question.casefold()).strip())


def answerer_fingerprint(settings: Settings) -> str:
    """A short hash of what turns a question into an answer: code, model files and settings."""
    digest = hashlib.sha256(bookchat.__version__.encode())
    for package in ANSWERING_PACKAGES:
        for path in sorted((_SOURCE / package).rglob("*")):
            if path.suffix in {".py", ".json"}:
                digest.update(path.relative_to(_SOURCE).as_posix().encode())
                digest.update(path.read_bytes())
    digest.update(reader_version().encode())
    chosen = {name: getattr(settings, name) for name in _ANSWER_SETTINGS}
    digest.update(json.dumps(chosen, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def answer_key(
    request: QueryRequest, *, corpus_version: str | None, answerer: str, page_matters: bool
) -> str:
    """The key of `request`'s answer on the index at `corpus_version`."""
    selection = request.selection if request.mode == "selection" else None
    parts = {
        "question": normalised(request.question),
        "mode": request.mode,
        "chapter": request.chapter if request.mode == "chapter" else None,
        "selection": hashlib.sha256(selection.encode()).hexdigest() if selection else None,
        "page": request.page if page_matters else None,
        "version": request.version,
        "locale": request.locale,
        "top_k": request.top_k,
        "corpus_version": corpus_version,
        "answerer": answerer,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
