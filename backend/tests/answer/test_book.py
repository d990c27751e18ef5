"""Book and chapter mode: a grounded answer with the next places beside it, a decline with the
closest places or with nothing shown, and a chapter pointing to the chapter that answers."""

from __future__ import annotations

from typing import Any

import pytest

from bookchat.answer.related import section_key
from bookchat.answer.schema import QueryRequest, QueryResponse
from bookchat.answer.service import AnswerService


def _ask(service: AnswerService, question: str, **body: Any) -> Any:
    return service.answer(QueryRequest.model_validate({"question": question, **body}))


async def test_a_grounded_answer_shows_up_to_two_more_places_it_does_not_cite(
    service: AnswerService,
) -> None:
    response: QueryResponse = await _ask(service, "How do I see which files I have changed?")
    assert response.status == "grounded"
    cited = {section_key(c.path, c.section) for c in response.citations}
    assert 1 <= len(response.related) <= 2
    assert not cited & {section_key(p.path, p.section) for p in response.related}
    assert all(p.excerpt for p in response.related)


async def test_a_question_the_book_does_not_touch_is_declined_with_nothing_shown(
    service: AnswerService,
) -> None:
    response: QueryResponse = await _ask(service, "What is a good recipe for sourdough bread?")
    assert response.status == "abstained"
    assert response.related == [] and response.citations == []


async def test_a_covered_question_no_passage_answers_shows_the_closest_sections(
    service: AnswerService,
) -> None:
    # The book talks about hosting remotes but names no price: no passage answers, and what the
    # reader gets is where the book comes closest, never a dead end.
    response: QueryResponse = await _ask(service, "Which Git hosting service is the cheapest?")
    assert response.status == "related"
    assert response.citations == [] and response.short_answer is None
    assert "closest" in response.answer
    assert 1 <= len(response.related) <= 3
    assert any(
        "remote" in p.section.lower() or "remote" in p.excerpt.lower() for p in response.related
    )


async def test_chapter_mode_names_the_other_chapter_whose_section_comes_closest(
    service: AnswerService,
) -> None:
    response: QueryResponse = await _ask(
        service, "How do I abort a merge with conflicts?", mode="chapter", chapter="getting-started"
    )
    assert response.status in ("related", "abstained")
    if response.status == "abstained":
        pytest.fail(f"a merge question was declined outright in Getting Started: {response}")
    other = [p for p in response.related if p.chapter != "getting-started"]
    assert other and other[-1].chapter_title
    assert response.suggested_chapter is None or response.suggested_chapter.key == other[-1].chapter
