"""The short answer: the reader's span, kept only when it lies inside the quoted answer."""

from __future__ import annotations

from bookchat.answer.reader import Reader, Reading, Span
from bookchat.answer.short_answer import holding_unit, passage_text, shown_in, span_of
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.markdown.units import split_units
from bookchat.vectorstore import VectorStore
from tests.answer.grounders import book_grounder, ground_in

PASSAGE = "History\nGit was written by Linus Torvalds in April 2005 to manage the Linux kernel."


def test_the_span_is_shown_only_where_the_quote_holds_it(reader: Reader) -> None:
    (reading,) = reader.read("Who wrote Git?", [PASSAGE])
    span = span_of(reading, min_margin=0.0)
    assert span is not None and span.text == "Linus Torvalds"
    quoted = "Git was written by **Linus Torvalds** in April 2005 to manage the Linux kernel. [1]"
    assert shown_in(span.text, quoted)
    assert not shown_in(span.text, "Git manages the Linux kernel. [1]")
    assert not shown_in(None, quoted)


def test_no_span_is_given_below_the_margin(reader: Reader) -> None:
    (reading,) = reader.read("Who wrote Git?", [PASSAGE])
    assert span_of(reading, min_margin=1e6) is None


def _span(passage: str, words: str, at: int = 0, score: float = 3.0) -> Span:
    start = passage.index(words, at)
    return Span(start, start + len(words), score, words)


def _reading(*spans: Span) -> Reading:
    return Reading(0, 1.0, spans)


def test_the_unit_holding_the_span_is_the_one_it_stands_in() -> None:
    passage = "Git is fast. Git was written in 2005. Mercurial was written in 2005 too."
    units = split_units(passage)
    second = _span(passage, "2005", at=passage.index("Mercurial"))
    assert holding_unit(units, passage, _span(passage, "2005")) == 1
    assert holding_unit(units, passage, second) == 2
    # A span across two sentences stands in no one unit.
    assert holding_unit(units, passage, _span(passage, "fast. Git")) is None


def test_a_span_is_a_few_words_of_running_text_above_the_margin() -> None:
    passage = "Install it:\n- on Fedora, `dnf install git`\n- on Debian, `apt install git`"
    run = "Run git push now."
    short = span_of(_reading(_span(run, "git push")), min_margin=0.0)
    assert short is not None and (short.text, short.start) == ("git push", 4)
    assert span_of(_reading(_span(run, "git push", score=-1.0)), min_margin=0.0) is None
    assert span_of(_reading(_span(passage, "`dnf install git`\n- on")), min_margin=0.0) is None


def test_the_short_answer_is_the_best_span_that_reads_as_one() -> None:
    passage = "Install it:\n- on Fedora, `dnf install git`\n- on Debian, `apt install git`"
    across = _span(passage, "`dnf install git`\n- on")  # layout: the reader's best
    inside = _span(passage, "`dnf install git`", score=2.0)
    short = span_of(_reading(across, inside), min_margin=0.0)
    assert short is not None and short.text == "dnf install git"
    assert (short.start, short.end) == (inside.start, inside.end)
    # Below the margin, a span that reads well is still no short answer.
    assert span_of(_reading(across, _span(passage, "dnf", score=-1.0)), min_margin=0.0) is None


def test_the_reader_reads_a_chunk_under_its_heading() -> None:
    assert passage_text({"section": "Pushing", "text": "Run `git push`."}) == (
        "Pushing\nRun `git push`."
    )
    assert passage_text({"section": "", "title": "Intro", "text": "Hi."}) == "Intro\nHi."


async def test_a_book_answer_is_built_around_the_unit_holding_the_readers_span(
    book_settings: Settings, book_store: VectorStore, embedder: Embedder, reader: Reader
) -> None:
    # A sample-book training question: the answer model alone quotes the example command above
    # the list of formats; the reader points into the list item that names the default.
    question = "Which --pretty format does git log use by default?"
    vector = embedder.embed([question])[0]
    alone = await ground_in(
        book_grounder(book_settings, book_store, embedder), book_store, question, vector
    )
    read = await ground_in(
        book_grounder(book_settings, book_store, embedder, reader=reader),
        book_store,
        question,
        vector,
    )
    assert alone.composition is not None and read.composition is not None
    assert "`medium`: the default" not in alone.composition.answer
    assert "`medium`: the default" in read.composition.answer
    # The span chooses the quote and is not shown outside selections.
    assert read.short_answer is None
