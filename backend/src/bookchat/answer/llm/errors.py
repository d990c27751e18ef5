"""The one error the generator raises; its text is safe to show a reader."""

from __future__ import annotations


class GenerationFailed(Exception):
    """The model gave no usable answer; the caller falls back to the extractive answer."""

    def __init__(self, reason: str) -> None:
        # The reason is for logs and metrics (e.g. "timeout", "APIStatusError"), never the
        # provider's own message, which may echo prompts or configuration.
        super().__init__("The language model could not answer.")
        self.reason = reason
