"""The answering agent for one question: the passages it reads, its prompt and its one tool.

Passages are numbered from 1, each in its own `<source>` tag; the prompt is prompt.md, prior
turns, then the sources and the question; search_book's passages are numbered after the rest.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from string import Template
from typing import Any, Literal

from agents import Agent, FunctionTool, Model, ModelSettings, RunContextWrapper, function_tool

from bookchat.answer.compose import Source
from bookchat.answer.phrases import CATALOGUE
from bookchat.retrieval.editions import language_of
from bookchat.vectorstore import Hit

log = logging.getLogger(__name__)

# The one sentence the model must use when the sources do not answer; the citation check turns it
# (like any answer without a valid citation) into an abstention.
REFUSAL = "The book does not cover this."
# Each search is a model round trip plus a retrieval; two are enough to find a section the
# first retrieval missed without letting a confused model loop.
MAX_SEARCHES = 2
MAX_QUERY_CHARS = 300

Mode = Literal["book", "chapter", "selection"]
SearchPolicy = Literal["auto", "first", "off"]
History = Sequence[tuple[str, str]]

_MARKERS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")


@dataclass(frozen=True, slots=True)
class Passage:
    """A source and the text the model reads from it (a chunk, or the reader's selection)."""

    source: Source
    text: str

    @classmethod
    def from_hit(cls, hit: Hit) -> Passage:
        """The passage of a store hit."""
        return cls(
            Source.from_payload(hit.chunk_id, hit.score, hit.payload),
            str(hit.payload.get("text", "")),
        )

    @property
    def key(self) -> str:
        """What makes two passages the same passage."""
        return self.source.chunk_id


Search = Callable[[str], Awaitable[list[Passage]]]


@dataclass(frozen=True, slots=True)
class Question:
    """One question put to the model, with everything it is answered from."""

    text: str
    passages: Sequence[Passage]
    mode: Mode
    chapter: str | None = None  # the chapter's title, in chapter mode
    history: History = ()
    search: Search | None = None  # search_book's retrieval; None offers no tool
    locale: str | None = None  # the reader's: the model answers in its language


def _attribute(value: str) -> str:
    return html.escape(" ".join(value.split()), quote=True)


def source_tag(number: int, passage: Passage) -> str:
    """One passage as `<source id=...>text</source>`; its text cannot open or close a tag."""
    attributes = [f'id="{number}"']
    if passage.source.chunk_id == "selection":
        attributes.append('kind="selection"')
    if passage.source.section:
        attributes.append(f'section="{_attribute(passage.source.section)}"')
    if passage.source.url:
        attributes.append(f'url="{_attribute(passage.source.url)}"')
    # Escaping every < and > (Markdown renders the entities back) means a chunk or selection
    # saying "</source><source id=9>" stays inert text inside its own tag.
    body = html.escape(passage.text.strip(), quote=False)
    return f"<source {' '.join(attributes)}>\n{body}\n</source>"


@dataclass(slots=True)
class Shown:
    """The passages shown to the model so far, numbered from 1, and the searches it used."""

    passages: list[Passage]
    searches: int = 0
    keys: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.keys = {p.key: i + 1 for i, p in enumerate(self.passages)}

    def add(self, found: Sequence[Passage]) -> list[tuple[int, Passage, bool]]:
        """Number new passages after the existing ones: (number, passage, is_new) per passage."""
        out = []
        for passage in found:
            known = self.keys.get(passage.key)
            if known is not None:
                out.append((known, self.passages[known - 1], False))
                continue
            self.passages.append(passage)
            self.keys[passage.key] = len(self.passages)
            out.append((len(self.passages), passage, True))
        return out


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


def _language_rule(locale: str | None) -> str:
    """What the model is told about the reader's language: nothing for English."""
    language = language_of(locale)
    if language in ("", "en"):
        return ""
    said = CATALOGUE.get(language)
    name = said.language if said else "the language of that locale"
    return (
        f"\nLanguage: the reader reads the book in the locale “{locale}”. Write your answer in "
        f"{name}, even when the sources or the question are in another language; only the "
        "refusal sentence stays exactly as given above, in English.\n"
    )


def instructions(
    *,
    mode: Mode,
    chapter_title: str | None,
    max_words: int,
    searches: int,
    locale: str | None = None,
) -> str:
    """The system prompt for one question; `searches` > 0 describes the search_book tool, and a
    locale other than English asks for answers in its language."""
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
    ) + _language_rule(locale)


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


