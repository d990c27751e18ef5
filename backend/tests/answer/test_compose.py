"""Choosing sentences, numbering citations and respecting the word budget."""

from __future__ import annotations

from bookchat.answer.compose import Source, compose
from bookchat.answer.support import Candidate, Scored


def _source(n: int) -> Source:
    return Source(
        chunk_id=f"c{n}",
        path=f"p{n}.md",
        doc_id=f"p{n}",
        chapter="ch",
        chapter_title="Chapter",
        section=f"Section {n}",
        url=f"/docs/p{n}#s",
        score=0.7,
    )


def _scored(text: str, source: int, position: int, support: float) -> Scored:
    return Scored(Candidate(text, source, position), support, support, 0.0)


SOURCES = [_source(0), _source(1), _source(2)]


def test_nothing_above_the_threshold_composes_nothing() -> None:
    scored = [_scored("Weak evidence here.", 0, 0, 0.3)]
    assert compose(scored, SOURCES, min_support=0.45, max_words=120) is None


def test_only_cited_passages_are_cited_renumbered_in_answer_order() -> None:
    scored = [
        _scored("From the third passage.", 2, 0, 0.70),
        _scored("From the second passage.", 1, 3, 0.66),
        _scored("Irrelevant sentence here.", 0, 0, 0.20),
    ]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == "From the second passage. [1] From the third passage. [2]"
    assert [(c.index, c.chunk_id) for c in result.citations] == [(1, "c1"), (2, "c2")]
    assert result.best_support == 0.70


def test_consecutive_sentences_of_one_passage_share_a_marker() -> None:
    scored = [_scored("First part.", 0, 0, 0.8), _scored("Second part.", 0, 1, 0.78)]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == "First part. Second part. [1]"
    assert result.citations[0].excerpt == "First part. Second part."


def test_sentences_far_below_the_best_are_left_out() -> None:
    scored = [_scored("Best one.", 0, 0, 0.9), _scored("Merely related.", 0, 1, 0.5)]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == "Best one. [1]"


def test_word_budget_is_respected_and_a_long_best_sentence_is_clipped() -> None:
    long = " ".join(["word"] * 50) + "."
    scored = [_scored(long, 0, 0, 0.9), _scored("Also close.", 1, 0, 0.89)]
    result = compose(scored, SOURCES, min_support=0.45, max_words=20)
    assert result is not None
    assert len(result.answer.split()) <= 20 + 2  # the clip mark and the [n] marker
    assert result.answer.endswith("… [1]")


def test_a_sentence_ending_in_a_colon_brings_the_items_it_introduces() -> None:
    scored = [
        _scored("The widely used **50/72 rule**:", 0, 0, 0.8),
        _scored("keep the subject line to about 50 characters", 0, 1, 0.2),
        _scored("wrap the body at 72 characters", 0, 2, 0.1),
        _scored("Unrelated closing remark here.", 0, 4, 0.1),
    ]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == (
        "The widely used **50/72 rule**: keep the subject line to about 50 characters "
        "wrap the body at 72 characters [1]"
    )


def test_the_sentences_beside_the_best_come_along_when_nearly_as_relevant() -> None:
    scored = [
        _scored("A branch is a file under refs.", 0, 0, 0.70),
        _scored("With SHA-1 that is 41 bytes.", 0, 1, 0.60),
        _scored("Each commit overwrites the file.", 0, 2, 0.72),
        _scored("Unrelated closing remark.", 0, 3, 0.30),
    ]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    # 0.60 is outside the ordinary margin of 0.72 but beside the best sentence, so it joins;
    # the remark after it is beside the best too, but far below it.
    assert result.answer == (
        "A branch is a file under refs. With SHA-1 that is 41 bytes. "
        "Each commit overwrites the file. [1]"
    )


def test_a_nearly_as_relevant_sentence_elsewhere_in_the_passage_stays_out() -> None:
    scored = [
        _scored("The best sentence.", 0, 0, 0.72),
        _scored("Not adjacent.", 0, 2, 0.60),
        _scored("Same position, other passage.", 1, 1, 0.60),
    ]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == "The best sentence. [1]"


def test_an_introduced_code_block_follows_its_sentence_and_ends_its_marker_run() -> None:
    code = "```bash\ngit fetch upstream\n```"
    scored = [
        Scored(Candidate("To sync the fork, run:", 0, 0, "", code), 0.8, 0.8, 0.0),
        _scored("Then push it.", 0, 1, 0.75),
    ]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == f"To sync the fork, run: [1]\n\n{code}\n\nThen push it. [1]"


def test_a_code_block_over_the_word_budget_is_left_out() -> None:
    code = "```bash\n" + " ".join(["arg"] * 40) + "\n```"
    scored = [Scored(Candidate("To sync the fork, run:", 0, 0, "", code), 0.8, 0.8, 0.0)]
    result = compose(scored, SOURCES, min_support=0.45, max_words=20)
    assert result is not None
    assert result.answer == "To sync the fork, run: [1]"


def test_an_introduced_code_block_keeps_its_indentation() -> None:
    code = "```yaml\njobs:\n\n  test:\n    runs-on: ubuntu-latest\n```"
    scored = [Scored(Candidate("The workflow file reads:", 0, 0, "", code), 0.8, 0.8, 0.0)]
    result = compose(scored, SOURCES, min_support=0.45, max_words=120)
    assert result is not None
    assert result.answer == f"The workflow file reads: [1]\n\n{code}"
