"""The sentences bookchat writes into answers follow the request's locale (tests/sites.py's site).

Abstentions, passage introductions, chapter suggestions, notices and warnings are French for
`fr` and English for `en`; the book's own words are quoted as they are.
"""

from __future__ import annotations

from typing import Any

from bookchat.answer.phrases import ENGLISH, FRENCH
from bookchat.config import Settings
from bookchat.vectorstore import VectorStore
from tests.api.test_conversations import store_down
from tests.api.test_llm_answers import llm_settings
from tests.scripted_model import Reply, ScriptedModel, quoting

OFF_TOPIC = "Quelle est la capitale de l'Australie ?"
# Only 1.0's untranslated install page answers it, with a whole passage rather than a sentence.
INSTALLING = {"question": "Tell me about installing Git", "version": "1.0"}
BRANCHE = "Comment s'appelle la branche par défaut d'un nouveau dépôt ?"


def _ask(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/query", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_book_declines_in_the_readers_language(site_client: Any) -> None:
    french = _ask(site_client, question=OFF_TOPIC, locale="fr")
    english = _ask(site_client, question=OFF_TOPIC, locale="en")
    default = _ask(site_client, question=OFF_TOPIC)
    assert (french["status"], french["answer"]) == ("abstained", FRENCH.book_abstention)
    assert english["answer"] == default["answer"] == ENGLISH.book_abstention
    assert english["answer"] == (
        "The book does not cover this question, so I cannot answer it from the book."
    )


def test_a_selection_that_does_not_answer_is_declined_in_french(site_client: Any) -> None:
    body = _ask(
        site_client,
        question=OFF_TOPIC,
        mode="selection",
        locale="fr",
        selection="Les réglages vivent dans votre configuration globale.",
    )
    assert (body["status"], body["answer"]) == ("abstained", FRENCH.selection_abstention)


def test_a_passage_is_introduced_in_french_with_a_french_notice(site_client: Any) -> None:
    french = _ask(site_client, locale="fr", **INSTALLING)
    english = _ask(site_client, locale="en", **INSTALLING)
    assert french["status"] == english["status"] == "grounded"
    assert english["answer"].startswith("The most relevant passage, from “Installing Git”:\n\n")
    intro = "Le passage le plus pertinent, tiré de «\u00a0Installing Git\u00a0»\u00a0:"
    assert french["answer"].startswith(intro + "\n\n")
    # The page is not translated: its English text is quoted, and the reader is told so.
    assert french["answer"].removeprefix(intro) == english["answer"].split(":", 1)[1]
    assert french["notice"] == (
        "Cette réponse provient du texte original (en)\u00a0: la page citée n'est pas encore "
        "traduite dans votre langue (fr)."
    )
    assert english["notice"] is None


def test_a_chapter_declines_in_french_and_names_the_chapter_that_covers_it(
    site_client: Any,
) -> None:
    body = _ask(site_client, question=BRANCHE, mode="chapter", chapter="undo", locale="fr")
    assert body["status"] == "related"
    assert body["answer"] == (
        "Le chapitre «\u00a0Undoing changes\u00a0» ne traite pas de cette question. Le livre en "
        "traite dans le chapitre [Les bases](/textbook/fr/docs/basics/install/), dans la section "
        "[Branche par défaut](/textbook/fr/docs/basics/config/#default-branch)."
    )
    assert body["suggested_chapter"]["title"] == "Les bases"


def _system_prompt(request: dict[str, Any]) -> str:
    return next(m["content"] for m in request["messages"] if m["role"] == "system")


def test_the_model_is_asked_for_french_and_its_failure_is_reported_in_french(
    make_client: Any, site_settings: Settings, site_store: VectorStore
) -> None:
    scripted = ScriptedModel().start()
    scripted.default = quoting(1)
    question = "Which version of Git does this book need?"
    try:
        with make_client(llm_settings(site_settings, scripted), store=site_store) as llm:
            generated = _ask(llm, question=question, locale="fr")
            english = _ask(llm, question=question, locale="en")
            scripted.default = lambda _: Reply(status=500)
            failed = _ask(llm, question=question, locale="fr")
            metrics = llm.get("/metrics").text
    finally:
        scripted.stop()
    french_prompt, english_prompt = (_system_prompt(r) for r in scripted.requests[:2])
    assert "Write your answer in French" in french_prompt
    assert "Language:" not in english_prompt
    assert (generated["generator"], english["generator"]) == ("llm", "llm")
    assert generated["notice"] and generated["notice"].startswith("Cette réponse provient")
    assert (failed["generator"], failed["warnings"]) == ("extractive", [FRENCH.model_failed])
    assert "bookchat_generator_fallbacks_total 1.0" in metrics


def test_a_conversation_not_saved_is_reported_in_french(
    make_client: Any, site_settings: Settings, site_store: VectorStore
) -> None:
    with make_client(store_down(site_settings.data_dir), store=site_store) as client:
        french = _ask(client, question=BRANCHE, locale="fr")
        english = _ask(client, question=BRANCHE, locale="en")
    assert french["conversation_id"] is None
    assert french["warnings"] == [FRENCH.history_not_saved]
    assert english["warnings"] == [ENGLISH.history_not_saved]
