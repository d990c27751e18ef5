"""Doc ids and URLs follow @docusaurus/plugin-content-docs's rules."""

from pathlib import PurePosixPath as P

import pytest

from bookchat.ingest import routes


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("01-intro", "intro"),
        ("1_intro", "intro"),
        ("003 - Client API", "Client API"),
        ("0. Plugin API", "Plugin API"),
        ("2024-01-05-release", "2024-01-05-release"),  # date-like: not an ordering prefix
        ("8.0-upgrade", "8.0-upgrade"),  # version-like: kept
        ("intro", "intro"),
    ],
)
def test_number_prefixes_are_stripped_like_docusaurus(name: str, expected: str) -> None:
    assert routes.strip_number_prefix(name) == expected


def test_doc_id_strips_prefixes_from_folders_and_file_and_honours_frontmatter_id() -> None:
    assert routes.doc_id(P("01-getting-started/02-first-repository.md"), None) == (
        "getting-started/first-repository"
    )
    assert routes.doc_id(P("01-getting-started/03-configuration.md"), "configure") == (
        "getting-started/configure"
    )
    assert routes.doc_id(P("intro.md"), None) == "intro"


@pytest.mark.parametrize(
    ("path", "fm_id", "fm_slug", "expected"),
    [
        ("intro.md", None, None, "/intro"),
        ("intro.md", None, "/", "/"),
        ("01-basics/02-setup.md", None, None, "/basics/setup"),
        ("01-basics/index.md", None, None, "/basics/"),
        ("01-basics/README.md", None, None, "/basics/"),
        ("guides/guides.md", None, None, "/guides/"),
        ("01-basics/03-config.md", "configure", None, "/basics/configure"),
        ("04-collab/02-prs.md", None, "/collaboration/reviews", "/collaboration/reviews"),
        ("04-collab/02-prs.md", None, "reviews", "/collab/reviews"),
        ("04-collab/02-prs.md", None, "../other", "/other"),
        ("a/01-b/c.md", None, None, "/a/b/c"),
    ],
)
def test_slugs_match_docusaurus(
    path: str, fm_id: str | None, fm_slug: str | None, expected: str
) -> None:
    assert routes.doc_slug(P(path), fm_id, fm_slug) == expected


@pytest.mark.parametrize(
    ("base", "route", "slug", "expected"),
    [
        ("/", "docs", "/intro", "/docs/intro"),
        ("/", "docs", "/", "/docs/"),
        ("/", "docs", "/basics/", "/docs/basics/"),
        ("/book/", "docs", "/intro", "/book/docs/intro"),
        ("/", "", "/intro", "/intro"),
        ("/", "", "/", "/"),
    ],
)
def test_permalinks_join_base_url_route_and_slug(
    base: str, route: str, slug: str, expected: str
) -> None:
    assert routes.permalink(base, route, slug) == expected
