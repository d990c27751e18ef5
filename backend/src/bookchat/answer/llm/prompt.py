"""The system prompt (prompt.md) and the messages that carry sources and conversation history."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from string import Template
from typing import Any, Literal

from bookchat.answer.llm.passages import Passage, source_tag

# The one sentence the model must use when the sources do not answer; the citation check turns it
# (like any answer without a valid citation) into an abstention.
REFUSAL = "The book does not cover this."

Mode = Literal["book", "chapter", "selection"]
History = Sequence[tuple[str, str]]

_MARKERS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")


@cache
def _template() -> Template:
    return Template(files("bookchat.answer.llm").joinpath("prompt.md").read_text("utf-8"))


def _scope(mode: Mode, chapter_title: str | None) -> str:
    if mode == "selection":
        return "The reader selected a passage of the book and asks about it: it is source [1]."
    if mode == "chapter" and chapter_title:
        name = html.escape(chapter_title, quote=False)
        return f"The reader asks about the chapter “{name}”; the sources come from it."
    return "The reader asks about the whole book."


def instructions(*, mode: Mode, chapter_title: str | None, max_words: int, searches: int) -> str:
    """The system prompt for one question; `searches` > 0 describes the search_book tool."""
    rule = ""
    if searches > 0:
        rule = (
            "6. If the sources are not enough, call search_book with a short query (at most "
            f"{searches} times). Its results are new sources with the next numbers; cite them "
            "the same way.\n"
        )
    return _template().substitute(
        refusal=REFUSAL,
        max_words=max_words,
        scope=_scope(mode, chapter_title),
        search_rule=rule,
    )


def sources_block(passages: Sequence[Passage], first: int = 1) -> str:
    """Passages as `<sources>` numbered from `first`."""
    tags = [source_tag(first + i, p) for i, p in enumerate(passages)]
    return "<sources>\n" + "\n".join(tags) + "\n</sources>"


def question_message(question: str, passages: Sequence[Passage]) -> str:
    """The reader's turn: the sources as data, then the question."""
    escaped = html.escape(question.strip(), quote=False)
    return f"{sources_block(passages)}\n\n<question>\n{escaped}\n</question>"


def conversation(history: History, message: str) -> list[Any]:
    """Prior turns as user/assistant messages, then this turn."""
    items: list[Any] = []
    for asked, answered in history:
        items.append({"role": "user", "content": asked})
        # Old [n] numbers referred to old sources; left in, they would be read as the new ones.
        items.append({"role": "assistant", "content": _MARKERS.sub("", answered)})
    items.append({"role": "user", "content": message})
    return items
