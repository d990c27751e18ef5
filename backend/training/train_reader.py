"""Train the answer reader; writes backend/src/bookchat/answer/reader.safetensors.

    backend/.venv/bin/python backend/training/train_reader.py [--quick] [--out FILE]
        [--books NAMES] [--start FILE] [--neighbours] [--listwise W] [--reword S]
    (make train runs it; --quick: a tenth of the data, minutes, for experiments; --books: readers'
    questions on more public books too; --start: continue a trained reader on a SQuAD replay
    and the books, at lower rates, instead of starting from MiniLM; --neighbours and --listwise:
    every SQuAD question against its article's closest other paragraph, ranked, measured and
    not the default: decisions.md, "Each SQuAD question against its closest neighbour";
    --reword: a share of SQuAD questions reworded away from their paragraph too, measured and
    not the default: decisions.md, "Questions reworded away from their paragraph")

A cross-encoder started from the packaged all-MiniLM-L6-v2 (`[CLS] question [SEP] passage
[SEP]`) with one linear head of three channels: the answer's start and end logits over the
passage's word pieces (SQuAD-style; the [CLS] piece stands for "no answer here") and, read at
[CLS], a relevance logit (does this passage answer the question?). Loss: the mean of the start
and end cross-entropies plus the relevance's binary cross-entropy. The word embeddings stay
frozen, so the shipped file holds only the other tensors (float16) and the head: ~22 MB over the
packaged checkpoint. Data: reader_data.py (public training data only). Seeded: a re-run on the
same machine reproduces the weights.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
from torch import nn

from bookchat.answer.reader import MAX_PIECES, encode_windows, load_tokenizer
from bookchat.embedding.minilm import bf16_native, packaged_model_dir
from bookchat.ingest.corpus import build_corpus

sys.path.insert(0, str(Path(__file__).parent))
from reader_data import (
    BookChunk,
    Example,
    book_examples,
    readers_examples,
    squad2_unanswerable,
    squad_articles,
    squad_examples,
    words,
    written_unanswerable,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "backend" / "src" / "bookchat" / "answer" / "reader.safetensors"
SEED = 13
# 24,000 squad11-train questions: span F1 on held-out selections 0.675 at 12,000, 0.726 here
# (decisions.md, "A reader trained on twice the questions").
POSITIVES, QUICK_POSITIVES = 24_000, 2_400
BATCH, LR, HEAD_LR, WARMUP, DECAY = 16, 6e-5, 1e-3, 0.1, 0.01
# Fixed pairs whose scores the shipped weights must reproduce (tests/answer/test_reader.py).
CHECKS = [
    (
        "Who wrote Git?",
        "History\nGit was written by Linus Torvalds in April 2005 to manage the Linux kernel.",
    ),
    ("Who wrote Git?", "Installing\nOn Fedora, install Git with `sudo dnf install git`."),
    (
        "How do I undo my last commit but keep the changes?",
        "Undoing commits\nRun `git reset --soft HEAD~1`: the commit is gone and its changes stay "
        "staged. Use `--hard` only when you want to throw the changes away.",
    ),
]


# Continuing a trained reader (--start): its rates, and SQuAD questions replayed beside the
# books' so that the span reading learned there stays (decisions.md, session 30).
CONTINUE_LR, CONTINUE_HEAD_LR, REPLAY = 3e-5, 3e-4, 1_500


class ReaderNet(nn.Module):
    """MiniLM with the reader's head (training only; the server runs reader.Reader)."""

    def __init__(self, base: Path) -> None:
        from transformers import BertModel

        super().__init__()
        self.bert = BertModel.from_pretrained(str(base), add_pooling_layer=False)
        self.bert.embeddings.word_embeddings.weight.requires_grad_(False)
        self.head = nn.Linear(self.bert.config.hidden_size, 3)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor, types: torch.Tensor) -> torch.Tensor:
        """(batch, pieces, 3) logits."""
        hidden = self.bert(input_ids=ids, attention_mask=mask, token_type_ids=types)
        return self.head(hidden.last_hidden_state).float()  # type: ignore[no-any-return]


