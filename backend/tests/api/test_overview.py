"""Overview questions through the real app and lifespan: answered from the stored outline, with
every line cited, in chapter, page and book scope, streamed, in every edition, with no search."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bookchat.config import Settings
from bookchat.overview.said import ENGLISH, FRENCH
from tests.api.test_llm_answers import llm_settings, scripted  # noqa: F401 (a fixture)
from tests.conftest import RecordingStore
from tests.scripted_model import ScriptedModel, quoting, sources_in
from tests.sse_events import sse_events

EVERY_CHAPTER = "Give me an overview of this chapter."
LINK = re.compile(r"\[([^\]]+)\]\((/[^)]*)\)")


def _ask(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/query", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def _chapters(client: Any, **params: Any) -> list[dict[str, Any]]:
    response = client.get("/api/chapters", params=params)
    assert response.status_code == 200
    chapters: list[dict[str, Any]] = response.json()
    return chapters


def test_every_chapter_gets_an_outline_citing_its_own_sections_only(client: Any) -> None:
    for chapter in _chapters(client):
        body = _ask(client, question=EVERY_CHAPTER, mode="chapter", chapter=chapter["key"])
        assert body["status"] == "grounded", chapter["key"]
        assert body["answer"].startswith(ENGLISH.chapter.format(title=chapter["title"]))
        cited = body["citations"]
        assert len({c["section"] for c in cited}) >= 3, chapter["key"]
        assert {c["chapter"] for c in cited} == {chapter["key"]}
        # Every line is cited, and every marker names a citation.
        markers = {int(n) for n in re.findall(r"\[(\d+)\]", body["answer"])}
        assert markers == {c["index"] for c in cited}
        lines = [x for x in body["answer"].splitlines() if x.lstrip().startswith("- ")]
        assert lines and all(re.search(r"\[\d+\]$", x) for x in lines)


def test_the_main_topics_of_the_book_link_every_published_chapter(
    client: Any, recording_store: RecordingStore
) -> None:
    body = _ask(client, question="What are the main topics of this book?")
    chapters = _chapters(client)
    links = LINK.findall(body["answer"])
    for chapter in chapters:
        assert (chapter["title"], chapter["url"]) in links
    assert "Troubleshooting" not in body["answer"]  # a draft is not in the book
    assert len(body["citations"]) == len(chapters)
    assert body["status"] == "grounded" and body["confidence"] == 1.0
    # Answered from the catalog's outline: no search, no vectors read.
    assert recording_store.vector_queries() == []


def test_a_page_overview_follows_the_readers_page_and_keeps_to_it(client: Any) -> None:
    body = _ask(
        client, question="Summarize this page", page="/docs/branching/merging#conflict-markers"
    )
    assert body["answer"].startswith(ENGLISH.page.format(title="Merging"))
    assert {c["path"] for c in body["citations"]} == {"03-branching/02-merging.md"}
    sections = [c["section"] for c in body["citations"]]
    assert sections[:3] == ["Merging", "Fast-forward merges", "Three-way merges"]
    # Each link lands on its section's heading.
    for _title, url in LINK.findall(body["answer"])[1:]:
        assert url.startswith("/docs/branching/merging#")


def test_a_named_chapter_is_found_in_book_mode(client: Any) -> None:
    body = _ask(client, question="Give me an overview of the chapter on team workflows")
    assert {c["chapter"] for c in body["citations"]} == {"workflows"}
    assert len({c["path"] for c in body["citations"]}) == 3


def test_a_look_alike_is_answered_the_usual_way(client: Any) -> None:
    body = _ask(client, question="What does git log --stat show?")
    assert not body["answer"].startswith(("An outline", "The book's"))


def test_an_overview_streams_its_answer_like_any_other(client: Any) -> None:
    response = client.post(
        "/api/query/stream",
        json={"question": "Résume ce chapitre", "mode": "chapter", "chapter": "internals"},
    )
    assert response.status_code == 200
    events = sse_events(response.text)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "meta" and kinds[-1] == "done"
    meta, done = events[0][1], events[-1][1]
    assert meta["status"] == done["status"] == "grounded"
    streamed = "".join(data["text"] for kind, data in events if kind == "delta")
    assert streamed == done["answer"]
    assert done["answer"].startswith(ENGLISH.chapter.format(title="Git Internals"))


def test_an_unknown_chapter_is_still_a_404_for_an_overview(client: Any) -> None:
    response = client.post(
        "/api/query", json={"question": EVERY_CHAPTER, "mode": "chapter", "chapter": "nope"}
    )
    assert response.status_code == 404
    assert "GET /api/chapters" in response.json()["detail"]


@pytest.mark.parametrize(("version", "locale"), [("current", "fr"), ("1.0", "en"), ("1.0", "fr")])
def test_every_edition_gets_its_own_outline(site_client: Any, version: str, locale: str) -> None:
    chapters = _chapters(site_client, version=version, locale=locale)
    body = _ask(
        site_client,
        question="What are the main topics of this book?",
        version=version,
        locale=locale,
    )
    said = FRENCH if locale == "fr" else ENGLISH
    assert body["answer"].startswith(said.book.format(count=len(chapters)))
    assert (body["version"], body["locale"]) == (version, locale)
    urls = {url.split("#")[0] for _, url in LINK.findall(body["answer"])}
    pages = {p["url"] for ch in chapters for p in ch["pages"]} | {ch["url"] for ch in chapters}
    assert urls and urls <= pages
    for citation in body["citations"]:
        assert citation["url"].split("#")[0] in pages


def test_with_a_model_the_summary_is_written_from_the_outline_and_checked(
    make_client: Any,
    book_settings: Settings,
    scripted: ScriptedModel,  # noqa: F811
) -> None:
    scripted.default = quoting(2)
    with make_client(llm_settings(book_settings, scripted)) as llm_client:
        body = _ask(llm_client, question=EVERY_CHAPTER, mode="chapter", chapter="internals")
    assert (body["generator"], body["status"]) == ("llm", "grounded")
    assert body["citations"] and {c["chapter"] for c in body["citations"]} == {"internals"}
    request = scripted.requests[0]
    sources = sources_in(request)
    # The outline's sections, each with its opening, in reading order; no search tool to leave
    # the chapter with.
    assert len(sources) >= 3
    assert sources[2].startswith("The object database:")
    assert not request.get("tools")