@dataclass(slots=True)
class RunState:
    """What one generation shares with its tool calls."""

    shown: Shown
    search: Search | None
    max_searches: int = MAX_SEARCHES


async def _search(state: RunState, query: str) -> str:
    if state.search is None:
        return "Searching is not available for this question."
    if state.shown.searches >= state.max_searches:
        return (
            f"No more searches: the limit of {state.max_searches} is reached. Answer from the "
            "sources you have, or reply with the refusal sentence."
        )
    state.shown.searches += 1
    try:
        found = await state.search(query.strip()[:MAX_QUERY_CHARS])
    except Exception:  # a failed search must not end the answer: the model goes on without it
        log.warning("search_book failed", exc_info=True)
        return "The search failed. Answer from the sources you have."
    numbered = state.shown.add(found)
    fresh = [source_tag(n, p) for n, p, new in numbered if new]
    again = sorted({n for n, _, new in numbered if not new})
    lines = ["<sources>", *fresh, "</sources>"] if fresh else ["No new passages found."]
    if again:
        lines.append("Already given: " + ", ".join(f"[{n}]" for n in again) + ".")
    return "\n".join(lines)


@function_tool(name_override="search_book")
async def search_book(ctx: RunContextWrapper[RunState], query: str) -> str:
    """Search the book (in the same scope as the question) for more passages.

    Args:
        query: A short search query, e.g. the key terms of what is missing.
    """
    return await _search(ctx.context, query)


def tools_for(state: RunState) -> list[FunctionTool]:
    """The tools offered for this run: search_book only when searching is possible."""
    return [search_book] if state.search is not None and state.max_searches > 0 else []


@dataclass(frozen=True, slots=True)
class Run:
    """What Runner.run needs: the agent, the conversation items and the shared state."""

    agent: Agent[RunState]
    items: list[Any]
    state: RunState


def output_token_cap(max_words: int) -> int:
    """Most tokens the model may write: ample for `max_words` words, never a runaway reply."""
    # English runs ~1.3 tokens a word; markers, code and a search call's arguments fit in 3x.
    return 3 * max_words + 64


def prepare_run(
    model: Model,
    question: Question,
    *,
    max_words: int,
    max_searches: int,
    search_policy: SearchPolicy = "auto",
    temperature: float | None = None,
) -> Run:
    """The agent and input for one question; search_book is offered only when it can search.

    With `search_policy` "first" the model must search once before it answers (the SDK lets it
    choose again after that call); "off" offers no tool.
    """
    # The selection is the only source in selection mode: nothing else may be searched.
    search = question.search
    searchable = search if question.mode != "selection" and search_policy != "off" else None
    state = RunState(Shown(list(question.passages)), searchable, max_searches)
    tools = tools_for(state)
    choice = "search_book" if tools and search_policy == "first" else None
    agent = Agent[RunState](
        name="bookchat",
        instructions=instructions(
            mode=question.mode,
            chapter_title=question.chapter,
            max_words=max_words,
            searches=state.max_searches if tools else 0,
            locale=question.locale,
        ),
        model=model,
        tools=list(tools),
        model_settings=ModelSettings(
            include_usage=True,
            max_tokens=output_token_cap(max_words),
            tool_choice=choice,
            temperature=temperature,
        ),
    )
    asked = question_message(question.text, question.passages)
    return Run(agent, conversation(question.history, asked), state)