def load_reader_net(weights: Path) -> ReaderNet:
    """A trained reader (its shipped file) as a trainable network."""
    from safetensors.torch import load_file

    model = ReaderNet(packaged_model_dir())
    state = load_file(str(weights))
    head = {k.split(".", 1)[1]: v.float() for k, v in state.items() if k.startswith("head.")}
    body = {k: v.float() for k, v in state.items() if not k.startswith("head.")}
    model.bert.load_state_dict(body, strict=False)
    model.head.load_state_dict(head)
    return model


def features(tokenizer: Any, example: Example) -> dict[str, Any] | None:
    """The window the model trains on, with its target pieces (0, 0 for no answer)."""
    windows = encode_windows(tokenizer, example.question, [example.passage])
    if not example.answerable:
        w = windows[0]
        return {"ids": w.ids, "types": w.types, "first": w.first, "span": (0, 0), "label": 0.0}
    end = example.start + len(example.answer)
    for w in windows:
        inside = [i for i, (a, b) in enumerate(w.offsets) if b > example.start and a < end]
        if inside and w.offsets[0][0] <= example.start and w.offsets[-1][1] >= end:
            span = (w.first + inside[0], w.first + inside[-1])
            return {"ids": w.ids, "types": w.types, "first": w.first, "span": span, "label": 1.0}
    return None


def batches(rows: list[dict[str, Any]], rng: random.Random) -> list[list[dict[str, Any]]]:
    """Batches of similar lengths (less padding), in random order."""
    rng.shuffle(rows)
    out: list[list[dict[str, Any]]] = []
    for at in range(0, len(rows), BATCH * 50):
        block = sorted(rows[at : at + BATCH * 50], key=lambda r: len(r["ids"]))
        out.extend(block[i : i + BATCH] for i in range(0, len(block), BATCH))
    rng.shuffle(out)
    return out


Rows = list[dict[str, Any]]


def question_batches(groups: list[Rows], rng: random.Random, size: int = BATCH) -> list[list[Rows]]:
    """Batches of whole questions (each group: one question's rows), about `size` rows each,
    of similar lengths, in random order."""
    rng.shuffle(groups)
    out: list[list[Rows]] = []
    for at in range(0, len(groups), size * 50):
        block = sorted(groups[at : at + size * 50], key=lambda g: max(len(r["ids"]) for r in g))
        batch: list[Rows] = []
        for g in block:
            if batch and sum(map(len, batch)) + len(g) > size:
                out.append(batch)
                batch = []
            batch.append(g)
        if batch:
            out.append(batch)
    rng.shuffle(out)
    return out


def listwise_loss(sizes: list[list[int]], weight: float) -> Callable[[int, Any, torch.Tensor], Any]:
    """`run_epoch`'s extra term for batches of whole questions (`sizes`: each step's group
    sizes): per question holding both, the cross-entropy of its answering passages among its
    own, so that the relevance logit orders one question's passages and not only labels them."""

    def loss(step: int, logits: Any, labels: torch.Tensor) -> Any:
        relevance = logits[:, 0, 2]
        total, at, counted = torch.zeros(()), 0, 0
        for n in sizes[step]:
            scores, gold = relevance[at : at + n], labels[at : at + n]
            at += n
            if 0 < gold.sum() < n:
                total = total + torch.logsumexp(scores, 0) - torch.logsumexp(scores[gold > 0], 0)
                counted += 1
        return weight * total / counted if counted else torch.zeros(())

    return loss


def by_question(pairs: Iterable[tuple[str, dict[str, Any]]]) -> list[Rows]:
    """(question, feature row) pairs as one group of rows a question, in first-seen order."""
    groups: dict[str, Rows] = {}
    for question, row in pairs:
        groups.setdefault(question, []).append(row)
    return list(groups.values())


def question_plan(
    groups: list[Rows], rng: random.Random, size: int, weight: float
) -> tuple[list[Rows], Callable[[int, Any, torch.Tensor], Any]]:
    """`question_batches` as `run_epoch`'s plan (rows a step), with their `listwise_loss`."""
    steps = question_batches(groups, rng, size)
    plan = [[row for g in batch for row in g] for batch in steps]
    return plan, listwise_loss([[len(g) for g in batch] for batch in steps], weight)


