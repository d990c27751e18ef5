"""search_book: the tool that lets the model run a few more retrievals in the same scope."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from agents import FunctionTool, RunContextWrapper, function_tool

from bookchat.answer.llm.passages import Search, Shown, source_tag

log = logging.getLogger(__name__)

# Each search is a model round trip plus a retrieval; two are enough to find a section the
# first retrieval missed without letting a confused model loop.
MAX_SEARCHES = 2
MAX_QUERY_CHARS = 300


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
