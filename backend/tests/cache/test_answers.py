"""The answer cache through the public API, on the real stores: repeated questions are served from
it with their own ids; anything that can change the answer is a miss."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bookchat.api.app import create_app
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.run import run_ingest
from bookchat.vectorstore import VectorStore, open_store
from tests.conftest import RecordingStore
from tests.sse_events import sse_events

QUESTION = "What does git revert do?"
OFF_BOOK = "Who won the 2018 FIFA World Cup?"
# Fields that belong to one request, not to the answer.
PER_REQUEST = {"conversation_id", "message_id", "latency_ms", "cached"}


def ask(client: Any, question: str = QUESTION, **body: Any) -> dict[str, Any]:
    """POST /api/query; the JSON body of its 200."""
    response = client.post("/api/query", json={"question": question, **body})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def answer_of(body: dict[str, Any]) -> dict[str, Any]:
    """What a cached answer must repeat: everything but the per-request fields."""
    return {k: v for k, v in body.items() if k not in PER_REQUEST}


@pytest.fixture
def cached(make_client: Any, make_settings: Any) -> Iterator[Any]:
    """A client of the sample book's app with the in-process answer cache."""
    with make_client(make_settings(BOOKCHAT_ANSWER_CACHE="memory")) as client:
        yield client


def test_a_repeated_question_is_answered_from_the_cache_with_new_ids(
    cached: Any, recording_store: RecordingStore
) -> None:
    first = ask(cached)
    reads = len(recording_store.vector_queries())
    second = ask(cached, "  what does GIT revert do ")
    assert (first["cached"], second["cached"]) == (False, True)
    assert answer_of(second) == answer_of(first)
    assert first["status"] == "grounded" and first["citations"]
    # Nothing was searched for the second answer...
    assert len(recording_store.vector_queries()) == reads
    # ...and it is still an exchange of its own, saved in its own conversation.
    assert second["conversation_id"] != first["conversation_id"]
    assert second["message_id"] != first["message_id"]
    saved = cached.get(f"/api/conversations/{second['conversation_id']}").json()
    assert [m["answer"] for m in saved["messages"]] == [first["answer"]]


def test_an_abstention_is_cached_too(cached: Any) -> None:
    first = ask(cached, OFF_BOOK)
    second = ask(cached, OFF_BOOK)
    assert first["status"] == "abstained"
    assert second["cached"] is True
    assert answer_of(second) == answer_of(first)


def test_another_mode_chapter_selection_or_top_k_is_a_miss(cached: Any) -> None:
    asks = [
        {},
        {"mode": "chapter", "chapter": "everyday-git"},
        {"mode": "chapter", "chapter": "branching"},
        {"mode": "selection", "selection": "git revert creates a new commit that undoes another."},
        {"mode": "selection", "selection": "git reset moves the branch pointer back."},
        {"top_k": 2},
    ]
    assert [ask(cached, **body)["cached"] for body in asks] == [False] * len(asks)
    assert [ask(cached, **body)["cached"] for body in asks] == [True] * len(asks)


def test_a_follow_up_is_never_served_from_the_cache(cached: Any) -> None:
    first = ask(cached)
    conversation = first["conversation_id"]
    follow_ups = [
        ask(cached, "And what about the one that rewrites history?", conversation_id=conversation)
        for _ in range(2)
    ]
    assert [body["cached"] for body in follow_ups] == [False, False]
    # A question that stands alone is one, inside a conversation or not.
    assert ask(cached, QUESTION, conversation_id=conversation)["cached"] is True


def test_a_streamed_hit_sends_the_answer_as_one_delta_and_the_same_final_event(
    cached: Any,
) -> None:
    def stream() -> list[tuple[str, dict[str, Any]]]:
        response = cached.post("/api/query/stream", json={"question": QUESTION})
        assert response.status_code == 200
        return sse_events(response.text)

    first, second = stream(), stream()
    assert [name for name, _ in second] == ["meta", "delta", "done"]
    done = second[-1][1]
    assert done["cached"] is True and second[0][1]["cached"] is True
    assert second[1][1]["text"] == done["answer"]
    assert answer_of(done) == answer_of(first[-1][1])
    assert done["message_id"] and done["message_id"] != first[-1][1]["message_id"]


