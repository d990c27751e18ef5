"""Conversations through the real app: follow-ups, history, deletion, feedback, store outages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bookchat.config import Settings
from tests.conftest import settings_for
from tests.sse_events import sse_events


def _ask(client: Any, question: str, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/query", json={"question": question, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def _sections(body: dict[str, Any]) -> list[str]:
    return [c["section"] for c in body["citations"]]


@pytest.mark.parametrize(
    ("first", "follow_up", "expected_section"),
    [
        ("What does git stash do?", "How do I include untracked files in it?", "Using git stash"),
        ("How do I create a branch?", "And how do I delete it?", "Managing branches"),
        (
            "How long does the reflog keep entries?",
            "Which setting controls that for unreachable ones?",
            "How long reflog entries are kept",
        ),
    ],
)
def test_follow_ups_are_answered_from_the_conversation_context(
    client: Any, first: str, follow_up: str, expected_section: str
) -> None:
    alone = _ask(client, follow_up)
    assert expected_section not in _sections(alone)  # on its own the question goes astray
    opening = _ask(client, first)
    answer = _ask(client, follow_up, conversation_id=opening["conversation_id"])
    assert answer["status"] == "grounded"
    assert expected_section in _sections(answer)


def test_a_conversation_keeps_its_messages_with_citations(client: Any) -> None:
    first = _ask(client, "What is a fast-forward merge?")
    second = _ask(
        client, "What is the golden rule of rebasing?", conversation_id=first["conversation_id"]
    )
    assert second["conversation_id"] == first["conversation_id"]
    assert len(first["conversation_id"]) >= 22 and first["message_id"] != second["message_id"]
    stored = client.get(f"/api/conversations/{first['conversation_id']}").json()
    assert [m["question"] for m in stored["messages"]] == [
        "What is a fast-forward merge?",
        "What is the golden rule of rebasing?",
    ]
    assert stored["messages"][0]["citations"][0]["url"] == first["citations"][0]["url"]
    assert stored["messages"][1]["answer"] == second["answer"]


def test_deleting_a_conversation_forgets_it(client: Any) -> None:
    conversation = _ask(client, "What is a detached HEAD?")["conversation_id"]
    assert client.delete(f"/api/conversations/{conversation}").status_code == 204
    assert client.get(f"/api/conversations/{conversation}").status_code == 404
    assert client.delete(f"/api/conversations/{conversation}").status_code == 404
    again = client.post(
        "/api/query", json={"question": "And why?", "conversation_id": conversation}
    )
    assert again.status_code == 404
    assert "conversation" in again.json()["detail"].lower()


def test_feedback_keeps_the_last_rating_per_message(client: Any) -> None:
    answer = _ask(client, "What does git blame show?")
    for rating in ("up", "down"):
        response = client.post(
            "/api/feedback", json={"message_id": answer["message_id"], "rating": rating}
        )
        assert response.status_code == 204
    stored = client.get(f"/api/conversations/{answer['conversation_id']}").json()
    assert stored["messages"][0]["rating"] == "down"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"message_id": "no-such-message", "rating": "up"}, 404),
        ({"message_id": "x", "rating": "meh"}, 422),
        ({"message_id": "x", "rating": "up", "comment": "x" * 1001}, 422),
        ({"message_id": "x", "rating": "up", "extra": 1}, 422),
    ],
)
def test_bad_feedback_is_refused_clearly(client: Any, body: dict[str, Any], status: int) -> None:
    response = client.post("/api/feedback", json=body)
    assert response.status_code == status
    assert response.json()["detail"]


def store_down(data_dir: Path) -> Settings:
    """Settings over the index in `data_dir` whose conversation database cannot be reached."""
    return settings_for(
        data_dir,
        DATABASE_URL="postgresql://bookchat@127.0.0.1:1/nowhere",
        BOOKCHAT_WARM_SENTENCE_CACHE=False,
    )


def test_questions_are_answered_when_the_conversation_store_is_down(
    make_client: Any, tmp_path: Any, book_settings: Any
) -> None:
    settings = store_down(book_settings.data_dir)
    with make_client(settings) as client:
        body = _ask(client, "What is a fast-forward merge?")
        assert body["status"] == "grounded"
        assert body["conversation_id"] is None and body["message_id"] is None
        assert any("not be saved" in w for w in body["warnings"])
        health = client.get("/health")
        assert health.status_code == 503
        assert health.json()["checks"]["conversations"] == "unreachable"
        assert client.get("/api/conversations/anything").status_code == 503


def test_metrics_count_answers_abstentions_and_feedback(client: Any) -> None:
    answer = _ask(client, "What does git blame show?")
    _ask(client, "What is the capital of Australia?")
    client.post("/api/feedback", json={"message_id": answer["message_id"], "rating": "up"})
    text = client.get("/metrics").text
    assert (
        'bookchat_answers_total{endpoint="/api/query",generator="extractive",mode="book",status="grounded"}'
        in text
    )
    assert 'bookchat_abstentions_total{mode="book"} 1.0' in text
    assert 'bookchat_feedback_total{rating="up"} 1.0' in text
    assert (
        'bookchat_http_requests_total{code="200",endpoint="/api/query",method="POST"} 2.0' in text
    )
    assert "bookchat_index_chunks " in text


def test_every_response_carries_a_request_id(client: Any) -> None:
    generated = client.get("/api/chapters")
    assert len(generated.headers["x-request-id"]) == 16
    echoed = client.get("/api/chapters", headers={"X-Request-ID": "trace-123"})
    assert echoed.headers["x-request-id"] == "trace-123"
    unsafe = client.get("/api/chapters", headers={"X-Request-ID": "bad id\nx"})
    assert unsafe.headers["x-request-id"] != "bad id\nx"


def test_a_reloaded_conversation_still_names_the_chapter_that_covers_it(client: Any) -> None:
    body = _ask(
        client, question="What is a fast-forward merge?", mode="chapter", chapter="getting-started"
    )
    # Not answered in this chapter, but shown where the book answers it, its chapter named.
    assert body["status"] == "related"
    stored = client.get(f"/api/conversations/{body['conversation_id']}").json()
    message = stored["messages"][0]
    assert message["suggested_chapter"] == body["suggested_chapter"]
    assert message["suggested_chapter"]["key"] == "branching"
    assert message["status"] == "related"
    assert message["related"] == body["related"]
    assert body["related"][-1]["chapter"] == "branching"


SELECTED = "Git was written by Linus Torvalds in April 2005 to manage the Linux kernel."


def test_a_short_answer_is_sent_and_kept_with_the_conversation(client: Any) -> None:
    body = _ask(client, "Who wrote Git?", mode="selection", selection=SELECTED)
    assert body["short_answer"] and body["short_answer"] in SELECTED
    streamed = client.post(
        "/api/query/stream",
        json={
            "question": "When was Git written?",
            "mode": "selection",
            "selection": SELECTED,
            "conversation_id": body["conversation_id"],
        },
    )
    name, done = sse_events(streamed.text)[-1]
    assert name == "done" and done["short_answer"] and done["short_answer"] in SELECTED
    stored = client.get(f"/api/conversations/{body['conversation_id']}").json()
    assert [m["short_answer"] for m in stored["messages"]] == [
        body["short_answer"],
        done["short_answer"],
    ]


def test_book_answers_carry_no_short_answer(client: Any) -> None:
    # The reader's span chooses the quote outside selections, but is not shown there.
    body = _ask(client, "Who wrote Git?")
    assert body["status"] == "grounded" and body["short_answer"] is None


def test_a_message_without_a_short_answer_reads_back_null(client: Any) -> None:
    body = _ask(client, "What is the capital of Australia?")
    assert body["short_answer"] is None
    stored = client.get(f"/api/conversations/{body['conversation_id']}").json()
    assert stored["messages"][0]["short_answer"] is None
