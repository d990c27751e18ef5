"""GET /api/chapters, /health and /, CORS, and the 503s of an empty or unreachable index."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from bookchat.api.app import create_app
from bookchat.embedding.embedder import Embedder
from bookchat.vectorstore import open_store


def test_chapters_lists_the_book_in_reading_order(client: Any) -> None:
    chapters = client.get("/api/chapters").json()
    keys = [c["key"] for c in chapters]
    assert keys[:4] == ["intro", "getting-started", "everyday-git", "branching"]
    branching = chapters[3]
    assert branching["url"] == "/docs/branching/"
    assert {"path", "doc_id", "title", "url", "localized"} == set(branching["pages"][0])


def test_health_is_ok_with_the_corpus_it_serves(client: Any) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"vector_store": "ok", "embedder": "ok", "conversations": "ok"}
    assert body["sentence_cache"] == "off"
    assert body["chunks"] > 50
    assert body["corpus_version"]
    assert body["indexed_at"]


def test_root_redirects_to_the_api_docs(client: Any) -> None:
    response = client.get("/", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/docs"


def _preflight(client: Any, origin: str, *headers: str) -> Any:
    """The browser's CORS preflight for POST /api/query from origin, asking for these headers."""
    request = {"Origin": origin, "Access-Control-Request-Method": "POST"}
    if headers:
        request["Access-Control-Request-Headers"] = ", ".join(headers)
    return client.options("/api/query", headers=request)


def test_cors_allows_the_configured_site_without_credentials(client: Any) -> None:
    response = _preflight(client, "http://localhost:3000", "content-type")
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://localhost:3000"
    assert "access-control-allow-credentials" not in response.headers
    other = _preflight(client, "https://evil.example")
    assert "access-control-allow-origin" not in other.headers


def test_empty_index_answers_503_telling_how_to_ingest(
    tmp_path: Path, make_client: Any, make_settings: Any
) -> None:
    settings = make_settings()
    store = open_store(settings)
    try:
        with make_client(settings, store=store) as client:
            response = client.post("/api/query", json={"question": "What is a branch?"})
            assert response.status_code == 503
            assert response.json() == {
                "detail": "The book has not been indexed yet: run bookchat ingest"
            }
            assert client.get("/api/chapters").json() == []
            # Selection mode needs no index at all.
            selected = client.post(
                "/api/query",
                json={
                    "question": "Who maintains Git?",
                    "mode": "selection",
                    "selection": "Junio C Hamano has maintained Git since July 2005.",
                },
            )
            assert selected.status_code == 200
    finally:
        store.close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_store_gives_503s_without_leaking_the_error(
    tmp_path: Path, embedder: Embedder, make_settings: Any
) -> None:
    settings = make_settings(QDRANT_URL=f"http://127.0.0.1:{_closed_port()}")
    # No store is passed: the lifespan opens the configured one, a server that is not there.
    with TestClient(create_app(settings, embedder=embedder)) as client:
        health = client.get("/health")
        assert health.status_code == 503
        assert health.json()["status"] == "degraded"
        assert health.json()["checks"]["vector_store"] == "unavailable"
        response = client.post("/api/query", json={"question": "What is a branch?"})
        assert response.status_code == 503
        assert "127.0.0.1" not in response.text
        assert "Connection" not in response.text


def test_server_warming_its_sentence_cache_answers_and_reports_it(
    make_client: Any, book_settings: Any
) -> None:
    settings = book_settings.model_copy(update={"warm_sentence_cache": True})
    with make_client(settings) as client:
        assert client.get("/health").json()["sentence_cache"] in {"warming", "warm"}
        response = client.post("/api/query", json={"question": "What does git revert do?"})
        assert response.json()["status"] == "grounded"
        while client.get("/health").json()["sentence_cache"] == "warming":
            time.sleep(0.05)
        assert client.get("/health").json()["sentence_cache"] == "warm"


def test_chapters_of_each_edition_have_its_titles_and_urls(site_client: Any) -> None:
    default = site_client.get("/api/chapters").json()
    assert [(c["key"], c["title"], c["url"]) for c in default] == [
        ("basics", "Basics", "/textbook/docs/basics/install/"),
        ("undo", "Undoing changes", "/textbook/docs/undo/"),
    ]
    french = site_client.get("/api/chapters", params={"locale": "fr"}).json()
    assert french[0]["title"] == "Les bases"
    pages = [(p["title"], p["url"], p["localized"]) for p in french[0]["pages"]]
    assert pages == [
        ("Installing Git", "/textbook/fr/docs/basics/install/", False),
        ("Configurer Git", "/textbook/fr/docs/basics/config/", True),
    ]
    old = site_client.get("/api/chapters", params={"version": "1.0", "locale": "fr"}).json()
    assert old[1]["url"] == "/textbook/fr/docs/1.0/undo/"


def test_chapters_of_an_unknown_edition_are_a_404_naming_the_known_ones(site_client: Any) -> None:
    response = site_client.get("/api/chapters", params={"version": "9.9"})
    assert response.status_code == 404
    assert response.json() == {
        "detail": "Unknown version '9.9': this index holds version 'current', '1.0'."
    }
    assert site_client.get("/api/chapters", params={"locale": ""}).status_code == 422
