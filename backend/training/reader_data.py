"""Training examples for the answer reader: (question, passage, answer span or none).

Public data only, never an evaluation row:
- squad11-train (SQuAD 1.1's training set): a question with its own paragraph (the answer span);
  with another paragraph of its article that shares the most of its words (a hard negative:
  the same topic, not the answer); with its own paragraph less the sentence holding the answer
  (a synthetic unanswerable: every word around the answer, not the answer); the question with one
  of its names or numbers swapped for another of its article that its paragraph never mentions,
  with its own paragraph (a synthetic unanswerable in SQuAD 2.0's manner: the paragraph answers a
  question next to it, not it); with a paragraph of another article (off-topic);
- squad-train10: SQuAD 2.0's unanswerable questions with their paragraph (its first five
  articles; the rest are held out);
- squad-unanswerable/: unanswerable questions written here in SQuAD 2.0's manner (a negation, an
  antonym, a swapped name, a condition the paragraph never meets...) against squad11-train
  paragraphs, with the paragraph they look answerable from;
- the sample book's training questions (backend/training/sample-book-questions.jsonl) on the
  chunks ingestion makes of the book: the chunk holding the answer, the closest chunk that does
  not, and the closest chunk for a question the book does not cover (three in four of them; the
  rest are held out).

squad11-train's first 10 articles are squad-train10's: they are left out of training, so that
squad-train10 and the held-out book questions calibrate the reader's thresholds on questions and
paragraphs it never saw (calibrate_reader.py).
"""

from __future__ import annotations

import gzip
import heapq
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WORD = re.compile(r"[a-z0-9]+")
# A name (capitalised words) or a number in a question: what a swap replaces.
NAMED = re.compile(r"\b(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|\d[\d,.]*\d|\d)\b")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
# squad11-train's first articles are squad-train10's, held out for calibration.
HELD_OUT_ARTICLES = 10
HELD_OUT_UNANSWERABLE = frozenset(range(5, 10))  # squad-train10 article indices kept for it


def held_out_book(question_id: str) -> bool:
    """Every fourth sample-book training question is kept for calibration."""
    return int(question_id.rsplit("-", 1)[1]) % 4 == 0


STOP = frozenset(
    (  # noqa: SIM905 - one readable paragraph beats a word a line
        "a an the of in on at to for by with from and or is are was were be been what which who "
        "whom whose when where why how did does do i you it its this that these those as into "
        "than then there their they he she his her my me we our can could would should will "
        "shall may might about after before during over under not no yes if so"
        " him them us mrs mr"
    ).split()
)


@dataclass(frozen=True, slots=True)
class Example:
    """One training pair; `start` is the answer's character offset in `passage`, or -1."""

    question: str
    passage: str
    start: int
    answer: str
    origin: str  # which kind of example, for the training log

    @property
    def answerable(self) -> bool:
        """True when the passage holds the answer."""
        return self.start >= 0


def words(text: str) -> set[str]:
    """Content words, lower case."""
    return {w for w in WORD.findall(text.lower()) if w not in STOP}


def with_heading(heading: str, text: str) -> tuple[str, int]:
    """The passage as the reader sees it at query time (its heading on the first line), and
    the offset of `text` in it."""
    head = f"{heading}\n" if heading else ""
    return head + text, len(head)


