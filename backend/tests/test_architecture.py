"""House rules that keep the code base honest, checked on the source itself."""

import ast
import re
from pathlib import Path

from tests.source_imports import SRC, bookchat_stages


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_only_the_embedder_imports_sentence_transformers() -> None:
    users = [
        p.relative_to(SRC).as_posix() for p in _modules() if "sentence_transformers" in _imports(p)
    ]
    assert users == ["embedding/embedder.py"]


def test_only_the_api_package_imports_fastapi_or_slowapi() -> None:
    users = {
        p.relative_to(SRC).as_posix()
        for p in _modules()
        if {"fastapi", "slowapi", "starlette"} & _imports(p)
    }
    assert all(name.startswith("api/") for name in users), users


def test_settings_are_the_only_reader_of_the_environment() -> None:
    # Setting a variable for a library (HF_HUB_OFFLINE) is fine; reading outside Settings is not.
    reads = re.compile(r"os\.getenv\(|os\.environ\.get\(|os\.environ\[[^\]]+\](?!\s*=)")
    offenders = [
        p.relative_to(SRC).as_posix()
        for p in _modules()
        if reads.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_no_module_is_a_grab_bag() -> None:
    assert not [p for p in _modules() if p.stem in {"utils", "helpers", "misc", "common"}]


# The pipeline's layers, lowest first: a package imports only from the layers below it (or its
# own), so the house reads from the model up to the API with no arrow running back up. Packages
# of one layer never import each other.
LAYERS: list[set[str]] = [
    {"config"},
    {"markdown"},  # answer units and page outlines: what ingest stores and query time reads
    {"embedding"},  # the MiniLM model: what ingest and retrieval both compute
    {"vectorstore"},
    {"ingest"},
    {"retrieval"},  # reads what ingest stored
    {"overview"},
    {"answer"},
    {"cache", "history", "evals"},
    {"api"},
    {"cli"},
]


def _layer(name: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if name in layer)


def test_every_package_has_its_layer() -> None:
    packages = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in _modules()}
    assert packages - {"__init__"} <= set().union(*LAYERS)


def test_no_package_imports_a_layer_above_its_own() -> None:
    offenders = {}
    for p in _modules():
        own = p.relative_to(SRC).parts[0].removesuffix(".py")
        if own == "__init__":
            continue
        above = sorted(s for s in bookchat_stages(p) - {own} if _layer(s) >= _layer(own))
        if above:
            offenders[p.relative_to(SRC).as_posix()] = above
    assert offenders == {}


def test_the_stages_that_answer_never_import_ingest() -> None:
    # What ingest stores is read back through markdown/ and the store: answering a question never
    # steps into the ingest pipeline (issue #29 item 3: "no query-time call into ingest/").
    answering = {"retrieval", "overview", "answer", "cache", "history"}
    offenders = {
        p.relative_to(SRC).as_posix()
        for p in _modules()
        if p.relative_to(SRC).parts[0] in answering and "ingest" in bookchat_stages(p)
    }
    assert offenders == set()
