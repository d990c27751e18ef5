"""A built site's editions as ingest reads them: real permalinks, anchors, translations."""

from __future__ import annotations

from pathlib import Path

from bookchat.ingest.manifest import read_site_routes
from bookchat.ingest.site import build_site_corpus
from tests.sites import write_site


def _corpus(tmp_path: Path):  # type: ignore[no-untyped-def]
    site = write_site(tmp_path)
    return build_site_corpus(site, read_site_routes(site))


def _chunk(corpus, version: str, locale: str, section: str):  # type: ignore[no-untyped-def]
    return next(
        c
        for c in corpus.chunks
        if (c.payload["version"], c.payload["locale"], c.payload["section"])
        == (version, locale, section)
    )


def test_every_edition_cites_its_own_permalink_with_the_heading_anchor(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    urls = {
        (c.payload["version"], c.payload["locale"])
        for c in corpus.chunks
        if c.payload["doc_id"] == "basics/config" and c.payload["anchor"] == "default-branch"
    }
    assert urls == {("current", "en"), ("1.0", "en"), ("current", "fr"), ("1.0", "fr")}
    assert _chunk(corpus, "current", "en", "Default branch").payload["url"] == (
        "/textbook/docs/basics/config/#default-branch"
    )
    assert _chunk(corpus, "1.0", "en", "Default branch").payload["url"] == (
        "/textbook/docs/1.0/basics/config/#default-branch"
    )
    fr = _chunk(corpus, "current", "fr", "Branche par défaut")
    assert fr.payload["url"] == "/textbook/fr/docs/basics/config/#default-branch"
    assert "s'appelle main" in fr.payload["text"]
    assert "master" in _chunk(corpus, "1.0", "en", "Default branch").payload["text"]


def test_an_untranslated_page_keeps_the_english_text_at_the_french_url(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    chunk = _chunk(corpus, "current", "fr", "Requirements")
    assert chunk.payload["localized"] is False
    assert chunk.payload["url"] == "/textbook/fr/docs/basics/install/#requirements"
    assert _chunk(corpus, "current", "fr", "Branche par défaut").payload["localized"] is True
    assert _chunk(corpus, "current", "en", "Requirements").payload["localized"] is True


def test_chunk_ids_are_unique_across_editions_and_current_english_keeps_plain_ids(
    tmp_path: Path,
) -> None:
    from bookchat.ingest.corpus import build_corpus

    corpus = _corpus(tmp_path)
    ids = [c.chunk_id for c in corpus.chunks]
    assert len(ids) == len(set(ids))
    plain = build_corpus(tmp_path / "site" / "docs", base_url="/textbook/")
    current_en = {
        c.chunk_id
        for c in corpus.chunks
        if c.payload["version"] == "current" and c.payload["locale"] == "en"
    }
    assert current_en == {c.chunk_id for c in plain.chunks}


def test_chapters_are_per_edition_with_translated_category_labels(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    fields = corpus.catalog_fields()
    assert (fields["default_version"], fields["default_locale"]) == ("current", "en")
    assert [v["name"] for v in fields["versions"]] == ["current", "1.0"]
    by_key = {(e["version"], e["locale"]): e for e in fields["editions"]}
    assert [c["title"] for c in by_key[("current", "en")]["chapters"]] == [
        "Basics",
        "Undoing changes",
    ]
    fr = by_key[("current", "fr")]["chapters"][0]
    assert fr["title"] == "Les bases"
    assert fr["url"] == "/textbook/fr/docs/basics/install/"
    pages = {p["doc_id"]: p for p in fr["pages"]}
    assert (pages["basics/config"]["localized"], pages["basics/install"]["localized"]) == (
        True,
        False,
    )
    assert corpus.chapters[0].title == "Basics"  # the default edition's, for older readers


def test_a_page_deleted_since_the_build_is_skipped_with_a_reason(tmp_path: Path) -> None:
    site = write_site(tmp_path)
    (site / "versioned_docs" / "version-1.0" / "02-undo.md").unlink()
    corpus = build_site_corpus(site, read_site_routes(site))
    assert [(s.path, s.reason) for s in corpus.skipped] == [
        (
            "versioned_docs/version-1.0/02-undo.md",
            "listed in the build's route manifest but missing: rebuild the site",
        )
    ]
    assert {c.payload["version"] for c in corpus.chunks if c.payload["doc_id"] == "undo"} == {
        "current"
    }