def squad_articles(path: Path) -> list[dict[str, Any]]:
    """squad11-train's articles, in file order."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _without_answer_sentence(context: str, start: int, answer: str) -> str | None:
    """The paragraph less the sentence holding the answer, when the answer is nowhere else."""
    spans, at = [], 0
    for match in SENTENCE_END.finditer(context):
        spans.append((at, match.start()))
        at = match.end()
    spans.append((at, len(context)))
    if len(spans) < 3:
        return None
    kept = [context[a:b] for a, b in spans if not (a <= start < b + 1)]
    rest = " ".join(kept)
    if answer.lower() in rest.lower() or len(kept) == len(spans):
        return None
    return rest


def _swapped(question: str, context: str, others: Sequence[str], rng: random.Random) -> str | None:
    """`question` with one name or number its paragraph mentions replaced by one of the same
    shape (a number, or a name of as many words) from the article's other paragraphs that this
    paragraph never mentions."""

    def shape(term: str) -> tuple[bool, int]:
        return term[0].isdigit(), len(term.split())

    def usable(term: str) -> bool:
        return (len(term) >= 3 and term.lower() not in STOP) or term[0].isdigit()

    found = [
        m.group()
        for m in NAMED.finditer(question)
        if m.start() > 0 and usable(m.group()) and m.group() in context
    ]
    if not found:
        return None
    term = rng.choice(found)
    mentioned = set(NAMED.findall(context))
    pool = sorted(
        {
            m.group()
            for other in others
            for m in NAMED.finditer(other)
            # A capital after a full stop opens a sentence: it names nothing.
            if other[: m.start()].rstrip()[-1:] not in ("", ".", "!", "?", '"')
            and shape(m.group()) == shape(term)
            and usable(m.group())
            and m.group() not in mentioned
        }
    )
    return question.replace(term, rng.choice(pool), 1) if pool else None


def _same_article(
    question: str, answer: str, p: int, title: str, paragraphs: Sequence[dict[str, Any]]
) -> Example | None:
    """The question with the other paragraph of its article sharing the most of its words
    and not holding its answer."""
    asked = words(question)
    overlaps = [
        (len(asked & words(str(other["context"]))), i)
        for i, other in enumerate(paragraphs)
        if i != p and answer.lower() not in str(other["context"]).lower()
    ]
    if not overlaps:
        return None
    _, i = max(overlaps)
    text, _ = with_heading(title, str(paragraphs[i]["context"]))
    return Example(question, text, -1, "", "squad-same-article")


def squad_examples(
    articles: Sequence[dict[str, Any]], positives: int, rng: random.Random
) -> Iterator[Example]:
    """`positives` SQuAD questions with their paragraphs, and their negatives (module doc)."""
    pool: list[tuple[int, int, int]] = []
    for a, article in enumerate(articles):
        if a < HELD_OUT_ARTICLES:
            continue
        for p, paragraph in enumerate(article["paragraphs"]):
            pool.extend((a, p, q) for q in range(len(paragraph["qas"])))
    for a, p, q in rng.sample(pool, min(positives, len(pool))):
        article = articles[a]
        title = str(article["title"]).replace("_", " ")
        paragraphs = article["paragraphs"]
        context = str(paragraphs[p]["context"])
        qa = paragraphs[p]["qas"][q]
        question, gold = str(qa["question"]), qa["answers"][0]
        answer, start = str(gold["text"]), int(gold["answer_start"])
        passage, shift = with_heading(title, context)
        yield Example(question, passage, start + shift, answer, "squad")
        # One negative a question, by one draw: its closest neighbour, its paragraph less the
        # answer, a swapped name, or another article (or none, for the rest).
        draw = rng.random()
        if draw < 0.35:
            neighbour = _same_article(question, answer, p, title, paragraphs)
            if neighbour is not None:
                yield neighbour
        elif draw < 0.52:
            rest = _without_answer_sentence(context, start, answer)
            if rest is not None:
                yield Example(question, with_heading(title, rest)[0], -1, "", "squad-cut-answer")
        elif draw < 0.72:
            rest_of_article = [str(o["context"]) for i, o in enumerate(paragraphs) if i != p]
            swapped = _swapped(question, context, rest_of_article, rng)
            if swapped is not None:
                yield Example(swapped, passage, -1, "", "squad-swapped")
        elif draw < 0.77:
            other = articles[rng.randrange(HELD_OUT_ARTICLES, len(articles))]
            if other is not article:
                para = rng.choice(other["paragraphs"])
                heading = str(other["title"]).replace("_", " ")
                text, _ = with_heading(heading, str(para["context"]))
                yield Example(question, text, -1, "", "squad-other-article")


def squad2_unanswerable(path: Path, repeat: int) -> Iterator[Example]:
    """squad-train10's unanswerable questions with the paragraph they were written against."""
    titles: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["article_title"] not in titles:
            titles.append(row["article_title"])
        if row["answerable"] or titles.index(row["article_title"]) in HELD_OUT_UNANSWERABLE:
            continue
        passage, _ = with_heading(str(row["article_title"]), str(row["selected_text"]))
        for _ in range(repeat):
            yield Example(str(row["question"]), passage, -1, "", "squad2-unanswerable")


