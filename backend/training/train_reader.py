"""Train the answer reader; writes backend/src/bookchat/answer/reader.safetensors.

    backend/.venv/bin/python backend/training/train_reader.py [--quick] [--out FILE] [--limit N]
    (make train runs it, with --quick when QUICK=1)

A cross-encoder started from the packaged all-MiniLM-L6-v2 (`[CLS] question [SEP] passage
[SEP]`) with one linear head of three channels: the answer's start and end logits over the
passage's word pieces (SQuAD-style; the [CLS] piece stands for "no answer here") and, read at
[CLS], a relevance logit (does this passage answer the question?). Loss: the mean of the start
and end cross-entropies plus the relevance's binary cross-entropy. The word embeddings stay
frozen, so the shipped file holds only the other tensors (float16) and the head. One epoch,
AdamW, seeded. Data: reader_data.py (public training data only). Beside the weights it writes
FILE.checks.json, the relevance of a few fixed pairs that tests/answer/test_reader.py holds the
shipped weights to. Why it is built so:
specs/001-bookchat/decisions/0021-answer-reader-and-short-answer.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
from torch import nn

from bookchat.answer.reader import encode_windows, load_tokenizer
from bookchat.embedding.minilm import bf16_native, packaged_model_dir
from bookchat.ingest.corpus import build_corpus

sys.path.insert(0, str(Path(__file__).parent))
from reader_data import (
    BookChunk,
    Example,
    book_examples,
    squad2_unanswerable,
    squad_articles,
    squad_examples,
    written_unanswerable,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "backend" / "src" / "bookchat" / "answer" / "reader.safetensors"
SEED = 13
# squad11-train questions trained on (--quick: a tenth).
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


def build(quick: bool) -> tuple[list[Example], Counter[str]]:
    """Every training example (reader_data.py), seeded, and how many of each origin."""
    rng = random.Random(SEED)
    articles = squad_articles(SHARED / "squad11-train" / "articles.jsonl.gz")
    examples = list(squad_examples(articles, QUICK_POSITIVES if quick else POSITIVES, rng))
    repeat = 1 if quick else 2
    examples += squad2_unanswerable(SHARED / "squad-train10" / "questions.jsonl", repeat)
    written = ROOT / "backend" / "training" / "squad-unanswerable"
    examples += written_unanswerable(written, articles, repeat, 10 if quick else 1)
    chunks = book_chunks(ROOT / "website" / "docs")
    questions = ROOT / "backend" / "training" / "sample-book-questions.jsonl"
    examples += book_examples(questions, chunks, 1 if quick else 3, rng)
    return examples, Counter(e.origin for e in examples)


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


def run_epoch(model: ReaderNet, plan: list[list[dict[str, Any]]], started: float) -> None:
    """One epoch over `plan` (batches of feature rows), logging every 50 steps."""
    optimizer, schedule = optimiser(model, len(plan), LR, HEAD_LR)
    # bfloat16 autocast only where the CPU computes it natively: emulated, it is many times
    # slower than float32.
    native = bf16_native()
    model.train()
    running = 0.0
    for step, batch in enumerate(plan):
        ids, types, mask, allowed, starts, ends, labels = tensors(batch)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=native):
            logits = model(ids, mask, types)
        loss = pointwise_loss(logits, allowed, starts, ends, labels)
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


def train(quick: bool, out: Path, threads: int, limit: int | None = None) -> dict[str, Any]:
    """Build the data, train one epoch from MiniLM, export; returns the run's figures."""
    random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(threads)
    started = time.perf_counter()
    examples, origins = build(quick)
    tokenizer = load_tokenizer()
    featured = [features(tokenizer, e) for e in examples]
    rows = [f for f in featured if f is not None][:limit]
    print(f"{len(rows)} examples {dict(origins)}", flush=True)
    model = ReaderNet(packaged_model_dir())
    model.train()
    plan = batches(rows, random.Random(SEED))
    run_epoch(model, plan, started)
    minutes = (time.perf_counter() - started) / 60
    meta = {
        "seed": str(SEED),
        "examples": str(len(rows)),
        "quick": str(quick),
        "positives": str(POSITIVES),
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
    parser.add_argument(
        "--quick", action="store_true", help="a tenth of the data, minutes (make train QUICK=1)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=OUT,
        help="where to write the weights (default: the shipped file)",
    )
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads (default: 2)")
    parser.add_argument(
        "--limit", type=int, help="train on the first N examples only (a smoke run)"
    )
    args = parser.parse_args()
    if not SHARED.exists():
        sys.exit(f"error: training needs {SHARED} (the shared corpora)")
    figures = train(args.quick, args.out, args.threads, args.limit)
    print(json.dumps({k: v for k, v in figures.items() if k != "checks"}))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
