"""DATABASE_URLs as providers write them are turned into DSNs asyncpg understands."""

from __future__ import annotations

from pathlib import Path

import pytest

from bookchat.history import open_conversation_store
from bookchat.history.postgres_dsn import asyncpg_dsn
from tests.history.conftest import Backend, settings_for


def test_neon_urls_keep_tls_and_lose_channel_binding() -> None:
    url = "postgresql://alex:s3cr%40t@ep-cool-1.eu-central-1.aws.neon.tech/neondb?sslmode=require&channel_binding=require"
    assert asyncpg_dsn(url) == (
        "postgresql://alex:s3cr%40t@ep-cool-1.eu-central-1.aws.neon.tech/neondb?sslmode=require"
    )


@pytest.mark.parametrize(
    "url",
    [
        "postgres://u@h:5433/db",
        "postgresql+asyncpg://u@h:5433/db",
        "postgresql://u@h:5433/db?connect_timeout=10",
    ],
)
def test_other_spellings_become_plain_postgresql(url: str) -> None:
    assert asyncpg_dsn(url) == "postgresql://u@h:5433/db"


def test_other_schemes_are_refused() -> None:
    with pytest.raises(ValueError, match="postgresql://"):
        asyncpg_dsn("mysql://u@h/db")


async def test_a_provider_style_url_connects(postgres_backend: Backend, tmp_path: Path) -> None:
    backend = postgres_backend
    assert backend.settings.database_url is not None
    base = backend.settings.database_url.get_secret_value()
    # The local server has no TLS, so "prefer" stands in for Neon's "require".
    url = f"{base}?sslmode=prefer&channel_binding=require&application_name=bookchat"
    store = await open_conversation_store(settings_for(tmp_path, url))
    try:
        await store.ping()
    finally:
        await store.close()