def tensors(batch: list[dict[str, Any]]) -> tuple[torch.Tensor, ...]:
    """Padded ids, types, mask, allowed-answer mask, span targets and labels."""
    width = max(len(r["ids"]) for r in batch)
    ids = torch.zeros((len(batch), width), dtype=torch.long)
    types, mask = torch.zeros_like(ids), torch.zeros_like(ids)
    allowed = torch.zeros((len(batch), width), dtype=torch.bool)
    for row, r in enumerate(batch):
        n = len(r["ids"])
        ids[row, :n] = torch.tensor(r["ids"])
        types[row, :n] = torch.tensor(r["types"])
        mask[row, :n] = 1
        allowed[row, 0] = True
        allowed[row, r["first"] : n - 1] = True
    starts = torch.tensor([r["span"][0] for r in batch])
    ends = torch.tensor([r["span"][1] for r in batch])
    labels = torch.tensor([r["label"] for r in batch])
    return ids, types, mask, allowed, starts, ends, labels


def book_chunks(docs: Path) -> list[BookChunk]:
    """A book's chunks as ingestion makes them."""
    return [
        BookChunk(str(c.payload["path"]), str(c.payload["section"]), str(c.payload["text"]))
        for c in build_corpus(docs).chunks
    ]


def books_examples(books: Sequence[str], quick: bool, rng: random.Random) -> list[Example]:
    """Readers' questions on `books` (rank_data.py's names), their held-out fifth left out."""
    from rank_data import sources

    examples: list[Example] = []
    found: set[str] = set()
    with tempfile.TemporaryDirectory() as scratch:
        for source in sources(Path(scratch)):
            if source.name not in books:
                continue
            found.add(source.name)
            rows = [r for r in source.rows if not r["held_out"]]
            examples += readers_examples(rows, book_chunks(source.docs), 1 if quick else 2, rng)
    if unknown := sorted(set(books) - found):
        sys.exit(f"error: no readers' questions for {', '.join(unknown)} (rank_data.py's names)")
    return examples


def build(
    quick: bool,
    positives: int = POSITIVES,
    books: Sequence[str] = (),
    continued: bool = False,
    neighbours: bool = False,
    reword: float = 0.0,
) -> tuple[list[Example], Counter[str]]:
    """Every training example (reader_data.py), seeded; `continued`: the replay's shares (SQuAD
    2.0's unanswerables once, a quarter of the written ones, the sample book twice);
    `neighbours`: every SQuAD question with its article's closest other paragraph; `reword`:
    this share of SQuAD questions also reworded away from their paragraph (reword.py)."""
    rng = random.Random(SEED)
    articles = squad_articles(SHARED / "squad11-train" / "articles.jsonl.gz")
    count = QUICK_POSITIVES if quick else positives
    examples = list(
        squad_examples(
            articles, count, rng, every_neighbour=neighbours, reword=rewording(articles, reword)
        )
    )
    repeat = 1 if quick or continued else 2
    examples += squad2_unanswerable(SHARED / "squad-train10" / "questions.jsonl", repeat)
    written = ROOT / "backend" / "training" / "squad-unanswerable"
    every = 10 if quick else 4 if continued else 1
    examples += written_unanswerable(written, articles, repeat, every)
    chunks = book_chunks(ROOT / "website" / "docs")
    questions = ROOT / "backend" / "training" / "sample-book-questions.jsonl"
    examples += book_examples(questions, chunks, 1 if quick else 2 if continued else 3, rng)
    examples += books_examples(books, quick, rng)
    return examples, Counter(e.origin for e in examples)


def rewording(
    articles: Sequence[dict[str, Any]], share: float
) -> Callable[[str, str], str | None] | None:
    """reword.py's rewording for `share` of the questions (its own draws, so that the other
    examples are drawn as without it), or None for none."""
    if share <= 0:
        return None
    from reword import Rewording

    questions = (qa["question"] for a in articles for p in a["paragraphs"] for qa in p["qas"])
    asked = {w for q in questions for w in words(q)}
    table = Rewording(packaged_model_dir(), asked)
    draws = random.Random(SEED + 1)

    def reword(question: str, paragraph: str) -> str | None:
        return table.reword(question, paragraph) if draws.random() < share else None

    return reword


