"""The model server: connecting to it (key, tracing, model name), requests every server accepts,
and the capability probe against the scripted server (servers lacking a capability) and a port
nobody listens on; the real llama.cpp server is probed in test_generated_answers_local_model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from agents import trace
from agents.tracing.traces import NoOpTrace

from bookchat.answer.llm.agent import Question, Search
from bookchat.answer.llm.generator import LLMGenerator
from bookchat.answer.llm.server import PLACEHOLDER_KEY, Capabilities, ModelNotConfigured, connect
from bookchat.config import Settings
from tests.answer.llm.test_generator import REVERT, passage
from tests.local_model import free_port
from tests.scripted_model import Reply, ScriptedModel, searching


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


def _no_tools(request: dict[str, Any]) -> Reply:
    # Like a server whose chat template has no tools: it refuses any request that offers them.
    if "tools" in request:
        return Reply(status=400)
    return Reply(text="ready")


async def test_a_server_without_tool_calls_is_used_without_searches(
    generator: LLMGenerator, scripted: ScriptedModel, book_search_fn: Callable[..., Search]
) -> None:
    scripted.default = _no_tools
    found = await generator.probe()
    assert found.state == "limited"
    assert found.as_dict() == {
        "reachable": True,
        "model": None,  # the scripted server lists no models
        "chat": True,
        "streaming": True,
        "tools": False,
    }
    assert generator.search_policy == "off"
    scripted.requests.clear()
    out = await generator.generate(
        Question("What does revert do?", [passage(REVERT)], mode="book", search=book_search_fn())
    )
    assert out.text == "ready"
    assert "tools" not in scripted.requests[0]  # the answer never offers what the server refuses
    assert any("no searches" in line for line in found.lines())


async def test_a_server_that_cannot_stream_gets_whole_answers(
    generator: LLMGenerator, scripted: ScriptedModel
) -> None:
    scripted.default = lambda request: (
        Reply(status=501)
        if request.get("stream")
        else Reply(text="git revert adds an inverse commit [1].")
    )
    found = await generator.probe()
    assert not found.works("streaming") and found.works("chat")
    assert not generator.streams
    scripted.requests.clear()
    items = [
        item async for item in generator.stream(Question("Revert?", [passage(REVERT)], mode="book"))
    ]
    assert items[0] == "git revert adds an inverse commit [1]."
    assert items[-1].text == items[0]  # type: ignore[union-attr]
    assert all(not request.get("stream") for request in scripted.requests)


async def _probed_unreachable(
    make_settings: Callable[..., Settings], **overrides: Any
) -> tuple[LLMGenerator, Capabilities]:
    """A generator pointed at a port nobody listens on, after its probe (client closed)."""
    settings = make_settings(
        BOOKCHAT_GENERATOR="llm",
        OPENAI_BASE_URL=f"http://127.0.0.1:{free_port()}/v1",
        BOOKCHAT_LLM_MODEL="absent",
        **overrides,
    )
    generator = LLMGenerator.from_settings(settings)
    try:
        return generator, await generator.probe()
    finally:
        await generator.close()


async def test_a_server_nobody_answers_is_unusable_and_nothing_after_is_tried(
    make_settings: Callable[..., Settings],
) -> None:
    _, found = await _probed_unreachable(make_settings, BOOKCHAT_LLM_TIMEOUT=5)
    assert found.state == "unusable"
    assert found.as_dict() == {
        "reachable": False,
        "model": None,
        "chat": None,
        "streaming": None,
        "tools": None,
    }
    assert found.lines()[0].startswith("FAIL reachable")


async def test_the_tool_round_trip_never_sends_null_content(
    generator: LLMGenerator, scripted: ScriptedModel, book_search_fn: Callable[..., Search]
) -> None:
    scripted.script(
        searching("conflict markers"),
        Reply(text="Git writes both versions between conflict markers [2]."),
    )
    await generator.generate(
        Question(
            "What are conflict markers?", [passage(REVERT)], mode="book", search=book_search_fn()
        )
    )
    call_turn = next(m for m in scripted.requests[1]["messages"] if m.get("tool_calls"))
    # The SDK writes null here; llama.cpp's server answers that with HTTP 500.
    assert call_turn["content"] == ""


async def test_a_probe_nobody_answered_leaves_streaming_and_searches_as_configured(
    make_settings: Callable[..., Settings],
) -> None:
    # The model server may come up after bookchat: an unanswered probe must not turn features off.
    generator, found = await _probed_unreachable(make_settings, BOOKCHAT_LLM_SEARCH="first")
    assert found.state == "unusable"
    assert generator.streams
    assert generator.search_policy == "first"
