"""POST /api/query through the real app: book, chapter and selection modes, errors."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bookchat.config import Settings
from bookchat.vectorstore import VectorStore
from tests.api.test_llm_answers import llm_settings
from tests.scripted_model import ScriptedModel, quoting

RESPONSE_FIELDS = {
    "cached",
    "answer",
    "short_answer",
    "status",
    "mode",
    "citations",
    "confidence",
    "generator",
    "model",
    "hallucination_flag",
    "unsupported_sentences",
    "suggested_chapter",
    "related",
    "warnings",
    "version",
    "locale",
    "notice",
    "corpus_version",
    "conversation_id",
    "message_id",
    "latency_ms",
}
CITATION_FIELDS = {
    "index",
    "chunk_id",
    "path",
    "doc_id",
    "chapter",
    "chapter_title",
    "section",
    "url",
    "excerpt",
    "score",
    "localized",
}


def _ask(client: Any, **body: Any) -> Any:
    return client.post("/api/query", json=body)


def _ask_in_chapter(client: Any, question: str, chapter: str, **body: Any) -> Any:
    """Ask in chapter mode, within the chapter with this key."""
    return _ask(client, question=question, mode="chapter", chapter=chapter, **body)


def _ask_about(client: Any, question: str, selection: str, **body: Any) -> Any:
    """Ask in selection mode, about this selected text."""
    return _ask(client, question=question, mode="selection", selection=selection, **body)


def test_book_question_is_answered_from_the_section_that_covers_it(client: Any) -> None:
    response = _ask(client, question="When did Linus Torvalds write Git?")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == RESPONSE_FIELDS
    assert body["status"] == "grounded"
    assert "2005" in body["answer"]
    assert body["citations"][0]["path"] == "intro.md"
    assert set(body["citations"][0]) == CITATION_FIELDS
    assert body["generator"] == "extractive"
    assert body["model"] is None
    assert body["warnings"] == []
    # A plain docs folder is one edition: current, English, every page in its own language.
    assert (body["version"], body["locale"], body["notice"]) == ("current", "en", None)
    assert body["hallucination_flag"] is False
    assert 0.5 <= body["confidence"] <= 1
    assert body["corpus_version"]


def test_every_marker_refers_to_a_citation_numbered_from_one(client: Any) -> None:
    body = _ask(client, question="How do I undo a commit that others have already pulled?").json()
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", body["answer"])}
    indexes = [c["index"] for c in body["citations"]]
    assert indexes == list(range(1, len(indexes) + 1))
    assert markers == set(indexes)


def test_answer_is_deterministic(client: Any) -> None:
    question = "What does git revert do?"
    first, second = _ask(client, question=question).json(), _ask(client, question=question).json()
    assert first["status"] == "grounded"
    assert first["answer"] == second["answer"]
    assert first["citations"] == second["citations"]


def test_question_the_book_does_not_cover_abstains_without_citations(client: Any) -> None:
    body = _ask(
        client, question="How long should sourdough bread dough proof in the fridge?"
    ).json()
    assert body["status"] == "abstained"
    assert body["citations"] == []
    assert "book does not cover" in body["answer"]
    assert body["confidence"] < 0.5


def test_a_question_naming_an_option_the_book_lacks_abstains_at_no_more_than_half_confidence(
    client: Any,
) -> None:
    # The rebasing sections match the topic well; none of them mentions --onto.
    body = _ask(client, question="What does git rebase --onto do?").json()
    # No passage answers, but the book comes close: the reader is shown where, not a quote.
    assert body["status"] == "related"
    assert body["citations"] == [] and body["short_answer"] is None
    assert body["confidence"] <= 0.5
    assert any("rebas" in p["section"].lower() for p in body["related"])


def test_chapter_mode_answers_from_that_chapter_filtered_in_the_store(
    client: Any, recording_store: Any
) -> None:
    body = _ask_in_chapter(client, "What is a fast-forward merge?", "branching").json()
    assert body["status"] == "grounded"
    assert {c["chapter"] for c in body["citations"]} == {"branching"}
    searches = [
        kw for name, kw in recording_store.vector_queries() if name in {"search", "hybrid_search"}
    ]
    # The chapter is searched with the store's filter; the one unfiltered search only checks
    # whether another chapter answers far better (then the chapter declines and points there).
    assert searches[0]["where"] == {"chapter": "branching"}
    assert [kw["where"] for kw in searches[1:]] == [None]


def test_chapter_that_does_not_cover_it_points_to_the_chapter_that_does(client: Any) -> None:
    body = _ask_in_chapter(client, "What is a fast-forward merge?", "getting-started").json()
    assert body["status"] == "related"
    assert body["citations"] == []
    suggestion = body["suggested_chapter"]
    assert suggestion["key"] == "branching"
    assert suggestion["section_url"].startswith("/docs/branching/")
    assert f"]({suggestion['url']})" in body["answer"]
    assert "chapter" in body["answer"]
    assert "does not cover" in body["answer"]
    # The section the book answers from is among the places shown, its chapter named.
    assert suggestion["section_url"] in [p["url"] for p in body["related"]]


def test_a_chapter_that_only_comes_near_declines_when_another_chapter_answers(
    client: Any,
) -> None:
    # "Installing on Linux" mentions releases, so the chapter is not silent; but Team Workflows
    # answers with a sentence of its own, and the reader is pointed there instead.
    question = "What goes into a release branch in git flow?"
    body = _ask_in_chapter(client, question, "getting-started").json()
    assert body["status"] == "related"
    assert body["citations"] == []
    assert body["answer"].startswith("The chapter “Getting Started” does not cover this question.")
    assert body["suggested_chapter"]["key"] == "workflows"
    assert body["confidence"] <= 0.5


def test_a_chapter_defers_to_the_section_whose_heading_the_question_names(client: Any) -> None:
    # Team Workflows has a sentence near these words; Working with Remotes has "Pushing".
    question = "Which branches does a plain git push send by default?"
    body = _ask_in_chapter(client, question, "workflows").json()
    assert body["status"] == "related"
    assert body["suggested_chapter"]["key"] == "collaboration"
    assert body["suggested_chapter"]["section"] == "Pushing"


def test_unknown_chapter_is_404_naming_the_chapters_endpoint(client: Any) -> None:
    response = _ask_in_chapter(client, "What is a branch?", "no-such")
    assert response.status_code == 404
    assert "GET /api/chapters" in response.json()["detail"]


def test_chapter_mode_without_a_chapter_is_400(client: Any) -> None:
    response = _ask(client, question="What is a branch?", mode="chapter")
    assert response.status_code == 400
    assert "chapter" in response.json()["detail"]


SELECTION = (
    "Git is a distributed version control system. Linus Torvalds wrote Git in April 2005 for "
    "the Linux kernel. Junio C Hamano has maintained Git since July 2005."
)


def test_selection_mode_answers_from_the_selection_without_any_vector_query(
    client: Any, recording_store: Any
) -> None:
    recording_store.calls.clear()
    question, page = "Who has maintained Git since 2005?", "/docs/#welcome-to-practical-git"
    body = _ask_about(client, question, SELECTION, page=page).json()
    assert recording_store.vector_queries() == []
    assert body["status"] == "grounded"
    assert "Junio C Hamano" in body["answer"]
    [citation] = body["citations"]
    assert citation["chunk_id"] == "selection"
    assert citation["path"] == "intro.md"
    assert citation["chapter"] == "intro"
    assert citation["url"] == "/docs/#welcome-to-practical-git"
    assert citation["excerpt"] in SELECTION


def test_selection_from_an_unknown_page_cites_it_with_empty_place(client: Any) -> None:
    body = _ask_about(client, "Who maintains Git?", SELECTION).json()
    [citation] = body["citations"]
    assert (citation["path"], citation["doc_id"], citation["chapter"], citation["url"]) == (
        "",
        "",
        "",
        "",
    )


def test_selection_that_does_not_answer_abstains_with_its_own_wording(client: Any) -> None:
    body = _ask_about(client, "How do I bake sourdough bread?", SELECTION).json()
    assert body["status"] == "abstained"
    assert body["citations"] == []
    assert "selected text does not answer" in body["answer"]


def test_selection_mode_without_selection_is_400(client: Any) -> None:
    response = _ask(client, question="Who maintains Git?", mode="selection")
    assert response.status_code == 400


def test_unknown_conversation_ids_are_404_and_new_ids_are_unguessable(client: Any) -> None:
    unknown = _ask(client, question="What is a branch?", conversation_id="abc")
    assert unknown.status_code == 404
    first = _ask(client, question="What is a branch?").json()
    second = _ask(client, question="What is a branch?").json()
    assert len(first["conversation_id"]) >= 22  # at least 128 random bits, base64url
    assert first["conversation_id"] != second["conversation_id"]
    assert first["message_id"] != second["message_id"]


def test_top_k_bounds_how_many_sections_are_cited(client: Any) -> None:
    body = _ask(client, question="How do I undo changes in Git?", top_k=1).json()
    assert len(body["citations"]) <= 1


@pytest.mark.parametrize("question", ["Explain this passage.", "What does this mean?"])
def test_generic_questions_about_a_selection_are_answered_from_it(
    client: Any, question: str
) -> None:
    selection = (
        "A branch in Git is simply a lightweight movable pointer to a commit. Creating a branch "
        "is therefore almost free, which is why Git encourages branching often."
    )
    body = _ask_about(client, question, selection).json()
    assert body["status"] == "grounded"
    assert "movable pointer" in body["answer"]


# --- Versions and locales: a built site with current and 1.0, English and French -------------

BRANCH = "What is the default branch of a new repository called?"
CREATED = "When did Linus Torvalds write Git?"


def test_each_version_answers_with_its_own_fact_and_its_own_url(site_client: Any) -> None:
    current = _ask(site_client, question=BRANCH).json()
    old = _ask(site_client, question=BRANCH, version="1.0").json()
    assert (current["status"], current["version"], current["locale"]) == (
        "grounded",
        "current",
        "en",
    )
    assert "called main" in current["answer"] and "master" not in current["answer"]
    assert [c["url"] for c in current["citations"]] == [
        "/textbook/docs/basics/config/#default-branch"
    ]
    assert (old["status"], old["version"]) == ("grounded", "1.0")
    assert "called master" in old["answer"] and "main." not in old["answer"]
    assert [c["url"] for c in old["citations"]] == [
        "/textbook/docs/1.0/basics/config/#default-branch"
    ]


def test_a_french_page_is_cited_at_its_fr_url(site_client: Any) -> None:
    body = _ask(
        site_client,
        question="Comment s'appelle la branche par défaut d'un nouveau dépôt ?",
        locale="fr",
    ).json()
    assert (body["status"], body["locale"], body["notice"]) == ("grounded", "fr", None)
    assert "s'appelle main" in body["answer"]
    citation = body["citations"][0]
    assert citation["url"] == "/textbook/fr/docs/basics/config/#default-branch"
    assert citation["localized"] is True


def test_an_untranslated_page_answers_in_english_at_the_french_url_saying_so(
    site_client: Any,
) -> None:
    body = _ask(
        site_client,
        question="Which version of Git does this book need?",
        version="1.0",
        locale="fr",
    ).json()
    assert body["status"] == "grounded" and "Git 2.20" in body["answer"]
    assert [(c["url"], c["localized"]) for c in body["citations"]] == [
        ("/textbook/fr/docs/1.0/basics/install/#requirements", False)
    ]
    assert body["notice"] == (
        "Cette réponse provient du texte original (en)\u00a0: la page citée n'est pas encore "
        "traduite dans votre langue (fr)."
    )


def test_chapter_mode_points_to_the_better_chapter_of_the_same_edition(site_client: Any) -> None:
    body = _ask_in_chapter(site_client, BRANCH, "undo", version="1.0", locale="fr").json()
    assert body["status"] == "related"
    suggestion = body["suggested_chapter"]
    # 1.0 has no French sidebar translations (version-1.0.json), so the label stays English.
    assert suggestion["key"] == "basics" and suggestion["title"] == "Basics"
    assert suggestion["url"] == "/textbook/fr/docs/1.0/basics/install/"
    assert suggestion["section_url"] == "/textbook/fr/docs/1.0/basics/config/#default-branch"


def test_an_unknown_version_or_locale_is_a_404_naming_the_known_ones(site_client: Any) -> None:
    version = _ask(site_client, question=BRANCH, version="3.0")
    assert version.status_code == 404
    assert version.json()["detail"] == (
        "Unknown version '3.0': this index holds version 'current', '1.0'."
    )
    locale = site_client.post("/api/query/stream", json={"question": BRANCH, "locale": "de"})
    assert locale.status_code == 404
    assert locale.json()["detail"] == "Unknown locale 'de': this index holds locale 'en', 'fr'."


def test_the_stream_answers_from_the_requested_edition(site_client: Any) -> None:
    response = site_client.post("/api/query/stream", json={"question": BRANCH, "version": "1.0"})
    assert response.status_code == 200
    done = response.text.split("event: done\ndata: ", 1)[1].split("\n", 1)[0]
    body = json.loads(done)
    assert body["version"] == "1.0" and "master" in body["answer"]
    assert body["citations"][0]["url"] == "/textbook/docs/1.0/basics/config/#default-branch"


def test_a_plain_docs_index_is_current_in_english(client: Any) -> None:
    body = _ask(client, question=CREATED, version="current", locale="en").json()
    assert (body["status"], body["version"], body["locale"]) == ("grounded", "current", "en")
    unknown = _ask(client, question=CREATED, version="1.0")
    assert unknown.status_code == 404
    assert unknown.json()["detail"] == "Unknown version '1.0': this index holds version 'current'."


def test_a_follow_up_stays_in_its_version(site_client: Any) -> None:
    # Only current says how to choose another name (init.defaultBranch): 1.0 must not borrow it.
    answers = {}
    for version in ("current", "1.0"):
        first = _ask(site_client, question=BRANCH, version=version).json()
        answers[version] = _ask(
            site_client,
            question="And how do I choose another one?",
            version=version,
            conversation_id=first["conversation_id"],
        ).json()
    assert answers["current"]["status"] == "grounded"
    assert "init.defaultBranch" in answers["current"]["answer"]
    assert answers["1.0"]["status"] != "grounded" and answers["1.0"]["citations"] == []
    assert "init.defaultBranch" not in str(answers["1.0"]["related"])


def test_a_selection_is_placed_on_its_page_in_the_readers_edition(site_client: Any) -> None:
    selection = (
        "This book needs Git 2.45 or newer, because it uses the switch and restore commands "
        "throughout."
    )
    body = _ask_about(
        site_client,
        "Which version of Git does this book need?",
        selection,
        locale="fr",
        page="/textbook/fr/docs/basics/install/#requirements",
    ).json()
    assert body["status"] == "grounded"
    citation = body["citations"][0]
    assert (citation["doc_id"], citation["chapter_title"]) == ("basics/install", "Les bases")
    assert citation["url"] == "/textbook/fr/docs/basics/install/#requirements"


def test_a_generated_answer_citing_an_untranslated_page_says_so(
    make_client: Any, site_settings: Settings, site_store: VectorStore
) -> None:
    scripted = ScriptedModel().start()
    scripted.default = quoting(1)
    settings = llm_settings(site_settings, scripted)
    question = {"question": "Which version of Git does this book need?", "locale": "fr"}
    try:
        with make_client(settings, store=site_store) as llm:
            body = llm.post("/api/query", json=question).json()
            streamed = llm.post("/api/query/stream", json=question).text
    finally:
        scripted.stop()
    assert (body["generator"], body["status"]) == ("llm", "grounded")
    assert [(c["url"], c["localized"]) for c in body["citations"]] == [
        ("/textbook/fr/docs/basics/install/#requirements", False)
    ]
    assert body["notice"] and "pas encore traduite dans votre langue (fr)" in body["notice"]
    done = json.loads(streamed.split("event: done\ndata: ", 1)[1].split("\n", 1)[0])
    assert done["citations"][0]["localized"] is False and done["notice"] == body["notice"]


def test_every_answer_carries_a_short_answer_null_for_an_abstention(client: Any) -> None:
    grounded = _ask(client, question="When did Linus Torvalds write Git?").json()
    abstained = _ask(client, question="Who won the 2018 FIFA World Cup?").json()
    assert grounded["status"] == "grounded" and abstained["status"] == "abstained"
    # Filled by the reader model when it finds a span; the key is always there.
    assert grounded["short_answer"] is None or isinstance(grounded["short_answer"], str)
    assert abstained["short_answer"] is None


def test_a_misspelt_question_is_answered_as_if_spelt_right(client: Any) -> None:
    right = client.post("/api/query", json={"question": "how do i undo a commit"}).json()
    typed = client.post("/api/query", json={"question": "how do i undo a comit"}).json()
    assert right["status"] == "grounded"
    assert (typed["answer"], typed["citations"]) == (right["answer"], right["citations"])
