"""Identifiers for conversations and messages."""

from __future__ import annotations

import secrets

# Knowing an id is what grants access to a conversation, so ids must be unguessable:
# 18 random bytes = 144 bits, 24 URL-safe characters.
ID_BYTES = 18


def new_id() -> str:
    """A fresh, unguessable, URL-safe identifier (144 random bits)."""
    return secrets.token_urlsafe(ID_BYTES)
