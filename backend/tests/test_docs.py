"""The docs stay true: the configuration page and `.env.example` against `Settings`, the quality
page against `bench/results`, and every path or link a page names against the repository."""

from __future__ import annotations

import importlib.util
import re
import typing
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from types import ModuleType
from typing import Any

from bookchat.config import Settings

REPO = Path(__file__).resolve().parents[2]
CONFIGURATION = REPO / "docs" / "configuration.md"


def _pages() -> list[Path]:
    """The pages whose paths and links are checked: the README, docs/ and specs/."""
    pages = [REPO / "README.md", *REPO.glob("docs/**/*.md"), *REPO.glob("specs/**/*.md")]
    return sorted(p for p in pages if p.is_file())


def _prose_lines(page: Path) -> Iterator[tuple[int, str]]:
    """A page's lines with their numbers, fenced code blocks left out."""
    fence = ""
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        opening = re.match(r"\s*(`{3,}|~{3,})", line)
        if opening and (not fence or opening.group(1).startswith(fence)):
            fence = "" if fence else opening.group(1)
            continue
        if not fence:
            yield number, line


# --- configuration ---------------------------------------------------------------------------


def _env_name(name: str, field: Any) -> str:
    """The variable a field is read from, as pydantic-settings resolves it for this model."""
    alias = field.validation_alias if isinstance(field.validation_alias, str) else field.alias
    return str(alias or Settings.model_config.get("env_prefix", "") + name).upper()


def _settings_variables() -> dict[str, tuple[str, Any]]:
    """Each variable Settings reads → (its field name, its field)."""
    return {_env_name(n, f): (n, f) for n, f in Settings.model_fields.items()}


def _site_build_variables() -> set[str]:
    """The variables the sample site's build reads (`process.env.X` in docusaurus.config.ts)."""
    config = (REPO / "website" / "docusaurus.config.ts").read_text(encoding="utf-8")
    return set(re.findall(r"process\.env\.([A-Z][A-Z0-9_]*)", config))


def _configuration_rows() -> dict[str, list[str]]:
    """The configuration page's table rows: variable → its cells (type, default, meaning)."""
    rows: dict[str, list[str]] = {}
    for _, line in _prose_lines(CONFIGURATION):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        named = re.fullmatch(r"`([A-Z][A-Z0-9_]*)`", cells[0]) if cells else None
        if named:
            assert named.group(1) not in rows, f"{named.group(1)} has two rows"
            rows[named.group(1)] = cells[1:]
    return rows


def _choices(annotation: Any) -> set[str]:
    """The values a Literal annotation allows (inside `X | None` too)."""
    if typing.get_origin(annotation) is typing.Literal:
        return {str(a) for a in typing.get_args(annotation)}
    return set().union(*(_choices(a) for a in typing.get_args(annotation)))


def _difference(named: set[str], expected: set[str]) -> str:
    return f"missing: {sorted(expected - named)}; not a setting: {sorted(named - expected)}"


def test_configuration_page_names_exactly_the_settings_and_the_site_build_variables() -> None:
    named = set(_configuration_rows())
    expected = set(_settings_variables()) | _site_build_variables()
    assert named == expected, _difference(named, expected)


def test_configuration_page_gives_each_setting_its_default_and_choices() -> None:
    rows = _configuration_rows()
    wrong = []
    for variable, (name, field) in _settings_variables().items():
        if variable not in rows:
            continue  # the test above names it
        kind, shown, _meaning = rows[variable][:3]
        default = field.get_default(call_default_factory=True)
        if shown == "unset":
            if default not in (None, []):
                wrong.append(f"{variable}: the page says unset, Settings says {default!r}")
        else:
            text = shown.strip("`")
            if text.startswith("~"):
                text = str(Path(text).expanduser())
            read = getattr(Settings.model_validate({variable: text}), name)
            if read != default:
                wrong.append(f"{variable}: the page says {shown}, Settings says {default!r}")
        missing = {c for c in _choices(field.annotation) if f"`{c}`" not in kind}
        if missing:
            wrong.append(f"{variable}: its type cell lacks {sorted(missing)}")
    assert wrong == []