def export(model: ReaderNet, out: Path, meta: dict[str, str]) -> None:
    """The tensors training changed, float16, and the head, float32."""
    from safetensors.torch import save_file

    state = {
        name: tensor.detach().to(torch.float16).contiguous()
        for name, tensor in model.bert.state_dict().items()
        if name != "embeddings.word_embeddings.weight" and "position_ids" not in name
    }
    state["head.weight"] = model.head.weight.detach().float().contiguous()
    state["head.bias"] = model.head.bias.detach().float().contiguous()
    out.parent.mkdir(parents=True, exist_ok=True)
    save_file(state, str(out), metadata=meta)


def optimiser(
    model: ReaderNet, steps: int, lr: float, head_lr: float
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LRScheduler]:
    """AdamW (the head at its own rate), warmed up over WARMUP of `steps`, then decayed to 0."""
    head = list(model.head.parameters())
    body = [p for p in model.bert.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(
        [{"params": body, "lr": lr}, {"params": head, "lr": head_lr}], weight_decay=DECAY
    )
    warm = max(1, int(WARMUP * steps))

    def factor(step: int) -> float:
        return (step + 1) / warm if step < warm else max(0.0, (steps - step) / (steps - warm))

    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def pointwise_loss(
    logits: torch.Tensor,
    allowed: torch.Tensor,
    starts: torch.Tensor,
    ends: torch.Tensor,
    labels: torch.Tensor,
) -> Any:  # a scalar tensor (torch's operators are untyped)
    """The span's start and end cross-entropies (their mean) plus the relevance's binary one."""
    ce = nn.CrossEntropyLoss()
    span = logits[..., :2].masked_fill(~allowed[..., None], -1e4)
    loss = (ce(span[..., 0], starts) + ce(span[..., 1], ends)) / 2
    return loss + nn.BCEWithLogitsLoss()(logits[:, 0, 2], labels)


def run_epoch(
    model: ReaderNet,
    plan: list[list[dict[str, Any]]],
    started: float,
    lr: float,
    head_lr: float,
    extra: Callable[[int, Any, torch.Tensor], Any] | None = None,
) -> None:
    """One epoch over `plan` (batches of feature rows), logging every 50 steps; the loss is
    `pointwise_loss` plus `extra(step, logits, labels)` when given."""
    optimizer, schedule = optimiser(model, len(plan), lr, head_lr)
    # bfloat16 autocast only where the CPU computes it: emulated, a step took 56 s against ~1.2 s
    # in float32 (decisions.md, "The reader's readings as features").
    native = bf16_native()
    model.train()
    running = 0.0
    for step, batch in enumerate(plan):
        ids, types, mask, allowed, starts, ends, labels = tensors(batch)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=native):
            logits = model(ids, mask, types)
        loss = pointwise_loss(logits, allowed, starts, ends, labels)
        if extra is not None:
            loss = loss + extra(step, logits, labels)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        running = 0.98 * running + 0.02 * loss.item() if step else loss.item()
        if step % 50 == 0 or step == len(plan) - 1:
            elapsed = time.perf_counter() - started
            print(f"step {step + 1}/{len(plan)} loss {running:.3f} {elapsed:.0f}s", flush=True)
    model.eval()


