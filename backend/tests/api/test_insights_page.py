"""/insights: the built page served with headers that keep it to itself, or a 503 until built."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from bookchat.api.app import create_app
from bookchat.api.insights_page import NOT_BUILT
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.vectorstore import VectorStore

INDEX = (
    '<!doctype html><title>insights</title><script type="module" src="./assets/page.js"></script>'
)


def _client(settings: Settings, store: VectorStore, embedder: Embedder, page: Path) -> TestClient:
    return TestClient(create_app(settings, store=store, embedder=embedder, insights_page=page))


def test_an_unbuilt_page_says_how_to_build_it(
    tmp_path: Path, book_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    with _client(book_settings, book_store, embedder, tmp_path / "missing") as client:
        for path in ("/insights/", "/insights", "/insights/assets/x.js"):
            answer = client.get(path)
            assert (answer.status_code, answer.json()) == (503, {"detail": NOT_BUILT}), path


def test_the_built_page_is_served_beside_the_api(
    tmp_path: Path, book_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text(INDEX, encoding="utf-8")
    (tmp_path / "assets" / "page.js").write_text("console.log(1)", encoding="utf-8")
    with _client(book_settings, book_store, embedder, tmp_path) as client:
        bare = client.get("/insights", follow_redirects=False)
        assert (bare.status_code, bare.headers["location"]) == (307, "http://testserver/insights/")
        page = client.get("/insights/")
        assert page.status_code == 200
        assert page.text == INDEX
        assert page.headers["content-type"].startswith("text/html")
        policy = page.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert page.headers["referrer-policy"] == "no-referrer"
        script = client.get("/insights/assets/page.js")
        assert (script.status_code, script.text) == (200, "console.log(1)")
        assert client.get("/insights/assets/none.js").status_code == 404
        # A page, not an API operation.
        assert not [p for p in client.get("/openapi.json").json()["paths"] if "insights" in p[:9]]