def test_health_and_metrics_show_the_cache(cached: Any) -> None:
    ask(cached)
    ask(cached)
    ask(cached, OFF_BOOK)
    health = cached.get("/health").json()["answer_cache"]
    assert health["kind"] == "memory" and health["state"] == "ok"
    assert health["entries"] == 2 and health["bytes"] > 500
    metrics = cached.get("/metrics").text
    assert "bookchat_answer_cache_hits_total 1.0" in metrics
    assert "bookchat_answer_cache_misses_total 2.0" in metrics
    assert "bookchat_answer_cache_entries 2.0" in metrics


def test_evictions_are_counted_at_the_entry_bound(make_client: Any, make_settings: Any) -> None:
    settings = make_settings(BOOKCHAT_ANSWER_CACHE="memory", BOOKCHAT_ANSWER_CACHE_ENTRIES=1)
    with make_client(settings) as client:
        ask(client)
        ask(client, OFF_BOOK)  # evicts the first
        assert ask(client)["cached"] is False
        assert "bookchat_answer_cache_evictions_total 2.0" in client.get("/metrics").text


def test_turned_off_every_question_is_answered_afresh(make_client: Any, make_settings: Any) -> None:
    with make_client(make_settings(BOOKCHAT_ANSWER_CACHE="off")) as client:
        assert [ask(client)["cached"] for _ in range(2)] == [False, False]
        assert client.get("/health").json()["answer_cache"] == {
            "kind": "off",
            "state": "off",
            "entries": 0,
            "bytes": 0,
            "complete": True,
        }


def test_another_version_or_locale_is_a_miss(
    make_client: Any, site_settings: Settings, site_store: VectorStore
) -> None:
    settings = site_settings.model_copy(update={"answer_cache": "memory"})
    editions = [{}, {"version": "1.0"}, {"locale": "fr"}, {"version": "1.0", "locale": "fr"}]
    with make_client(settings, store=site_store) as client:
        firsts = [ask(client, "How do I install the tool?", **e) for e in editions]
        seconds = [ask(client, "How do I install the tool?", **e) for e in editions]
    assert [body["cached"] for body in firsts] == [False] * 4
    assert [body["cached"] for body in seconds] == [True] * 4
    assert [(b["version"], b["locale"]) for b in seconds] == [
        (b["version"], b["locale"]) for b in firsts
    ]


BOOK_BEFORE = """---
title: Wombats
---

# Wombats

Wombats produce cube-shaped droppings, which they leave on rocks to mark their territory.
"""
BOOK_AFTER = BOOK_BEFORE.replace("which they leave on rocks", "which they stack on fallen logs")


def test_an_ingest_that_changes_the_book_retires_its_cached_answers(
    tmp_path: Path, make_settings: Any, embedder: Embedder
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    page = docs / "01-wombats.md"
    page.write_text(BOOK_BEFORE, encoding="utf-8")
    settings = make_settings(BOOKCHAT_ANSWER_CACHE="memory")
    store = open_store(settings)
    run_ingest(settings, store, lambda: embedder, docs)
    question = "Where do wombats leave their droppings?"
    app = create_app(settings, store=store, embedder=embedder, admin_token="token")
    try:
        with TestClient(app) as client:
            before = [ask(client, question) for _ in range(2)]
            page.write_text(BOOK_AFTER, encoding="utf-8")
            ingested = client.post(
                "/api/admin/ingest",
                json={"docs_dir": str(docs)},
                headers={"Authorization": "Bearer token"},
            )
            assert ingested.status_code == 200, ingested.text
            after = [ask(client, question) for _ in range(2)]
    finally:
        store.close()
    assert [b["cached"] for b in before] == [False, True]
    assert "on rocks" in before[1]["answer"]
    assert [b["cached"] for b in after] == [False, True]
    assert "fallen logs" in after[0]["answer"] and "on rocks" not in after[0]["answer"]
    assert after[0]["corpus_version"] != before[0]["corpus_version"]


def test_a_page_overview_is_cached_per_page_even_when_misspelt(cached: Any) -> None:
    merging, rebasing = "/docs/branching/merging", "/docs/branching/rebasing"
    first = ask(cached, "Sumarize this page", page=merging)
    other = ask(cached, "Sumarize this page", page=rebasing)
    again = ask(cached, "Sumarize this page", page=merging)
    assert (first["cached"], other["cached"], again["cached"]) == (False, False, True)
    assert all(c["url"].startswith(merging) for c in first["citations"])
    assert all(c["url"].startswith(rebasing) for c in other["citations"])
