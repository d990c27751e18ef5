"""Readers'-question books as the answer reader's training pairs (training/reader_data)."""

from __future__ import annotations

import random

from training.reader_data import HELD_OUT_ARTICLES, BookChunk, readers_examples, squad_examples

CHUNKS = [
    BookChunk("stash.md", "Saving changes", "Run git stash to put uncommitted changes aside."),
    BookChunk("stash.md", "Listing stashes", "git stash list shows every stash you saved."),
    BookChunk("branch.md", "Switching branches", "git switch changes branches; stash first."),
    BookChunk("remote.md", "Pushing", "git push sends commits to a remote."),
]


def _examples(row: dict[str, object], repeat: int = 2) -> list[tuple[str, int, str, str]]:
    return [
        (e.passage, e.start, e.answer, e.origin)
        for e in readers_examples([row], CHUNKS, repeat, random.Random(0))
    ]


def test_an_answered_question_trains_on_its_chunk_with_the_answer_at_its_offset() -> None:
    answer = "put uncommitted changes aside"
    row = {"question": "how do i put my changes aside", "doc": "stash.md", "answer_text": answer}
    examples = _examples(row, repeat=2)
    positives = [e for e in examples if e[3] == "readers"]
    assert len(positives) == 2
    passage, start, said, _ = positives[0]
    assert passage.startswith("Saving changes\n")
    assert passage[start : start + len(said)] == answer


def test_an_answered_question_gets_the_closest_chunk_of_another_section_as_a_near_miss() -> None:
    row = {
        "question": "how do i list stashes i saved",
        "doc": "stash.md",
        "answer_text": "shows every stash you saved",
    }
    near = [e for e in _examples(row) if e[3] == "readers-near"]
    assert len(near) == 1
    passage, start, said, _ = near[0]
    assert (start, said) == (-1, "")
    assert "shows every stash" not in passage
    assert not passage.startswith("Listing stashes")


def test_an_uncovered_question_trains_on_its_two_closest_chunks_as_not_answering() -> None:
    row = {"question": "how do i stash changes on a remote", "doc": "x.md", "answer_text": None}
    examples = _examples(row)
    assert [e[3] for e in examples] == ["readers-uncovered", "readers-uncovered"]
    assert all(start == -1 for _, start, _, _ in examples)


def test_an_answer_no_chunk_of_its_page_holds_gives_no_pair() -> None:
    row = {"question": "how do i push", "doc": "stash.md", "answer_text": "sends commits"}
    assert _examples(row) == []


def _article(n: int) -> dict[str, object]:
    """A SQuAD-shaped article: its first paragraph answers one question, the second shares
    the question's words without the answer, the third shares none."""
    return {
        "title": f"Castle_{n}",
        "paragraphs": [
            {
                "context": f"The castle {n} was built by Count Odo in 1120.",
                "qas": [
                    {
                        "question": f"Who built the castle {n}?",
                        "answers": [{"text": "Count Odo", "answer_start": 29}],
                    }
                ],
            },
            {"context": f"The castle {n} was built of stone and rebuilt twice.", "qas": []},
            {"context": "Wine from the valley is sold in the market.", "qas": []},
        ],
    }


def test_every_neighbour_adds_the_closest_other_paragraph_without_changing_the_draws() -> None:
    articles = [_article(n) for n in range(HELD_OUT_ARTICLES + 8)]
    plain = list(squad_examples(articles, 8, random.Random(3)))
    every = list(squad_examples(articles, 8, random.Random(3), every_neighbour=True))
    assert [e for e in every if e.origin != "squad-same-article"] == [
        e for e in plain if e.origin != "squad-same-article"
    ]
    neighbours = [e for e in every if e.origin == "squad-same-article"]
    assert len(neighbours) == 8
    assert all("rebuilt twice" in e.passage and not e.answerable for e in neighbours)


def test_a_reworded_question_trains_on_its_paragraph_and_its_closest_neighbour() -> None:
    articles = [_article(n) for n in range(HELD_OUT_ARTICLES + 8)]
    plain = list(squad_examples(articles, 8, random.Random(3)))
    reworded = list(
        squad_examples(
            articles, 8, random.Random(3), reword=lambda q, _: q.replace("built", "erected")
        )
    )
    mine = ("squad-reworded", "squad-reworded-near")
    assert [e for e in reworded if e.origin not in mine] == plain
    positives = [e for e in reworded if e.origin == "squad-reworded"]
    near = [e for e in reworded if e.origin == "squad-reworded-near"]
    assert len(positives) == len(near) == 8
    assert all(e.question.startswith("Who erected") and e.answer == "Count Odo" for e in positives)
    originals = [e for e in plain if e.origin == "squad"]
    assert [(e.passage, e.start) for e in positives] == [(e.passage, e.start) for e in originals]
    assert all("rebuilt twice" in e.passage and not e.answerable for e in near)
