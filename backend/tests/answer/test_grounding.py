"""Grounding: passages retrieved from the sample book, their units judged, quoted or declined."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

import pytest

from bookchat.answer.compose import Composition
from bookchat.answer.coverage import Grounding, ReaderJudge, elsewhere
from bookchat.answer.grounding import Grounder
from bookchat.answer.judge import POOL_PASSAGES, pool
from bookchat.answer.model import default_model
from bookchat.answer.phrases import FRENCH
from bookchat.answer.reader import Reader, calibration
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.vectorstore import Hit, VectorStore
from tests.answer.grounders import book_grounder, ground_in


@pytest.fixture
def grounder(book_settings: Settings, book_store: VectorStore, embedder: Embedder) -> Grounder:
    """A grounder over the ingested sample book, with the default thresholds."""
    return book_grounder(book_settings, book_store, embedder)


Ask = Callable[..., Awaitable[Grounding]]


@pytest.fixture
def ask(grounder: Grounder, book_store: VectorStore, embedder: Embedder) -> Ask:
    """Ground a question on the whole book, or on one chapter."""

    async def run(question: str, chapter: str | None = None) -> Grounding:
        vector = embedder.embed([question])[0]
        return await ground_in(grounder, book_store, question, vector, chapter)

    return run


def _answered(grounding: Grounding) -> Composition:
    assert grounding.composition is not None
    return grounding.composition


def _answer_citing_first(grounding: Grounding, section: str) -> str:
    """The composed answer, once it is checked to cite `section` first."""
    composition = _answered(grounding)
    assert composition.citations[0].section == section
    return composition.answer


async def test_a_covered_question_is_answered_from_the_section_that_covers_it(ask: Ask) -> None:
    grounding = await ask("How do I revert a merge commit?")
    answer = _answer_citing_first(grounding, "Undoing a public commit with git revert")
    assert "-m 1" in answer
    assert 0 < len(grounding.passages) <= POOL_PASSAGES


async def test_an_option_the_passages_never_name_is_declined_though_the_topic_matches(
    ask: Ask,
) -> None:
    grounding = await ask("What does git rebase --onto do?")
    # Rebasing passages are found and support the topic, but none of them mentions --onto.
    assert grounding.passages
    assert all("--onto" not in p.text for p in grounding.passages)
    assert grounding.composition is None and not grounding.covered


async def test_what_is_x_is_answered_by_the_section_titled_x_though_its_words_differ(
    ask: Ask,
) -> None:
    # "Shallow clone" never says "shallow": the coverage model alone declines this question.
    grounding = await ask("What is a shallow clone?")
    answer = _answer_citing_first(grounding, "Shallow clone")
    assert answer.startswith("`git clone --depth 1 <url>` fetches only")
    assert grounding.best_support >= grounding.threshold


async def test_a_comparison_opens_on_the_sections_titled_with_its_sides_in_its_order(
    ask: Ask,
) -> None:
    grounding = await ask("Shallow clone vs sparse checkout?")
    composition = _answered(grounding)
    assert [c.section for c in composition.citations][:2] == ["Shallow clone", "Sparse checkout"]
    answer = composition.answer
    assert "`git clone --depth 1 <url>` fetches only" in answer
    assert "`git sparse-checkout` limits the working tree" in answer


async def test_what_is_x_is_answered_where_the_book_sets_x_in_bold_whatever_its_cosine(
    ask: Ask,
) -> None:
    # The chapter's opening is below the pool's cosine floor for this question, but it is where
    # the book introduces the term.
    grounding = await ask("What is a directed acyclic graph?")
    answer = _answer_citing_first(grounding, "Branching and Merging")
    assert "history as a **directed acyclic graph** of commits" in answer


async def test_a_chapter_question_only_draws_on_that_chapter(ask: Ask) -> None:
    grounding = await ask("How do I revert a merge commit?", chapter="branching")
    assert grounding.passages
    assert {p.source.chapter for p in grounding.passages} == {"branching"}


async def test_a_follow_up_picks_units_by_its_own_words(
    grounder: Grounder, book_store: VectorStore, embedder: Embedder
) -> None:
    widened = "What does git reset --soft do? And what does the default mode do?"
    own = "And what does the default mode do?"
    rows = embedder.embed([widened, own])
    grounding = await ground_in(grounder, book_store, widened, rows[0], focus=(own, rows[1]))
    assert grounding.composition is not None
    assert "--mixed" in grounding.composition.answer


async def _ground_judged(
    settings: Settings,
    store: VectorStore,
    embedder: Embedder,
    judge: ReaderJudge | None,
    question: str,
    focus: str | None = None,
) -> Grounding:
    grounder = book_grounder(settings, store, embedder, judge=judge)
    rows = embedder.embed([question, focus or question])
    own = (focus, rows[1]) if focus else None
    return await ground_in(grounder, store, question, rows[0], focus=own)


async def test_the_reader_declines_where_it_is_sure_no_passage_answers(
    book_settings: Settings, book_store: VectorStore, embedder: Embedder, reader: Reader
) -> None:
    # The welcome page's sentence on the Linux kernel reads close enough to the answer model.
    question = "How many developers work on the Linux kernel?"
    alone = await _ground_judged(book_settings, book_store, embedder, None, question)
    assert alone.composition is not None
    fitted = calibration()
    judge = ReaderJudge(reader, fitted["book_veto"], fitted["book_vouch"])
    judged = await _ground_judged(book_settings, book_store, embedder, judge, question)
    assert judged.composition is None and judged.passages


async def test_the_reader_vouches_for_passages_the_answer_model_doubts(
    book_settings: Settings, book_store: VectorStore, embedder: Embedder, reader: Reader
) -> None:
    question = "Can Git store large video files efficiently?"
    alone = await _ground_judged(book_settings, book_store, embedder, None, question)
    assert alone.composition is None and alone.passages
    sure = ReaderJudge(reader, 0.0, 0.0)  # a reader sure of every passage
    vouched = await _ground_judged(book_settings, book_store, embedder, sure, question)
    assert vouched.composition is not None


async def test_a_follow_up_is_left_to_the_answer_model_whatever_the_reader_says(
    book_settings: Settings, book_store: VectorStore, embedder: Embedder, reader: Reader
) -> None:
    widened = "What does git reset --soft do? And what does the default mode do?"
    vetoing = ReaderJudge(reader, 1.01, 2.0)  # a reader sure no passage ever answers
    asked = await _ground_judged(book_settings, book_store, embedder, vetoing, widened)
    assert asked.composition is None
    follow_up = await _ground_judged(
        book_settings, book_store, embedder, vetoing, widened, "And what does the default mode do?"
    )
    assert follow_up.composition is not None


def test_the_readers_veto_lies_below_its_vouch() -> None:
    fitted = calibration()
    assert 0.0 < fitted["book_veto"] < fitted["book_vouch"] < 1.0


def _hit(name: str, score: float, text: str, heading_path: list[str]) -> Hit:
    return Hit(chunk_id=name, score=score, payload={"text": text, "heading_path": heading_path})


def test_a_passage_of_nothing_but_furniture_yields_its_pool_place_to_one_that_can_be_quoted() -> (
    None
):
    reading = "- [Git book](https://git-scm.com/book)\n- [Pro Git](https://example.org/progit)"
    lesson = "A branch is a movable pointer to a commit. Creating one is cheap."
    hits = [
        _hit("links", 0.70, reading, ["Branches", "Further Reading"]),
        *(
            _hit(f"lesson{i}", 0.60 - i / 100, lesson + f" Note {i}.", ["Branches"])
            for i in range(4)
        ),
        _hit("weak", 0.10, lesson, ["Branches"]),
    ]
    chosen = [h.chunk_id for h in pool(hits, min_score=0.3)]
    assert chosen == ["lesson0", "lesson1", "lesson2", "lesson3"]
    # With fewer quotable passages than places, furniture keeps its place, in retrieval order.
    assert [h.chunk_id for h in pool(hits[:3], min_score=0.3)] == ["links", "lesson0", "lesson1"]


def test_a_passage_naming_all_the_code_the_question_names_joins_the_pool_whatever_its_cosine() -> (
    None
):
    hits = [
        _hit("git-flow", 0.35, "Git flow merges every branch with a merge commit.", ["Flow"]),
        _hit("ff", 0.16, "`--no-ff` always creates a merge commit.", ["Fast-forward merges"]),
        _hit("other", 0.12, "A merge commit has two parents.", ["Merging"]),
    ]
    assert [h.chunk_id for h in pool(hits, min_score=0.3)] == ["git-flow"]
    assert [h.chunk_id for h in pool(hits, 0.3, ["--no-ff"])] == ["git-flow", "ff"]
    # Every term named, or it stays out: `--ff-only` is not in it.
    assert [h.chunk_id for h in pool(hits, 0.3, ["--no-ff", "--ff-only"])] == ["git-flow"]


async def test_what_is_x_in_a_chapter_without_x_points_to_the_section_titled_x(ask: Ask) -> None:
    chapter = await ask("What is a three-way merge?", chapter="everyday-git")
    book = await ask("What is a three-way merge?")
    _answered(chapter)  # Everyday Git alone would quote a `HEAD~3` sentence
    assert {p.source.chapter for p in chapter.passages} == {"everyday-git"}
    assert book.defines and not chapter.defines
    _answer_citing_first(book, "Three-way merges")
    assert elsewhere(chapter, book, "everyday-git")


async def test_a_passage_answer_is_introduced_in_the_readers_language(
    book_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    # The committed model with no unit good enough for a span: every covered answer is a passage.
    passages_only = dataclasses.replace(default_model(), span_threshold=1.01)
    grounder = book_grounder(book_settings, book_store, embedder, passages_only)
    question = "How do I install Git on Ubuntu?"
    vector = embedder.embed([question])[0]
    english = await ground_in(grounder, book_store, question, vector)
    french = await ground_in(grounder, book_store, question, vector, said=FRENCH)
    assert english.composition is not None and french.composition is not None
    assert english.composition.kind == "passage"
    assert english.composition.answer.startswith("The most relevant passage, from “")
    section = english.composition.citations[0].section
    intro = f"Le passage le plus pertinent, tiré de «\u00a0{section}\u00a0»\u00a0:"
    assert french.composition.answer.startswith(intro + "\n\n")
    # Only the introduction changes: the book's words are quoted as they are.
    assert (
        french.composition.answer.removeprefix(intro) == english.composition.answer.split(":", 1)[1]
    )
