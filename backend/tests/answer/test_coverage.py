"""Coverage decisions: confidence is 0.5 at the threshold, monotone, within 0-1; a chapter defers
to another only when that one answers far better, defines X or has the section the question
names."""

from __future__ import annotations

from bookchat.answer.compose import Composition
from bookchat.answer.coverage import FULL_SUPPORT, Grounding, confidence, elsewhere
from bookchat.answer.schema import Citation


def test_half_at_the_threshold_and_bounded() -> None:
    assert confidence(0.45, 0.45) == 0.5
    assert confidence(0.0, 0.45) == 0.0
    assert confidence(FULL_SUPPORT, 0.45) == 1.0
    assert confidence(5.0, 0.45) == 1.0


def test_monotone_in_support() -> None:
    values = [confidence(s / 100, 0.45) for s in range(0, 101)]
    assert values == sorted(values)
    assert all(0.0 <= v <= 1.0 for v in values)


def _grounding(
    kind: str | None, chapter: str, best: float, *, defines: bool = False, named: bool = False
) -> Grounding:
    if kind is None:
        return Grounding(None, 0.0)
    cite = Citation(
        index=1,
        chunk_id="c",
        path="p.md",
        doc_id="d",
        chapter=chapter,
        chapter_title="T",
        section="S",
        url="/u",
        excerpt="e",
        score=0.5,
    )
    composition = Composition("a [1]", [cite], 0.9, kind)  # type: ignore[arg-type]
    return Grounding(composition, 0.9, (), 0.5, best, defines, named)


def test_a_chapter_defers_to_another_chapter_only_when_it_answers_far_better() -> None:
    here = "branching"
    assert elsewhere(_grounding("passage", here, 0.2), _grounding("span", "everyday", 0.5), here)
    assert elsewhere(_grounding("span", here, 0.2), _grounding("span", "everyday", 0.41), here)
    assert not elsewhere(_grounding("span", here, 0.3), _grounding("span", "everyday", 0.41), here)
    assert not elsewhere(_grounding("span", here, 0.1), _grounding("span", here, 0.9), here)
    assert not elsewhere(_grounding("span", here, 0.1), _grounding(None, "", 0.0), here)


def test_a_chapter_defers_to_the_chapter_that_defines_x_or_whose_heading_is_named() -> None:
    here = "everyday"
    defining = _grounding("span", "branching", 0.3, defines=True)
    # Scores alike: the chapter answers, unless only the other chapter defines the term.
    assert not elsewhere(_grounding("span", here, 0.3), _grounding("span", "branching", 0.3), here)
    assert elsewhere(_grounding("span", here, 0.3), defining, here)
    assert not elsewhere(_grounding("span", here, 0.3, defines=True), defining, here)
    # So is a question naming the heading of the other chapter's section and not the chapter's.
    naming = _grounding("span", "branching", 0.3, named=True)
    assert elsewhere(_grounding("span", here, 0.3), naming, here)
    assert not elsewhere(_grounding("span", here, 0.3, named=True), naming, here)
