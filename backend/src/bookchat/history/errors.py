"""The exceptions the conversation store raises instead of driver errors."""

from __future__ import annotations


class HistoryUnavailable(Exception):
    """The conversation database cannot be reached or used right now.

    The message is short and safe to show or log (never a DSN); the driver's error is the
    ``__cause__``. Callers answer without saving and add a warning.
    """


class UnknownConversation(LookupError):
    """A message was added to a conversation that does not exist (or was just deleted)."""


class UnknownMessage(LookupError):
    """A rating named a message that does not exist."""


class BadWindow(ValueError):
    """The insights were asked for a period that is not one: `reason` says why (safe to show)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
