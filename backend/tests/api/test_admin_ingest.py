"""The ingest hand-off: `bookchat ingest` asks the running server, and answers change at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bookchat.api.server import local_url
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.handoff import ingest_via_server
from tests.sites import write_site
from tests.threaded_server import serving

QUOKKAS = """---
title: Quokkas
---

# Quokkas

Quokkas are small marsupials that live on Rottnest Island. They eat leaves, grasses and stems,
and they can go a long time without drinking water.
"""
WOMBATS = """---
title: Wombats
---

# Wombats

Wombats produce cube-shaped droppings, which they leave on rocks to mark their territory.
They dig long burrows with their strong front claws.
"""
QUESTION = {"question": "What shape are wombat droppings?"}


@pytest.fixture
def running(tmp_path: Path, make_settings: Any, embedder: Embedder) -> Iterator[dict[str, Any]]:
    """A real uvicorn server on 127.0.0.1 holding an open store of a one-page book."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "01-quokkas.md").write_text(QUOKKAS, encoding="utf-8")
    settings = make_settings()
    with serving(settings, docs, embedder) as record:
        yield {"settings": settings, "docs": docs, "url": record.url, "token": record.token}


def test_cli_handoff_ingests_in_the_server_and_queries_see_it_without_restart(
    running: dict[str, Any],
) -> None:
    before = httpx.post(f"{running['url']}/api/query", json=QUESTION, timeout=30).json()
    assert before["status"] == "abstained"
    (running["docs"] / "02-wombats.md").write_text(WOMBATS, encoding="utf-8")

    report = ingest_via_server(
        running["settings"].data_dir, running["docs"], dry_run=False, full=False
    )

    assert report["added"] > 0
    after = httpx.post(f"{running['url']}/api/query", json=QUESTION, timeout=30).json()
    assert after["status"] == "grounded"
    assert "cube-shaped" in after["answer"]
    assert after["citations"][0]["path"] == "02-wombats.md"
    assert after["corpus_version"] == report["corpus_version"] != before["corpus_version"]
    chapters = httpx.get(f"{running['url']}/api/chapters", timeout=30).json()
    assert [c["key"] for c in chapters] == ["quokkas", "wombats"]


def test_dry_run_handoff_changes_nothing(running: dict[str, Any]) -> None:
    (running["docs"] / "02-wombats.md").write_text(WOMBATS, encoding="utf-8")
    report = ingest_via_server(
        running["settings"].data_dir, running["docs"], dry_run=True, full=False
    )
    assert report["dry_run"] is True
    assert report["added"] > 0
    after = httpx.post(f"{running['url']}/api/query", json=QUESTION, timeout=30).json()
    assert after["status"] == "abstained"


def test_admin_endpoint_needs_the_recorded_bearer_token(running: dict[str, Any]) -> None:
    url = f"{running['url']}/api/admin/ingest"
    body = {"docs_dir": str(running["docs"])}
    missing = httpx.post(url, json=body, timeout=30)
    wrong = httpx.post(url, json=body, headers={"Authorization": "Bearer nope"}, timeout=30)
    assert missing.status_code == 401
    assert wrong.status_code == 403
    assert running["token"] not in missing.text + wrong.text


def test_admin_endpoint_rejects_a_missing_docs_folder(running: dict[str, Any]) -> None:
    response = httpx.post(
        f"{running['url']}/api/admin/ingest",
        json={"docs_dir": str(running["docs"] / "nope")},
        headers={"Authorization": f"Bearer {running['token']}"},
        timeout=30,
    )
    assert response.status_code == 400


def test_a_site_handoff_indexes_every_edition_and_queries_see_them(
    running: dict[str, Any], tmp_path: Path
) -> None:
    site = write_site(tmp_path)
    report = ingest_via_server(
        running["settings"].data_dir, running["docs"], dry_run=False, full=False, site=(site, None)
    )
    assert [e["edition"] for e in report["editions"]] == [
        "current@en",
        "1.0@en",
        "current@fr",
        "1.0@fr",
    ]
    body = {"question": "What is the default branch of a new repository called?", "version": "1.0"}
    after = httpx.post(f"{running['url']}/api/query", json=body, timeout=30).json()
    assert after["citations"][0]["url"] == "/textbook/docs/1.0/basics/config/#default-branch"


def test_a_site_without_a_route_manifest_is_a_400_saying_to_build_it(
    running: dict[str, Any], tmp_path: Path
) -> None:
    response = httpx.post(
        f"{running['url']}/api/admin/ingest",
        json={"docs_dir": str(running["docs"]), "site_dir": str(tmp_path)},
        headers={"Authorization": f"Bearer {running['token']}"},
        timeout=30,
    )
    assert response.status_code == 400
    assert "build the site with @bookchat/docusaurus-theme" in response.json()["detail"]
    assert str(tmp_path) not in response.text


def test_without_a_token_the_admin_route_is_401_even_on_a_server_without_one(client: Any) -> None:
    missing = client.post("/api/admin/ingest", json={"docs_dir": "/nowhere"})
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert missing.json() == {"detail": "Missing bearer token."}
    disabled = client.post(
        "/api/admin/ingest", json={"docs_dir": "/nowhere"}, headers={"Authorization": "Bearer x"}
    )
    assert disabled.status_code == 403


def test_the_token_is_checked_before_the_body(client: Any) -> None:
    response = client.post("/api/admin/ingest", json={"unexpected": True})
    assert response.status_code == 401


def test_wildcard_binds_are_recorded_as_loopback_urls() -> None:
    assert local_url("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert local_url("::1", 8001) == "http://[::1]:8001"
