"""The app over the small built site's index (two versions, two locales)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bookchat.config import Settings
from bookchat.vectorstore import VectorStore
from tests.conftest import AppClients


@pytest.fixture
def site_client(
    make_client: AppClients, site_settings: Settings, site_store: VectorStore
) -> Iterator[Any]:
    """A client of the app over the site's index, lifespan running."""
    with make_client(site_settings, store=site_store) as test_client:
        yield test_client
