"""AnswerService: overview routing, what the answer cache keys on, and a selection's answer end
to end."""

from __future__ import annotations

from bookchat.answer.schema import QueryRequest
from bookchat.answer.service import AnswerService


def _request(**body: object) -> QueryRequest:
    return QueryRequest.model_validate(body)


def test_an_overview_of_this_page_depends_on_the_page(service: AnswerService) -> None:
    asked = _request(question="Summarize this page", page="/docs/branching/merging")
    target = service.overview_target(asked)
    assert target is not None and target.scope == "page" and target.from_page
    assert service.uses_page(asked)


def test_a_chapter_or_book_overview_does_not_depend_on_the_page(service: AnswerService) -> None:
    chapter = _request(
        question="Summarize this chapter", mode="chapter", chapter="branching", page="/docs/intro"
    )
    book = _request(question="What are the main topics of this book?", page="/docs/intro")
    assert not service.uses_page(chapter)
    assert not service.uses_page(book)
    target = service.overview_target(chapter)
    assert target is not None and target.chapter is not None
    assert target.chapter["key"] == "branching"


def test_this_chapter_in_book_mode_is_the_chapter_of_the_readers_page(
    service: AnswerService,
) -> None:
    asked = _request(question="Summarize this chapter", page="/docs/branching/rebasing")
    target = service.overview_target(asked)
    assert target is not None and target.chapter is not None
    assert (target.scope, target.chapter["key"], target.from_page) == ("chapter", "branching", True)
    assert service.uses_page(asked)


def test_other_questions_are_not_overviews_and_selections_depend_on_the_page(
    service: AnswerService,
) -> None:
    assert service.overview_target(_request(question="What does git revert do?")) is None
    selection = _request(question="Summarize this", mode="selection", selection="Some text.")
    assert service.overview_target(selection) is None
    assert service.uses_page(selection)


async def test_the_book_overview_cites_every_published_chapter(
    service: AnswerService,
) -> None:
    response = await service.answer(_request(question="Give me an overview of the book"))
    assert response.status == "grounded"
    assert len(response.citations) == 8  # the sample book's published chapters


GITHUB = (
    "Many hosting services run Git for teams. GitHub, the largest of them, was founded in 2008 "
    "in San Francisco. Microsoft bought it in 2018 for 7.5 billion dollars."
)


async def test_a_selection_answer_quotes_the_unit_that_holds_its_short_answer(
    service: AnswerService,
) -> None:
    # The answer model alone quotes "GitHub … was founded in 2008 in San Francisco" (the words
    # the question shares); the reader finds the price in the next sentence, which is quoted.
    response = await service.answer(
        _request(
            mode="selection",
            page="/docs/",
            selection=GITHUB,
            question="How much was paid for GitHub?",
        )
    )
    assert response.status == "grounded"
    assert response.short_answer == "7.5 billion dollars"
    assert "Microsoft bought it in 2018 for 7.5 billion dollars." in response.answer
