"""The answering agent for one question: instructions, tools, input items and run state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents import Agent, Model, ModelSettings

from bookchat.answer.llm.passages import Passage, Search, Shown
from bookchat.answer.llm.prompt import History, Mode, conversation, instructions, question_message
from bookchat.answer.llm.search_tool import RunState, tools_for


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
    question: str,
    passages: Sequence[Passage],
    *,
    mode: Mode,
    chapter: str | None,
    history: History,
    search: Search | None,
    max_words: int,
    max_searches: int,
) -> Run:
    """The agent and input for one question; search_book is offered only when it can search."""
    # The selection is the only source in selection mode: nothing else may be searched.
    searchable = search if mode != "selection" else None
    state = RunState(Shown(list(passages)), searchable, max_searches)
    tools = tools_for(state)
    agent = Agent[RunState](
        name="bookchat",
        instructions=instructions(
            mode=mode,
            chapter_title=chapter,
            max_words=max_words,
            searches=state.max_searches if tools else 0,
        ),
        model=model,
        tools=list(tools),
        model_settings=ModelSettings(include_usage=True, max_tokens=output_token_cap(max_words)),
    )
    return Run(agent, conversation(history, question_message(question, passages)), state)
