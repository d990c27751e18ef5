"""The LLM path of an answer: generate from the retrieved passages, check, or fall back.

Only a question the extractive path judged covered reaches the model, so whatever the model
does it never ends in an abstention: the reader gets the checked generated answer, or the
extractive one with a warning saying why.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bookchat.answer.llm.agent import Passage, Question
from bookchat.answer.llm.check import Checked, SentencePrefetch, check
from bookchat.answer.llm.generator import Generated, GenerationFailed, LLMGenerator
from bookchat.answer.phrases import CATALOGUE, ENGLISH, Phrases, phrases_for
from bookchat.answer.related import RELATED_SHOWN, cited_place
from bookchat.answer.schema import Citation, QueryResponse, Streamed
from bookchat.retrieval.sentence_vectors import SentenceVectors

# The warnings in English (the texts of every language are in bookchat.answer.phrases).
MODEL_FAILED = ENGLISH.model_failed
ATTRIBUTED = ENGLISH.attributed
MODEL_UNMATCHED = ENGLISH.model_unmatched
# The warnings of an answer that fell back to the extractive one, in every language.
FALLBACKS = frozenset(
    text for said in CATALOGUE.values() for text in (said.model_failed, said.model_unmatched)
)
# A generated answer the check found fault with is never reported as more than even odds.
DOUBTFUL_CONFIDENCE = 0.5
PREVIEW_CHARS = 200


@dataclass(frozen=True, slots=True)
class Draft:
    """Everything the model needs about one question, from the request and the retrieval."""

    question: Question
    started: float  # perf_counter() when the request began, for latency_ms

    @property
    def said(self) -> Phrases:
        """The warnings' language: the reader's, as the model's answer."""
        return phrases_for(self.question.locale)


def _preview(index: int, passage: Passage) -> Citation:
    text = " ".join(passage.text.split())
    excerpt = text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 2].rstrip() + " …"
    return passage.source.citation(index, excerpt)


def _latency(draft: Draft) -> float:
    return round((time.perf_counter() - draft.started) * 1000, 2)


class LLMWriter:
    """Turns a grounded extractive response into a checked generated one."""

    def __init__(
        self, generator: LLMGenerator, vectors: SentenceVectors, *, min_support: float
    ) -> None:
        self._generator = generator
        self._vectors = vectors
        self._min_support = min_support

    async def write(self, draft: Draft, extractive: QueryResponse) -> QueryResponse:
        """The checked generated answer, or `extractive` with a warning if the model failed."""
        try:
            generated = await self._generator.generate(draft.question)
        except GenerationFailed:
            return self._fallback(draft, extractive, draft.said.model_failed)
        return await self._checked(draft, extractive, generated)

    def stream(self, draft: Draft, extractive: QueryResponse) -> Streamed:
        """Provisional meta (the passages as the model numbers them), then the model's deltas."""
        meta = extractive.model_copy(
            update={
                "answer": "",
                "short_answer": None,  # the model's own words: no span of the book
                "generator": "llm",
                "model": self._generator.model_name,
                "citations": [_preview(i + 1, p) for i, p in enumerate(draft.question.passages)],
            }
        )
        return Streamed(meta, self._deltas(draft, extractive))

    async def _deltas(
        self, draft: Draft, extractive: QueryResponse
    ) -> AsyncIterator[str | QueryResponse]:
        final: Generated | None = None
        prefetch = SentencePrefetch(self._vectors)
        try:
            async for item in self._generator.stream(draft.question):
                if isinstance(item, str):
                    prefetch.feed(item)
                    yield item
                else:
                    final = item
        except GenerationFailed:
            prefetch.cancel()
            yield self._fallback(draft, extractive, draft.said.model_failed)
            return
        finally:
            if final is None:
                prefetch.cancel()  # the reader went away, or the model failed
        assert final is not None  # the generator ends with its result or raises
        await prefetch.settle()
        yield await self._checked(draft, extractive, final)

    def _fallback(self, draft: Draft, extractive: QueryResponse, why: str) -> QueryResponse:
        return extractive.model_copy(
            update={
                "warnings": [*extractive.warnings, why],
                "latency_ms": _latency(draft),
            }
        )

    def _related(self, draft: Draft, extractive: QueryResponse) -> QueryResponse:
        places = [cited_place(c) for c in extractive.citations] + list(extractive.related)
        return extractive.model_copy(
            update={
                "answer": draft.said.related,
                "status": "related",
                "short_answer": None,
                "citations": [],
                "related": places[:RELATED_SHOWN],
                "confidence": min(extractive.confidence, 0.5),
                "latency_ms": _latency(draft),
            }
        )

    async def _checked(
        self, draft: Draft, extractive: QueryResponse, generated: Generated
    ) -> QueryResponse:
        checked = await check(
            generated.text, generated.passages, self._vectors, min_support=self._min_support
        )
        if checked.refused:
            # The passages are close (they were judged to answer) but the model found no answer
            # in them: the reader is shown where the book comes closest, not a quote as the answer.
            return self._related(draft, extractive)
        if checked.status != "grounded":
            # The model answered but its words could not be matched to the book: the reader
            # gets the book's own words instead.
            return self._fallback(draft, extractive, draft.said.model_unmatched)
        return extractive.model_copy(update=self._fields(draft, extractive, checked, generated))

    def _fields(
        self, draft: Draft, extractive: QueryResponse, checked: Checked, generated: Generated
    ) -> dict[str, object]:
        doubtful = checked.hallucination_flag or bool(checked.unsupported_sentences)
        score = extractive.confidence
        if doubtful:
            score = min(score, DOUBTFUL_CONFIDENCE)
        warnings = list(extractive.warnings)
        if checked.attributed:
            warnings.append(draft.said.attributed)
        if checked.unsupported_sentences:
            warnings.append(draft.said.unsupported)
        return {
            "answer": checked.answer,
            "short_answer": None,  # the model's own words: no span of the book
            "status": checked.status,
            "citations": checked.citations,
            "confidence": score,
            "generator": "llm",
            "model": generated.model,
            "hallucination_flag": checked.hallucination_flag,
            "unsupported_sentences": checked.unsupported_sentences,
            "warnings": warnings,
            "latency_ms": _latency(draft),
        }
