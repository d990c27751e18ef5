"""GET /api/admin/insights on seeded conversations (SQLite and Postgres) over the sample book."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bookchat.api.app import create_app
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.history import open_conversation_store
from bookchat.vectorstore import VectorStore
from tests.conftest import settings_for
from tests.history.conftest import fresh_postgres
from tests.insights_data import RESET, SCRIPT, seed

TOKEN = "insights-test-token"
BOOK = "http://book.test"
TODAY = datetime.now(UTC).date()
NEWEST = TODAY - timedelta(days=2)
WEEK = {"since": (NEWEST - timedelta(days=6)).isoformat(), "until": NEWEST.isoformat()}
AUTH = {"Authorization": f"Bearer {TOKEN}"}


async def _seeded(settings: Settings) -> Settings:
    store = await open_conversation_store(settings)
    try:
        await seed(store, NEWEST)
    finally:
        await store.close()
    return settings


@pytest.fixture(params=["sqlite", "postgres"])
async def seeded_settings(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Settings]:
    """App settings whose conversation store (SQLite, or a fresh Postgres) holds the seed."""
    overrides: dict[str, Any] = {"BOOKCHAT_CORS_ORIGINS": [BOOK]}
    if request.param == "sqlite":
        yield await _seeded(settings_for(tmp_path / "data", **overrides))
        return
    async with fresh_postgres(tmp_path) as postgres:
        assert postgres.settings.database_url is not None
        url = postgres.settings.database_url.get_secret_value()
        yield await _seeded(settings_for(tmp_path / "data", DATABASE_URL=url, **overrides))


def _client(
    settings: Settings, store: VectorStore, embedder: Embedder, token: str | None = TOKEN
) -> TestClient:
    app = create_app(settings, store=store, embedder=embedder, admin_token=token)
    return TestClient(app)


@pytest.fixture
def client(
    seeded_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> Iterator[TestClient]:
    """The app over the sample book, its conversations seeded, the admin token TOKEN."""
    with _client(seeded_settings, book_store, embedder) as test_client:
        yield test_client


def test_the_token_is_required_and_checked(client: TestClient) -> None:
    missing = client.get("/api/admin/insights", params=WEEK)
    assert (missing.status_code, missing.json()) == (401, {"detail": "Missing bearer token."})
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    wrong = client.get("/api/admin/insights", headers={"Authorization": "Bearer nope"})
    assert (wrong.status_code, wrong.json()) == (403, {"detail": "Invalid token."})


def test_a_server_without_an_admin_token_shows_no_insights(
    seeded_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    with _client(seeded_settings, book_store, embedder, token=None) as plain:
        answer = plain.get("/api/admin/insights", headers=AUTH)
    assert answer.status_code == 403
    assert "disabled" in answer.json()["detail"]


def test_the_seeded_week_is_counted(client: TestClient) -> None:
    answer = client.get("/api/admin/insights", params=WEEK, headers=AUTH)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Cache-Control"] == "no-store"
    data = answer.json()
    assert (data["since"], data["until"], data["book_url"]) == (WEEK["since"], WEEK["until"], BOOK)
    assert data["totals"] == {
        "asked": 7, "grounded": 4, "abstained": 3, "related": 0, "rated_up": 1, "rated_down": 1,
    }  # fmt: skip
    # Every day of the window, quiet ones as zeros.
    assert [d["day"] for d in data["days"]] == [
        (NEWEST - timedelta(days=n)).isoformat() for n in range(6, -1, -1)
    ]
    assert [(d["asked"], d["grounded"], d["abstained"], d["rated_down"]) for d in data["days"]] == [
        (0, 0, 0, 0)] * 5 + [(4, 2, 2, 0), (3, 2, 1, 1)]  # fmt: skip
    assert (data["latency"], data["answer_cache"]) == (
        {"p50_ms": 20.0, "p95_ms": 50.0, "measured": 7},
        {"hits": 1, "recorded": 6, "hit_share": round(1 / 6, 4)},
    )


def test_chapters_carry_the_books_titles_and_shares(client: TestClient) -> None:
    titles = {c["key"]: (c["title"], c["url"]) for c in client.get("/api/chapters").json()}
    data = client.get("/api/admin/insights", params=WEEK, headers=AUTH).json()
    rows = {c["chapter"]: c for c in data["chapters"]}
    assert [c["chapter"] for c in data["chapters"]] == ["branching", None, "everyday-git"]
    assert (rows["everyday-git"]["title"], rows["everyday-git"]["url"]) == titles["everyday-git"]
    assert (rows["everyday-git"]["answered_share"], rows["everyday-git"]["declined_share"]) == (
        0.5, 0.5,
    )  # fmt: skip
    assert (rows[None]["url"], rows[None]["declined_share"]) == (None, 1.0)
    top = data["cited_sections"][0]
    assert (top["url"], top["answers"]) == ("/docs/branching/branches#create", 3)


def test_gaps_are_grouped_and_placed_in_the_book(client: TestClient) -> None:
    data = client.get("/api/admin/insights", params=WEEK, headers=AUTH).json()
    summary = [(g["question"], g["asked"], g["abstained"], g["rated_down"]) for g in data["gaps"]]
    assert summary == [
        ("How do I sign commits with GPG?", 2, 2, 0),
        (SCRIPT, 1, 1, 0),  # shown as the characters it is: the page renders text
        ("What does git reset --hard do?", 1, 0, 1),
    ]
    gpg = data["gaps"][0]
    assert gpg["examples"] == ["How can I GPG-sign my commits?", "How do I sign commits with GPG?"]
    assert gpg["last_asked"] == (NEWEST - timedelta(days=1)).isoformat()
    # The closest section of the sample book, with the anchor of its heading.
    assert gpg["closest"]["url"].startswith("/docs/")
    assert gpg["closest"]["section"] and gpg["closest"]["chapter_title"]
    [down] = data["rated_down"]
    assert down == {
        "asked_on": NEWEST.isoformat(),
        "question": "What does git reset --hard do?",
        "answer_start": down["answer_start"],
        "section": RESET["section"],
        "url": RESET["url"],
        "comment": "too vague",
    }
    assert down["answer_start"].startswith("A seeded answer") and down["answer_start"].endswith("…")


def test_nothing_identifies_a_reader(client: TestClient) -> None:
    text = client.get("/api/admin/insights", params=WEEK, headers=AUTH).text
    for marker in ("conversation", "message_id", "testclient", "T12:"):
        assert marker not in text


def test_version_and_locale_filter(client: TestClient) -> None:
    for extra in ({"version": "1.0"}, {"locale": "fr"}):
        data = client.get("/api/admin/insights", params={**WEEK, **extra}, headers=AUTH).json()
        assert (data["totals"]["asked"], data["version"], data["locale"]) == (
            2, extra.get("version"), extra.get("locale"),
        )  # fmt: skip
        assert [g["question"] for g in data["gaps"]] == [SCRIPT]


def test_a_period_that_is_not_one_is_a_400(client: TestClient) -> None:
    reversed_days = client.get(
        "/api/admin/insights", params={"since": "2026-03-02", "until": "2026-03-01"}, headers=AUTH
    )
    assert (reversed_days.status_code, reversed_days.json()) == (
        400, {"detail": "`since` is after `until`."},
    )  # fmt: skip
    too_long = client.get(
        "/api/admin/insights", params={"since": "2020-01-01", "until": "2026-01-01"}, headers=AUTH
    )
    assert too_long.status_code == 400
    not_a_day = client.get("/api/admin/insights", params={"since": "yesterday"}, headers=AUTH)
    assert not_a_day.status_code == 422


def test_the_endpoint_has_a_rate_limit_of_its_own(
    tmp_path: Path, book_store: VectorStore, embedder: Embedder
) -> None:
    settings = settings_for(tmp_path / "data", BOOKCHAT_RATE_LIMIT="2/minute")
    with _client(settings, book_store, embedder) as limited:
        statuses = [limited.get("/api/admin/insights", headers=AUTH).status_code for _ in range(3)]
        assert statuses == [200, 200, 429]
        refused = limited.get("/api/admin/insights", headers=AUTH)
        assert int(refused.headers["Retry-After"]) > 0
        # Readers' questions from the same address are counted apart.
        assert limited.post("/api/query", json={"question": "What is a branch?"}).status_code == 200


def test_old_questions_are_deleted_at_start_up(
    seeded_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    fortnight = {"since": (TODAY - timedelta(days=13)).isoformat()}
    with _client(seeded_settings, book_store, embedder) as kept:
        assert (
            kept.get("/api/admin/insights", params=fortnight, headers=AUTH).json()["totals"][
                "asked"
            ]
            == 8
        )
    # Day 7 of the seed is 9 days old: a 5-day retention deletes it, and only it.
    short = seeded_settings.model_copy(update={"history_days": 5})
    with _client(short, book_store, embedder) as swept:
        for _ in range(100):
            asked = swept.get("/api/admin/insights", params=fortnight, headers=AUTH).json()
            if asked["totals"]["asked"] < 8:
                break
            time.sleep(0.05)
        assert asked["totals"]["asked"] == 7
        assert "How do I push a tag?" not in [g["question"] for g in asked["gaps"]]


def test_report_gaps_and_the_endpoint_agree(
    seeded_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    with _client(seeded_settings, book_store, embedder) as test_client:
        since = (TODAY - timedelta(days=8)).isoformat()
        shown = test_client.get("/api/admin/insights", params={"since": since}, headers=AUTH)
    env = {
        "BOOKCHAT_DATA_DIR": str(seeded_settings.data_dir),
        "HF_HUB_OFFLINE": "1",
        "PATH": "/usr/bin:/bin",
        "HOME": str(Path.home()),
        # The code under test, when the suite runs it from another checkout than the venv's.
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
    }
    if seeded_settings.database_url is not None:
        env["DATABASE_URL"] = seeded_settings.database_url.get_secret_value()
    # `report gaps --since 8` reads the last 8 x 24 hours: the same gap questions as the page's
    # days from 8 days ago to today (the seed's oldest question is 9 days old).
    run = [
        sys.executable,
        "-m",
        "bookchat.cli",
        "report",
        "gaps",
        "--since",
        "8",
        "--format",
        "json",
    ]
    reported = json.loads(
        subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout
    )
    fields = ("question", "asked", "abstained", "rated_down", "examples")
    assert [tuple(g[f] for f in fields) for g in shown.json()["gaps"]] == [
        tuple(g[f] for f in fields) for g in reported["gaps"]
    ]
    assert len(reported["gaps"]) == 3