def written_unanswerable(
    folder: Path, articles: Sequence[dict[str, Any]], repeat: int, every: int = 1
) -> Iterator[Example]:
    """squad-unanswerable/'s questions (every `every`-th) with the squad11-train paragraph each
    was written against (`pid`: article and paragraph index)."""
    rows = [
        json.loads(line)
        for file in sorted(folder.glob("u*.jsonl"))
        for line in file.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    for row in rows[::every]:
        a, p = (int(i) for i in str(row["pid"]).split(":"))
        if a < HELD_OUT_ARTICLES:
            continue  # squad-train10's articles calibrate the reader: never trained on
        article = articles[a]
        title = str(article["title"]).replace("_", " ")
        passage, _ = with_heading(title, str(article["paragraphs"][p]["context"]))
        for _ in range(repeat):
            yield Example(str(row["question"]), passage, -1, "", "written-unanswerable")


@dataclass(frozen=True, slots=True)
class BookChunk:
    """A chunk of the sample book as ingestion makes it."""

    path: str
    section: str
    text: str


def _pairs(
    question: str,
    answer: str,
    holding: Sequence[BookChunk],
    closest: Sequence[BookChunk],
    repeat: int,
    rng: random.Random,
) -> Iterator[Example]:
    """One book question's pairs: a chunk `holding` the answer (`repeat` times) and the closest
    chunk of another section without it; for an uncovered question (no `answer`), the two
    closest chunks."""
    if not answer:
        for chunk in closest[:2]:
            text, _ = with_heading(chunk.section, chunk.text)
            yield Example(question, text, -1, "", "book-uncovered")
        return
    if not holding:
        return
    chunk = rng.choice(holding)
    text, shift = with_heading(chunk.section, chunk.text)
    for _ in range(repeat):
        yield Example(question, text, shift + chunk.text.index(answer), answer, "book")
    sections = {c.section for c in holding}
    near = [c for c in closest if answer not in c.text and c.section not in sections]
    if near:
        text, _ = with_heading(near[0].section, near[0].text)
        yield Example(question, text, -1, "", "book-near")


def _closest(chunks: Sequence[BookChunk]) -> Callable[[str], list[BookChunk]]:
    """The six chunks sharing the most content words with a question (ties in book order)."""
    chunk_words = [words(f"{c.section} {c.text}") for c in chunks]

    def closest(question: str) -> list[BookChunk]:
        asked = words(question)
        # nsmallest is sorted()[:6], stable, without sorting the whole book per question
        order = heapq.nsmallest(6, range(len(chunks)), key=lambda i: -len(asked & chunk_words[i]))
        return [chunks[i] for i in order]

    return closest


def book_examples(
    questions: Path, chunks: Sequence[BookChunk], repeat: int, rng: random.Random
) -> Iterator[Example]:
    """The sample book's training questions on its chunks (module doc)."""
    closest = _closest(chunks)
    for line in questions.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if held_out_book(str(row["id"])):
            continue
        question = str(row["question"])
        answer = str(row["answer_text"]) if row["answerable"] else ""
        holding = [
            c
            for c in chunks
            if c.path == row["path"] and c.section == row["section"] and answer in c.text
        ]
        yield from _pairs(question, answer, holding, closest(question), repeat, rng)
