"""Finding the part of the book an overview asks about."""

from __future__ import annotations

from bookchat.overview.ask import OverviewAsk
from bookchat.overview.scope import Place, Target, resolve
from tests.overview.book import sample_book


def _resolve(ask: OverviewAsk, mode: str = "book", **where: str) -> Target | None:
    catalog, outlines = sample_book()
    chapter = catalog.chapter(where["chapter"]) if "chapter" in where else None
    return resolve(ask, Place(mode, chapter, where.get("page"), catalog, outlines))


def _names(target: Target | None) -> tuple[str, str, str]:
    assert target is not None
    chapter = str((target.chapter or {}).get("key", ""))
    return target.scope, chapter, str((target.page or {}).get("title", ""))


def test_no_scope_is_the_modes_own() -> None:
    assert _names(_resolve(OverviewAsk(), "chapter", chapter="internals")) == (
        "chapter",
        "internals",
        "",
    )
    assert _names(_resolve(OverviewAsk())) == ("book", "", "")


def test_this_page_and_this_section_come_from_the_readers_page() -> None:
    page = "/docs/branching/merging#conflict-markers"
    assert _names(_resolve(OverviewAsk("page", here=True), page=page)) == (
        "page",
        "branching",
        "Merging",
    )
    section = _resolve(OverviewAsk("section", here=True), page=page)
    _, outlines = sample_book()
    assert section is not None and section.section is not None
    assert outlines["branching/merging"].sections[section.section].heading == "Conflict markers"


def test_this_page_without_a_page_falls_back_to_the_chapter_then_the_book() -> None:
    here = OverviewAsk("page", here=True)
    assert _names(_resolve(here, "chapter", chapter="workflows"))[:2] == ("chapter", "workflows")
    assert _names(_resolve(here)) == ("book", "", "")


def test_a_named_kind_wins_over_a_closer_title_of_another_kind() -> None:
    # "Remotes" is also a page title; the question asked for the chapter "Working with Remotes".
    assert _names(_resolve(OverviewAsk("chapter", name="remotes")))[:2] == (
        "chapter",
        "collaboration",
    )
    assert _names(_resolve(OverviewAsk(name="remotes"))) == ("page", "collaboration", "Remotes")


def test_names_match_word_forms_and_sections() -> None:
    assert _names(_resolve(OverviewAsk(name="rebase")))[2] == "Rebasing"
    found = _resolve(OverviewAsk("section", name="fast-forward merges"))
    assert found is not None and found.scope == "section"


def test_in_chapter_mode_a_title_elsewhere_is_not_an_overview() -> None:
    assert _resolve(OverviewAsk(name="rebasing"), "chapter", chapter="internals") is None
    assert _resolve(OverviewAsk(name="quantum physics")) is None
