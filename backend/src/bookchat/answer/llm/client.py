"""The model connection: one AsyncOpenAI client per app, made in the lifespan and closed there."""

from __future__ import annotations

from dataclasses import dataclass

from agents import (
    Model,
    OpenAIChatCompletionsModel,
    set_tracing_disabled,
    set_tracing_export_api_key,
)
from openai import AsyncOpenAI

from bookchat.config import Settings

OPENAI_URL = "https://api.openai.com/v1"
# Local servers (Ollama, vLLM) ignore the key but the client insists on one.
PLACEHOLDER_KEY = "unused"


class ModelNotConfigured(Exception):
    """BOOKCHAT_GENERATOR asks for the model but BOOKCHAT_LLM_MODEL is not set."""


@dataclass(frozen=True, slots=True)
class ModelClient:
    """The HTTP client and the Agents SDK model bound to it."""

    client: AsyncOpenAI
    model: Model
    name: str

    async def close(self) -> None:
        """Close the connection pool."""
        await self.client.close()


def connect(settings: Settings) -> ModelClient:
    """The client for settings' model; tracing stays off unless BOOKCHAT_LLM_TRACING is true."""
    if not settings.llm_model:
        raise ModelNotConfigured
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    # Tracing would send every prompt (book text and questions) to OpenAI: opt-in only.
    set_tracing_disabled(not settings.llm_tracing)
    if settings.llm_tracing and key:
        set_tracing_export_api_key(key)
    client = AsyncOpenAI(
        api_key=key or PLACEHOLDER_KEY,
        # Passed explicitly so the client never falls back to reading the environment itself.
        base_url=settings.openai_base_url or OPENAI_URL,
        timeout=settings.llm_timeout_s,
        # The extractive answer is the fallback: a retry would only make the reader wait longer.
        max_retries=0,
    )
    model = OpenAIChatCompletionsModel(model=settings.llm_model, openai_client=client)
    return ModelClient(client=client, model=model, name=settings.llm_model)
