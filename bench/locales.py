"""Retrieval and answers on translated pages (issue 14): French questions about the French pages.

all-MiniLM-L6-v2 was trained on English. This asks the same questions in French (locale `fr`, the
French pages) and in English (locale `en`, the English pages) through the real app, and reports
for each language: page recall@1/@5 of the edition's retrieval (the retriever the API uses, in
the edition's filter) and how many answers are grounded and cite the right page (pass).

    cd website && npx docusaurus build --out-dir /tmp/site-build   # with the theme: manifests
    backend/.venv/bin/python bench/locales.py --site website --build-dir /tmp/site-build \
        --out bench/results/locales.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

# (French question, English question, gold doc id): the French pages of the sample book.
QUESTIONS = [
    (
        "Qui a écrit Git, et en quelle année ?",
        "Who wrote Git, and in which year?",
        "intro",
    ),
    (
        "Qui maintient Git depuis juillet 2005 ?",
        "Who has maintained Git since July 2005?",
        "intro",
    ),
    (
        "Comment désigner un commit par un préfixe de son empreinte ?",
        "How can I refer to a commit by a prefix of its hash?",
        "intro",
    ),
    (
        "Comment installer Git sous Fedora ?",
        "How do I install Git on Fedora?",
        "getting-started/installing-git",
    ),
    (
        "Quelle version de Git faut-il pour suivre ce livre ?",
        "Which version of Git do I need for this book?",
        "getting-started/installing-git",
    ),
    (
        "Que faire si le shell répond command not found après l'installation ?",
        "What should I do if the shell says command not found after installing?",
        "getting-started/installing-git",
    ),
    (
        "Quel éditeur l'installateur de Git for Windows choisit-il par défaut ?",
        "Which editor does the Git for Windows installer choose by default?",
        "getting-started/installing-git",
    ),
    (
        "Dans quel ordre Git lit-il les niveaux de configuration ?",
        "In which order does Git read the configuration levels?",
        "getting-started/configure",
    ),
    (
        "Comment définir son nom et son adresse e-mail pour les commits ?",
        "How do I set my name and email address for commits?",
        "getting-started/configure",
    ),
    (
        "Comment créer un alias pour une commande Git ?",
        "How do I create an alias for a Git command?",
        "getting-started/configure",
    ),
    (
        "À quoi sert une section includeIf dans un fichier de configuration ?",
        "What is an includeIf section in a configuration file for?",
        "getting-started/configure",
    ),
    (
        "Comment créer un nouveau dépôt avec git init ?",
        "How do I create a new repository with git init?",
        "getting-started/first-repository",
    ),
    (
        "Quelles sont les trois zones d'un dépôt Git ?",
        "What are the three areas of a Git repository?",
        "getting-started/first-repository",
    ),
    (
        "Que contient le répertoire .git ?",
        "What does the .git directory contain?",
        "getting-started/first-repository",
    ),
]
# (French question, gold doc id) about pages the French build does not translate: the reader's
# edition holds their English text, so the question and the passage are in different languages.
UNTRANSLATED = [
    ("Comment résoudre un conflit de fusion ?", "branching/merging"),
    ("Quelle est la différence entre fetch et pull ?", "collaboration/remotes"),
    ("Comment annuler un commit déjà publié ?", "everyday-git/undoing-changes"),
    (
        "Comment mettre de côté des modifications avec git stash ?",
        "everyday-git/staging-and-committing",
    ),
    (
        "Quelle est la différence entre une étiquette légère et une étiquette annotée ?",
        "collaboration/tags-and-releases",
    ),
    ("Quels sont les quatre types d'objets de Git ?", "internals"),
    (
        "Comment retrouver qui a modifié une ligne d'un fichier ?",
        "everyday-git/viewing-history",
    ),
    (
        "Comment forcer un push sans écraser le travail des autres ?",
        "collaboration/remotes",
    ),
]
K = 5


def _measure(
    client: Any,
    retriever: Any,
    embedder: Any,
    locale: str,
    lang: int,
    questions: list[Any],
) -> dict[str, Any]:
    rows = []
    for row in questions:
        question, gold = row[lang], row[-1]
        vector = embedder.embed([question])[0].tolist()
        hits = retriever.search(question, vector, limit=K)
        pages = list(dict.fromkeys(str(h.payload["doc_id"]) for h in hits))
        body = client.post("/api/query", json={"question": question, "locale": locale}).json()
        cited = [c["doc_id"] for c in body["citations"]]
        rows.append(
            {
                "question": question,
                "gold": gold,
                "rank": pages.index(gold) + 1 if gold in pages else None,
                "status": body["status"],
                "cited": cited,
                "pass": body["status"] == "grounded" and bool(cited) and cited[0] == gold,
                "answer": body["answer"][:200],
            }
        )
    n = len(rows)
    return {
        "set": "untranslated pages" if questions is UNTRANSLATED else "translated pages",
        "locale": locale,
        "questions": n,
        "recall@1": sum(r["rank"] == 1 for r in rows) / n,
        f"recall@{K}": sum(r["rank"] is not None for r in rows) / n,
        "grounded": sum(r["status"] == "grounded" for r in rows) / n,
        "pass": sum(r["pass"] for r in rows) / n,
        "rows": rows,
    }


def main() -> int:
    """Ingest the built site into a temporary index and ask every question in both languages."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", required=True)
    parser.add_argument("--build-dir")
    parser.add_argument("--out")
    parser.add_argument("--dense", action="store_true", help="MiniLM alone (no BM25 fusion)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))
    from fastapi.testclient import TestClient

    from bookchat.api.app import create_app
    from bookchat.embedding.embedder import Embedder
    from bookchat.ingest.run import SiteSource, run_ingest
    from bookchat.retrieval.search import Retriever
    from bookchat.vectorstore import open_store
    from tests.conftest import settings_for

    settings = settings_for(Path(tempfile.mkdtemp()) / "data", BOOKCHAT_HYBRID=not args.dense)
    embedder = Embedder.from_settings(settings)
    embedder.load()
    store = open_store(settings)
    build = Path(args.build_dir) if args.build_dir else None
    report = run_ingest(settings, store, lambda: embedder, site=SiteSource(Path(args.site), build))
    results = []
    with TestClient(create_app(settings, store=store, embedder=embedder)) as client:
        for locale, lang, questions in (
            ("fr", 0, QUESTIONS),
            ("en", 1, QUESTIONS),
            ("fr", 0, UNTRANSLATED),
        ):
            scope = {"version": "current", "locale": locale}
            retriever = Retriever(store, hybrid=settings.hybrid).scoped(scope)
            results.append(_measure(client, retriever, embedder, locale, lang, questions))
    store.close()
    for result in results:
        print(
            f"{result['set']}, {result['locale']}: {result['questions']} questions, recall@1 "
            f"{result['recall@1']:.2f}, recall@{K} {result[f'recall@{K}']:.2f}, grounded "
            f"{result['grounded']:.2f}, pass {result['pass']:.2f}"
        )
    if args.out:
        data = {
            "corpus_version": report.corpus_version,
            "hybrid": settings.hybrid,
            "results": results,
        }
        Path(args.out).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
