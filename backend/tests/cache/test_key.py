"""The cache key: the same question in other spacing or case is one key; anything that can change
the answer is another."""

from __future__ import annotations

from typing import Any

import pytest

from bookchat.answer.schema import QueryRequest
from bookchat.cache.key import ANSWERING_PACKAGES, answer_key, answerer_fingerprint, normalised
from bookchat.config import Settings
from tests.source_imports import stages_imported


def _key(
    corpus: str | None = "c1", answerer: str = "a1", page_matters: bool = False, **body: Any
) -> str:
    request = QueryRequest.model_validate({"question": "What does git revert do?", **body})
    return answer_key(request, corpus_version=corpus, answerer=answerer, page_matters=page_matters)


@pytest.mark.parametrize(
    "variant",
    ["what does git revert do", "  What   does git\trevert do ?? ", "WHAT DOES GIT REVERT DO!"],
)
def test_case_spacing_and_end_punctuation_do_not_make_another_question(variant: str) -> None:
    assert normalised(variant) == normalised("What does git revert do?")
    assert _key(question=variant) == _key()


def test_inner_punctuation_names_things_and_is_kept() -> None:
    assert normalised("What does git reset --hard do?") != normalised("What does git reset hard do")


@pytest.mark.parametrize(
    "change",
    [
        {"mode": "chapter", "chapter": "02-everyday-git"},
        {"version": "1.0"},
        {"locale": "fr"},
        {"top_k": 3},
        {"question": "What does git revert undo?"},
    ],
)
def test_whatever_changes_the_request_changes_the_key(change: dict[str, Any]) -> None:
    assert _key(**change) != _key()


def test_chapters_and_selections_are_keyed_by_what_they_are() -> None:
    chapter = {"mode": "chapter"}
    assert _key(chapter="a", **chapter) != _key(chapter="b", **chapter)
    selection = {"mode": "selection"}
    assert _key(selection="one passage", **selection) != _key(selection="another", **selection)
    assert _key(selection="one passage", **selection) == _key(selection="one passage", **selection)


def test_a_new_index_or_answerer_is_a_new_key() -> None:
    assert _key(corpus="c2") != _key()
    assert _key(answerer="a2") != _key()


def test_the_page_counts_only_where_the_answer_depends_on_it() -> None:
    assert _key(page="/docs/a") == _key(page="/docs/b")
    assert _key(page="/docs/a", page_matters=True) != _key(page="/docs/b", page_matters=True)


def test_settings_that_shape_answers_change_the_fingerprint(
    make_settings: Any,
) -> None:
    base: Settings = make_settings()
    assert answerer_fingerprint(base) == answerer_fingerprint(make_settings())
    for change in (
        {"BOOKCHAT_MIN_CHUNK_SCORE": 0.4},
        {"BOOKCHAT_ANSWER_MAX_WORDS": 60},
        {"BOOKCHAT_GENERATOR": "llm", "BOOKCHAT_LLM_MODEL": "m", "OPENAI_BASE_URL": "http://x"},
    ):
        assert answerer_fingerprint(make_settings(**change)) != answerer_fingerprint(base), change
    # Where the cache lives is not part of the answer.
    assert answerer_fingerprint(make_settings(BOOKCHAT_ANSWER_CACHE="memory")) == (
        answerer_fingerprint(base)
    )


def test_every_package_the_answers_are_made_with_is_fingerprinted() -> None:
    # A release that changes the unit parser or an overview must not serve the previous one's
    # cached answers: the fingerprint covers every package the answer service reaches.
    reached, todo = set(), ["answer"]
    while todo:
        package = todo.pop()
        reached.add(package)
        todo += sorted(stages_imported(package) - reached - {"config"})
    assert reached <= set(ANSWERING_PACKAGES), sorted(reached - set(ANSWERING_PACKAGES))
