"""Recognising overview questions: the phrasings the rules were written from (invented here, none
of them an evaluation row of backend/evals/), and look-alikes that only use the words."""

from __future__ import annotations

import pytest

from bookchat.overview.ask import OverviewAsk, recognise

# (question, expected ask): the training phrasings of the recogniser.
OVERVIEWS = [
    ("Summarise this chapter for me", OverviewAsk("chapter", here=True)),
    ("Could you sum up this chapter?", OverviewAsk("chapter", here=True)),
    ("please give me a quick overview of this chapter", OverviewAsk("chapter", here=True)),
    ("What's the gist of this chapter?", OverviewAsk("chapter", here=True)),
    ("Key points of the current chapter?", OverviewAsk("chapter", here=True)),
    ("what is this chapter about", OverviewAsk("chapter", here=True)),
    ("What topics does this chapter cover?", OverviewAsk("chapter", here=True)),
    ("Chapter summary please", OverviewAsk(name="chapter")),
    ("TLDR", OverviewAsk()),
    ("tl;dr?", OverviewAsk()),
    ("Give me a summary.", OverviewAsk()),
    ("What are the takeaways?", OverviewAsk()),
    ("Recap please", OverviewAsk()),
    ("I'd like an outline of this page", OverviewAsk("page", here=True)),
    ("What does this lesson teach?", OverviewAsk("page", here=True)),
    ("Walk me through this page", OverviewAsk("page", here=True)),
    ("what is covered in this section?", OverviewAsk("section", here=True)),
    ("Summarize this section briefly", OverviewAsk("section", here=True)),
    ("What will I learn from this book?", OverviewAsk("book")),
    ("What are the key ideas of the whole course?", OverviewAsk("book")),
    ("Give me an overview of the entire textbook", OverviewAsk("book")),
    ("what's the book about?", OverviewAsk("book")),
    ("Summarize everything", OverviewAsk("book")),
    ("Summarize the page about tags", OverviewAsk("page", name="tags")),
    (
        "Give me an overview of the section on conflict markers",
        OverviewAsk("section", name="conflict markers"),
    ),
    (
        "What does the Getting Started chapter cover?",
        OverviewAsk("chapter", name="getting started"),
    ),
    ("Can you summarize rebasing?", OverviewAsk(name="rebasing")),
    ("Overview of git internals", OverviewAsk(name="git internals")),
    ("Main points of the undoing changes lesson", OverviewAsk("page", name="undoing changes")),
    # French
    ("Résume cette page", OverviewAsk("page", here=True)),
    ("Peux-tu résumer ce chapitre ?", OverviewAsk("chapter", here=True)),
    ("Donne-moi un aperçu du livre", OverviewAsk("book")),
    ("Fais-moi une synthèse de cette section", OverviewAsk("section", here=True)),
    ("De quoi parle ce chapitre ?", OverviewAsk("chapter", here=True)),
    ("Qu'est-ce que je vais apprendre dans ce cours ?", OverviewAsk("book")),
    ("Quelles sont les idées principales de cette leçon ?", OverviewAsk("page", here=True)),
    ("Ce qu'il faut retenir de ce chapitre", OverviewAsk("chapter", here=True)),
    ("Résumé du chapitre sur les branches", OverviewAsk("chapter", name="branches")),
]

# Questions that use an overview word but ask for a fact or an explanation.
LOOK_ALIKES = [
    "What is a summary statistic?",
    "What does git shortlog summarize?",
    "How does git diff --stat give an overview of a change?",
    "Where is the summary of a pull request shown?",
    "What is the main difference between fetch and pull?",
    "Which key should I use to sign tags?",
    "Does git gc cover loose objects too?",
    "Summarize why a fast-forward merge needs no new commit",
    "Give me an overview of how hooks are installed",
    "What will git reset --hard do to my files?",
    "Is the main branch protected by default?",
    "What goes in the subject line summary of a commit?",
    "Quelle est la principale différence entre merge et rebase ?",
    "Comment résumer un long historique avec git log ?",
    "I need to outline the steps to recover a deleted branch, how?",
]


@pytest.mark.parametrize(("question", "expected"), OVERVIEWS)
def test_recognises_overview_phrasings_and_their_target(
    question: str, expected: OverviewAsk
) -> None:
    assert recognise(question) == expected


@pytest.mark.parametrize("question", LOOK_ALIKES)
def test_leaves_questions_that_only_use_the_words(question: str) -> None:
    assert recognise(question) is None


def test_a_long_named_target_is_an_explanation_not_a_title() -> None:
    # Nine words and more read as a question about something, not a part of the book's title.
    assert (
        recognise("Summarize what happens to my commits when I rebase onto another branch") is None
    )
