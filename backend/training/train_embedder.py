"""Train MiniLM's question side (or both sides) on readers' questions, and measure it.

    backend/.venv/bin/python backend/training/train_embedder.py --out /tmp/questions.safetensors

Readers ask in their own words, which share few words with the section that answers them, and
the packaged all-MiniLM-L6-v2 puts that section outside the first five too often (issue #29).
This trains the model's top `--layers` layers for questions only: passages (the index) stay
embedded by the packaged model, and each question learns against every passage of its book at
once (a softmax over the book's chunks, embedded once), the passages holding its answer being
the target. Data, never an evaluation row:
- readers' questions on the Node.js API documents and three mdBooks rustup's `rust-docs`
  installs (`docs-questions/`, `mdbook-questions/`), four in five of each by id (rank_data.py's
  split), the rest kept to measure on;
- SQuAD 1.1 questions of `--articles` squad11-train articles past squad-train10's ten, against
  their article's paragraphs.
Never trained on: the Rust book's questions, and the sample book's training questions, which the
answer model fits on (a question side that had read them would make them look easier there than
a reader's new question; the trap of the reader's second stage). Both are measured: dense
recall@1/@5 against the book's chunks, packaged model against the question side. The tensors it
changed are written to `--out` (float16, named as in the packaged checkpoint). `--sides both`
trains the same layers for passages too (in-batch, with each question's hardest chunk of another
page) and measures with the passages re-embedded. Measured and not landed: decisions.md, "A
question side for MiniLM" and "Both sides of MiniLM, end to end".
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from rank_data import Source, sources
from reader_data import squad_articles

from bookchat.embedding.minilm import bf16_native, packaged_model_dir
from bookchat.ingest.corpus import build_corpus

SQUAD = Path(__file__).parents[3] / "shared" / "corpora" / "squad11-train" / "articles.jsonl.gz"
MEASURED_ONLY = frozenset({"rust-book", "sample-book"})
HELD_OUT_ARTICLES = 10  # squad-train10's articles: the answer model fits on them
LAYERS = 6  # MiniLM's layers
SCALE = 20.0  # cosine -> logit, as sentence-transformers' in-batch losses use


@dataclass(slots=True)
class Book:
    """One book's chunks (as ingest embeds them) and its answerable questions."""

    name: str
    texts: list[str]
    paths: list[str]
    rows: list[dict[str, Any]]

    def gold(self, row: dict[str, Any]) -> list[int]:
        """The chunks of the row's page that hold its answer's words."""
        answer = str(row.get("answer_text") or "")
        return [
            i
            for i, (text, path) in enumerate(zip(self.texts, self.paths, strict=True))
            if answer and path == row["doc"] and answer in text
        ]

    def measured(self, row: dict[str, Any]) -> bool:
        """Whether `row` is measured on rather than trained on."""
        return bool(row["held_out"]) or self.name in MEASURED_ONLY


def _book(source: Source) -> Book:
    chunks = build_corpus(source.docs).chunks
    texts = [c.embed_text for c in chunks]
    book = Book(source.name, texts, [str(c.payload.get("path")) for c in chunks], [])
    # Each row's answering chunks are found once (a scan of the book's chunks).
    found = ({**r, "gold": book.gold(r)} for r in source.rows if r.get("answerable"))
    book.rows = [r for r in found if r["gold"]]
    return book


