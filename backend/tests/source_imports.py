"""What the bookchat source imports, read from its syntax (shared by the tests of house rules)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bookchat"


def bookchat_stages(path: Path) -> set[str]:
    """The bookchat packages a module imports from (`answer` for bookchat.answer.features)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            else []
        )
        found |= {n.split(".")[1] for n in names if n.startswith("bookchat.") and "." in n}
    return found


def stages_imported(package: str) -> set[str]:
    """The bookchat packages the modules of `package` import from."""
    return set().union(*(bookchat_stages(p) for p in (SRC / package).rglob("*.py")))