def train(
    quick: bool,
    out: Path,
    threads: int,
    limit: int | None = None,
    positives: int = POSITIVES,
    books: Sequence[str] = (),
    start: Path | None = None,
    neighbours: bool = False,
    listwise: float = 0.0,
    reword: float = 0.0,
) -> dict[str, Any]:
    """Build the data, train one epoch (from `start`'s weights when given), export; returns the
    run's figures. `listwise` > 0: batches of whole questions, with `listwise_loss`."""
    random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(threads)
    started = time.perf_counter()
    examples, origins = build(quick, positives, books, start is not None, neighbours, reword)
    tokenizer = load_tokenizer()
    featured = [(e.question, features(tokenizer, e)) for e in examples]
    kept = [(q, f) for q, f in featured if f is not None][:limit]
    rows = [f for _, f in kept]
    print(f"{len(rows)} examples {dict(origins)}", flush=True)
    model = ReaderNet(packaged_model_dir()) if start is None else load_reader_net(start)
    model.train()
    rates = (LR, HEAD_LR) if start is None else (CONTINUE_LR, CONTINUE_HEAD_LR)
    if listwise > 0:
        groups = by_question(kept)
        plan, extra = question_plan(groups, random.Random(SEED), BATCH, listwise)
        run_epoch(model, plan, started, *rates, extra)
    else:
        plan = batches(rows, random.Random(SEED))
        run_epoch(model, plan, started, *rates)
    minutes = (time.perf_counter() - started) / 60
    meta = {
        "seed": str(SEED),
        "examples": str(len(rows)),
        "quick": str(quick),
        "positives": str(positives),
        "books": ",".join(books),
        "start": start.name if start else "",
        "neighbours": str(neighbours),
        "listwise": str(listwise),
        "reword": str(reword),
    }
    export(model, out, meta)
    checks = check_scores(model, tokenizer)
    out.with_suffix(".checks.json").write_text(json.dumps(checks, indent=1) + "\n")
    return {
        "examples": len(rows),
        "steps": len(plan),
        "minutes": round(minutes, 1),
        "checks": checks,
    }


def check_scores(model: ReaderNet, tokenizer: Any) -> list[dict[str, Any]]:
    """The trained model's relevance logit and null-vs-best margin on the CHECKS pairs (fp32)."""
    out = []
    with torch.inference_mode():
        for question, passage in CHECKS:
            w = encode_windows(tokenizer, question, [passage])[0]
            ids = torch.tensor([w.ids])
            logits = model(ids, torch.ones_like(ids), torch.tensor([w.types]))[0]
            out.append({"question": question, "passage": passage, "relevance": float(logits[0, 2])})
    return out


def main() -> None:
    """Parse arguments and train."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the data (minutes)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the weights")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, help="train on this many examples only (a smoke run)")
    parser.add_argument(
        "--positives", type=int, help="squad11-train questions (24,000; 1,500 with --start)"
    )
    parser.add_argument(
        "--start", type=Path, help="continue this reader's weights (a second stage) instead"
    )
    parser.add_argument(
        "--books",
        default="",
        help="readers'-question books (rank_data.py's names, comma-separated) to train on too",
    )
    parser.add_argument(
        "--neighbours",
        action="store_true",
        help="every SQuAD question with its article's closest other paragraph as a negative",
    )
    parser.add_argument(
        "--listwise",
        type=float,
        default=0.0,
        help="weight of the per-question ranking loss (0: pointwise only)",
    )
    parser.add_argument(
        "--reword",
        type=float,
        default=0.0,
        help="share of SQuAD questions also reworded away from their paragraph (reword.py)",
    )
    args = parser.parse_args()
    books = [b for b in args.books.split(",") if b]
    if "rust-book" in books:
        sys.exit("error: the Rust book's questions are the dev set: never trained on")
    if "sample-book" in books:
        sys.exit("error: the sample book's training questions are always trained on")
    if not 0.0 <= args.reword <= 1.0:
        sys.exit(f"error: --reword {args.reword}: a share of the questions, from 0 to 1")
    if args.start and not args.start.is_file():
        sys.exit(f"error: --start {args.start}: no such weights file")
    if not SHARED.exists():
        sys.exit(f"error: training needs {SHARED} (the shared corpora)")
    positives = args.positives
    if positives is None:  # `--positives 0` (the books alone) is a choice, not the default
        positives = REPLAY if args.start else POSITIVES
    figures = train(
        args.quick,
        args.out,
        args.threads,
        args.limit,
        positives,
        books,
        args.start,
        args.neighbours,
        args.listwise,
        args.reword,
    )
    print(json.dumps({k: v for k, v in figures.items() if k != "checks"}))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    assert MAX_PIECES > 0
    main()