def test_env_example_lists_every_variable() -> None:
    text = (REPO / ".env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))
    expected = set(_settings_variables()) | _site_build_variables()
    assert named == expected, _difference(named, expected)


# --- the generated quality page --------------------------------------------------------------


def _quality_page_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("quality_page", REPO / "bench/quality_page.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quality_page_is_what_the_script_writes_from_the_committed_results() -> None:
    page = (REPO / "docs" / "quality.md").read_text(encoding="utf-8")
    expected = _quality_page_script().render(REPO / "bench" / "results")
    assert page == expected, "docs/quality.md is stale: run bench/quality_page.py"


def test_quality_page_copies_every_figure_of_a_summary(tmp_path: Path) -> None:
    summary = (
        '{"dataset_version": "d1", "run_version": "r1", "corpus_version": "c1",'
        ' "fixtures": "f.jsonl", "settings": {"generator": "extractive"},'
        ' "slices": {"book/x": {"rows": 7, "pass_rate": 0.4286, "recall_at_5": null}},'
        ' "all": {"rows": 7, "pass_rate": 0.4286, "recall_at_5": null}}'
    )
    (tmp_path / "made-up.summary.json").write_text(summary, encoding="utf-8")
    page = _quality_page_script().render(tmp_path, scripts=tmp_path)
    assert "| `book/x` | 7 | 0.429 |" in page
    assert "recall@5" not in page.split("## made-up")[1]  # no slice has it
    assert "a run by hand (`bookchat eval --fixtures f.jsonl --summary" in page


# --- paths and links ---------------------------------------------------------------------------

# Where a path a page names may live, besides the page's own folder: the repository, and the
# folders pages name paths from (`training/train.py`, `answer/service.py`, `src/theme/`,
# `versioned_docs/`, `03-branching/02-merging.md`).
ROOTS = [
    REPO,
    REPO / "backend",
    REPO / "backend" / "src",
    REPO / "backend" / "src" / "bookchat",
    REPO / "frontend",
    REPO / "website",
    REPO / "website" / "docs",
]
FILE_TYPES = (
    *(".py", ".md", ".mdx", ".json", ".jsonl", ".toml", ".sh", ".ts", ".tsx", ".mjs", ".js"),
    *(".css", ".sql", ".safetensors", ".yml", ".yaml", ".txt", ".html", ".gguf"),
)


def _ignored(path: Path) -> bool:
    """True when a .gitignore of the repository ignores `path` or a folder above it (build
    outputs, the data folder, the venv: named by pages, absent from a fresh clone)."""
    for gitignore in [REPO / ".gitignore", *REPO.glob("*/.gitignore")]:
        base = gitignore.parent
        if not path.is_relative_to(base):
            continue
        parts = path.relative_to(base).parts
        for line in gitignore.read_text(encoding="utf-8").splitlines():
            pattern = line.strip().rstrip("/")
            if not pattern or pattern.startswith(("#", "!")):
                continue
            if "/" in pattern:  # anchored to the .gitignore's folder
                anchored = pattern.lstrip("/")
                if fnmatch("/".join(parts[: anchored.count("/") + 1]), anchored):
                    return True
            elif any(fnmatch(part, pattern) for part in parts):
                return True
    return False


def _names_a_path(token: str) -> bool:
    """Whether a backticked token is meant as a repository path (see the test's rules)."""
    if "/" not in token or re.search(r"[\s<>*{}\[\]()…$~|=,;:?#!'\"]|\.\.\.", token):
        return False
    if token.startswith(("/", "-", "@", ".")) and not token.startswith("../"):
        return False
    if "@" in token:  # `path@commit`: a file as it was, checked by git, not here
        return False
    first = next(part for part in token.split("/") if part not in ("..", ""))
    return token.endswith(FILE_TYPES) or any((root / first).exists() for root in ROOTS)


def _resolves(token: str, page: Path) -> bool:
    """True when the path exists (or is git-ignored) under the page's folder or a root, or
    points outside the repository (`../shared/`, the shared corpora beside it)."""
    for base in [page.parent, *ROOTS]:
        target = (base / token).resolve()
        if not target.is_relative_to(REPO):
            return True
        if target.exists() or _ignored(target):
            return True
    return False


def _inline_code(line: str) -> Iterator[str]:
    """The contents of a line's code spans (`x`, or ``x`` around a backtick)."""
    for match in re.finditer(r"(`+)(.+?)(?<!`)\1(?!`)", line):
        yield match.group(2).strip()


def test_every_backticked_path_in_the_docs_and_specs_exists() -> None:
    """Rules. A backticked token in README.md, docs/**/*.md or specs/**/*.md (outside fenced
    code blocks) names a path when it has a `/` and no space or pattern character (`<`, `*`,
    `{`, `…`, `$`, `~`, `:`, `#`, …), is no URL or API route (those start with `/`), CLI flag,
    npm package (`@scope/name`) or path pinned to a commit (`file.py@1a2b3c4`), and either ends
    in a file extension (`.py`, `.md`, `.json`, …) or starts with a folder that exists under one
    of the roots below. Eval slices (`book/reader`), doc ids (`branching/merging`) and limits
    (`20/minute`) are therefore not paths; bare file names (`model.json`) are not checked.
    A path must exist relative to the page's folder, the repository, `backend/`, `backend/src/`,
    `backend/src/bookchat/` (modules: `answer/service.py`), `frontend/`, `website/` or
    `website/docs/` (the sample book's pages); a git-ignored path (`website/build`,
    `frontend/lib`, `data/`) and one outside the repository (`../shared/`) are let through."""
    missing = [
        f"{page.relative_to(REPO)}:{number}: `{token}`"
        for page in _pages()
        for number, line in _prose_lines(page)
        for token in _inline_code(line)
        if _names_a_path(token) and not _resolves(token, page)
    ]
    assert missing == [], "paths that do not exist:\n" + "\n".join(missing)


def _anchors(page: Path) -> set[str]:
    """The #anchors of a Markdown page's headings, as GitHub makes them."""
    return {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for _, line in _prose_lines(page)
        if re.match(r"#{1,6} ", line)
    }


def test_every_relative_link_in_the_docs_and_specs_resolves() -> None:
    """`[text](target)` and images: a target that is not a URL exists, relative to the page,
    and its #anchor, on a Markdown page, is one of that page's headings."""
    broken = []
    for page in _pages():
        for number, line in _prose_lines(page):
            prose = re.sub(r"(`+).+?(?<!`)\1(?!`)", "", line)  # a link in code is an example
            for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", prose):
                path, _, anchor = target.partition("#")
                if re.match(r"[a-z][a-z+.-]*:", path):
                    continue
                linked = page.parent / path if path else page
                if not linked.exists() or (
                    anchor and linked.suffix == ".md" and anchor not in _anchors(linked)
                ):
                    broken.append(f"{page.relative_to(REPO)}:{number}: ({target})")
    assert broken == [], "links to nothing:\n" + "\n".join(broken)


def test_readme_is_short_and_opens_on_the_two_commands() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    first_block = next(i for i, line in enumerate(lines) if line.startswith("```"))
    opening = lines[first_block + 1 : first_block + 3]
    assert len(lines) <= 150
    assert [line.split("#")[0].strip() for line in opening] == ["make run", "make test"]
