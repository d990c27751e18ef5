"""The model client: configuration and tracing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from agents import trace
from agents.tracing.traces import NoOpTrace

from bookchat.answer.llm.client import PLACEHOLDER_KEY, ModelNotConfigured, connect
from bookchat.config import Settings


async def test_tracing_is_off_unless_asked_for(llm_settings: Settings) -> None:
    client = connect(llm_settings)
    try:
        assert isinstance(trace("bookchat"), NoOpTrace)
    finally:
        await client.close()


async def test_local_servers_need_no_key(make_settings: Callable[..., Settings]) -> None:
    settings = make_settings(
        OPENAI_BASE_URL="http://127.0.0.1:11434/v1", BOOKCHAT_LLM_MODEL="llama3.2"
    )
    client = connect(settings)
    try:
        assert client.client.api_key == PLACEHOLDER_KEY
        assert str(client.client.base_url) == "http://127.0.0.1:11434/v1/"
        assert client.name == "llama3.2"
    finally:
        await client.close()


def test_a_model_name_is_required(make_settings: Callable[..., Settings]) -> None:
    with pytest.raises(ModelNotConfigured):
        connect(make_settings(BOOKCHAT_GENERATOR="llm", BOOKCHAT_LLM_MODEL=None))
