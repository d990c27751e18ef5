"""Turning a DATABASE_URL (as Neon, Heroku or SQLAlchemy write it) into a DSN asyncpg accepts."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# asyncpg sends query parameters it does not know to the server as settings, which the server
# rejects ("unrecognized configuration parameter"). Neon's URLs carry channel_binding=require,
# which asyncpg cannot honour (it has no SCRAM channel binding); TLS still comes from sslmode.
# Timeouts are ours (PostgresConversationStore), not the URL's.
_UNSUPPORTED = frozenset({"channel_binding", "connect_timeout", "fallback_application_name"})
_SCHEMES = {"postgres", "postgresql", "postgresql+asyncpg", "postgres+asyncpg"}


def asyncpg_dsn(url: str) -> str:
    """The URL with an asyncpg scheme and without parameters asyncpg would forward wrongly."""
    parts = urlsplit(url.strip())
    if parts.scheme not in _SCHEMES:
        raise ValueError("DATABASE_URL must start with postgresql://")
    query = [(key, value) for key, value in parse_qsl(parts.query) if key not in _UNSUPPORTED]
    return urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(query), parts.fragment))