class Encoder:
    """The packaged MiniLM with its top `layers` trainable (mean pooling, normalised)."""

    def __init__(self, threads: int, layers: int) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer

        torch.set_num_threads(threads)
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(packaged_model_dir()))
        self.model = AutoModel.from_pretrained(str(packaged_model_dir()))
        # Only the top layers change: what is shipped is those tensors, named as in the package.
        self.model.embeddings.requires_grad_(False)
        for layer in self.model.encoder.layer[: LAYERS - layers]:
            layer.requires_grad_(False)
        self.dtype = torch.bfloat16 if bf16_native() else torch.float32

    def __call__(self, texts: list[str], max_length: int = 256) -> Any:
        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=max_length, return_tensors="pt"
        )
        bf16 = self.dtype == self.torch.bfloat16
        with self.torch.autocast("cpu", dtype=self.dtype, enabled=bf16):
            hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).float()
        pooled = (hidden.float() * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return self.torch.nn.functional.normalize(pooled, dim=-1)

    def embed(self, texts: list[str], batch: int = 32) -> NDArray[np.float32]:
        """Vectors for `texts`, in inference mode, shortest first."""
        self.model.eval()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        with self.torch.no_grad():
            for s in range(0, len(order), batch):
                idx = order[s : s + batch]
                out[idx] = self([texts[i] for i in idx]).numpy()
        return out

    def save(self, path: Path, meta: dict[str, Any]) -> None:
        """The tensors training changed, in float16."""
        from safetensors.torch import save_file

        changed = {
            name: p.detach().to(self.torch.float16).contiguous()
            for name, p in self.model.named_parameters()
            if p.requires_grad
        }
        save_file(changed, str(path), metadata={k: str(v) for k, v in meta.items()})


Item = tuple[str, list[int], int]  # question, its answering passages, the shelf they are on


Loss = Callable[[list[int], random.Random], Any]  # a batch's item indices -> its mean loss


def train(encoder: Encoder, items: list[Item], loss_of: Loss, args: Any) -> None:
    """`args.epochs` passes over `items` in shuffled batches, AdamW with warm-up and linear decay
    on the trainable layers, minimising `loss_of` each batch."""
    torch = encoder.torch
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    model = encoder.model
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    steps = args.epochs * (len(items) // args.batch)
    warm = max(steps // 10, 1)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(steps - warm, 1)))
    )
    started, step = time.monotonic(), 0
    for _ in range(args.epochs):
        model.train()
        order = list(range(len(items)))
        rng.shuffle(order)
        for s in range(0, len(order) - args.batch + 1, args.batch):
            loss = loss_of(order[s : s + args.batch], rng)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 20 == 0 or step == steps:
                mins = (time.monotonic() - started) / 60
                print(
                    f"  step {step}/{steps} loss {loss.item():.3f} ({mins:.1f} min)",
                    file=sys.stderr,
                )
    model.eval()


def question_side(encoder: Encoder, items: list[Item], shelves: list[NDArray[np.float32]]) -> Loss:
    """Each question's softmax over every passage of its shelf (as the packaged model embeds
    them); its answering passages share the target."""
    torch = encoder.torch
    tensors = [torch.from_numpy(m) for m in shelves]

    def loss_of(chosen: list[int], rng: random.Random) -> Any:
        q = encoder([items[i][0] for i in chosen], max_length=64)
        losses = []
        for row, i in enumerate(chosen):
            _, gold, shelf = items[i]
            logits = SCALE * tensors[shelf] @ q[row]
            losses.append(torch.logsumexp(logits, 0) - torch.logsumexp(logits[gold], 0))
        return torch.stack(losses).mean()

    return loss_of


def both_sides(
    encoder: Encoder, items: list[Item], texts: list[list[str]], hardest: list[int]
) -> Loss:
    """Questions and passages through the same trained layers: each question's softmax over the
    batch's passages (every question's answering passage and hardest near miss), its own
    answering passages sharing the target."""
    torch = encoder.torch

    def loss_of(chosen: list[int], rng: random.Random) -> Any:
        keys = [(items[i][2], rng.choice(items[i][1])) for i in chosen]
        keys += [(items[i][2], hardest[i]) for i in chosen]
        q = encoder([items[i][0] for i in chosen], max_length=64)
        p = encoder([texts[shelf][at] for shelf, at in keys])
        logits = SCALE * q @ p.T
        answering = torch.tensor(
            [[k[0] == items[i][2] and k[1] in items[i][1] for k in keys] for i in chosen]
        )
        gold = logits.masked_fill(~answering, float("-inf"))
        return (torch.logsumexp(logits, 1) - torch.logsumexp(gold, 1)).mean()

    return loss_of


def squad_shelf(articles: int, rng: random.Random) -> tuple[list[Item], list[str]]:
    """`articles` squad11-train articles past the held-out ten, drawn at random: their questions
    with their paragraph, and the paragraphs."""
    drawn = rng.sample(squad_articles(SQUAD)[HELD_OUT_ARTICLES:], articles)
    texts: list[str] = []
    items: list[Item] = []
    for article in drawn:
        for p in article["paragraphs"]:
            items += [(qa["question"], [len(texts)], -1) for qa in p["qas"]]
            texts.append(p["context"])
    return items, texts


def hardest_negatives(
    encoder: Encoder, items: list[Item], shelves: list[NDArray[np.float32]], pages: list[list[str]]
) -> list[int]:
    """Per item, the passage of its shelf the packaged model ranks highest on another page than
    its answer's: the near miss a passage side must learn to push away."""
    asked = encoder.embed([q for q, _, _ in items])
    hardest = []
    for (_, gold, shelf), vector in zip(items, asked, strict=True):
        answering = {pages[shelf][g] for g in gold}
        for i in np.argsort(-(shelves[shelf] @ vector)).tolist():
            if pages[shelf][i] not in answering:
                hardest.append(i)
                break
    return hardest


def recall(book: Book, vectors: NDArray[np.float32], chunks: NDArray[np.float32]) -> list[float]:
    """Recall@1 and @5 of the book's measured rows (their question `vectors`)."""
    rows = [r for r in book.rows if book.measured(r)]
    order = np.argsort(-(vectors @ chunks.T), axis=1)[:, :5]
    hits = [(set(ranked.tolist()), int(ranked[0])) for ranked in order]
    at1 = sum(first in r["gold"] for r, (_, first) in zip(rows, hits, strict=True))
    at5 = sum(bool(top & set(r["gold"])) for r, (top, _) in zip(rows, hits, strict=True))
    return [round(at1 / max(len(rows), 1), 3), round(at5 / max(len(rows), 1), 3)]


def main() -> None:
    """Train, write the changed tensors, and print recall before and after."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="a .safetensors file")
    parser.add_argument("--articles", type=int, default=60, help="squad11-train articles")
    parser.add_argument("--squad", type=int, default=6000, help="their questions, at most")
    parser.add_argument("--repeat", type=int, default=2, help="passes over readers' questions")
    parser.add_argument("--layers", type=int, default=2, help="top layers trained")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--sides",
        choices=("question", "both"),
        default="question",
        help="train the question side only, or questions and passages alike (re-embeds the index)",
    )
    args = parser.parse_args()
    if not SQUAD.exists():
        sys.exit(f"error: {SQUAD} not found (clone the project beside shared/)")
    rng = random.Random(args.seed)
    encoder = Encoder(args.threads, args.layers)
    with tempfile.TemporaryDirectory() as scratch:
        books = [_book(source) for source in sources(Path(scratch))]
    passages = {b.name: encoder.embed(b.texts) for b in books}
    measured: dict[str, Any] = {}
    items: list[Item] = []
    shelves: list[NDArray[np.float32]] = []
    shelf_texts: list[list[str]] = []
    pages: list[list[str]] = []
    for book in books:
        asked = encoder.embed([r["question"] for r in book.rows if book.measured(r)])
        measured[book.name] = {
            "rows": len(asked),
            "before": recall(book, asked, passages[book.name]),
        }
        if book.name not in MEASURED_ONLY:
            shelves.append(passages[book.name])
            shelf_texts.append(book.texts)
            pages.append(book.paths)
            trained = [r for r in book.rows if not book.measured(r)]
            items += [(r["question"], r["gold"], len(shelves) - 1) for r in trained] * args.repeat
    squad, paragraphs = squad_shelf(args.articles, rng)
    shelves.append(encoder.embed(paragraphs))
    shelf_texts.append(paragraphs)
    pages.append([str(i) for i in range(len(paragraphs))])
    items += [(q, gold, len(shelves) - 1) for q, gold, _ in squad[: args.squad]]
    print(f"training ({args.sides} side) on {len(items)} questions", file=sys.stderr)
    if args.sides == "both":
        hardest = hardest_negatives(encoder, items, shelves, pages)
        train(encoder, items, both_sides(encoder, items, shelf_texts, hardest), args)
    else:
        train(encoder, items, question_side(encoder, items, shelves), args)
    for book in books:
        asked = encoder.embed([r["question"] for r in book.rows if book.measured(r)])
        chunks = encoder.embed(book.texts) if args.sides == "both" else passages[book.name]
        measured[book.name]["after"] = recall(book, asked, chunks)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    encoder.save(args.out, {k: v for k, v in vars(args).items() if k not in ("out", "threads")})
    print(json.dumps(measured, indent=1))


if __name__ == "__main__":
    main()
