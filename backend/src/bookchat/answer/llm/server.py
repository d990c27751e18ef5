"""The model server: connecting to it, requests every server accepts, and what it can do.

One client per app, made and closed in the lifespan (`connect`). Some servers reject the Agents
SDK's `"content": null` tool-calling turns, so `CompatibleRequests` sends `""`, which means the
same. OpenAI-compatible servers differ in listing models, streaming and calling tools: one probe
(`bookchat check-llm`, and at start-up) finds out, stopping at the first step that rules out the
rest.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import httpx2
from agents import (
    Model,
    OpenAIChatCompletionsModel,
    set_tracing_disabled,
    set_tracing_export_api_key,
)
from openai import APIConnectionError, APIStatusError, AsyncOpenAI, DefaultAsyncHttpxClient
from openai.types.chat import ChatCompletionFunctionToolParam, ChatCompletionMessageParam

from bookchat.config import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ModelClient:
    """The HTTP client and the Agents SDK model bound to it."""

    client: AsyncOpenAI
    model: Model
    name: str

    async def close(self) -> None:
        """Close the connection pool."""
        await self.client.close()


class ModelNotConfigured(Exception):
    """BOOKCHAT_GENERATOR asks for the model but BOOKCHAT_LLM_MODEL is not set."""


OPENAI_URL = "https://api.openai.com/v1"
# Local servers (Ollama, vLLM) ignore the key but the client insists on one.
PLACEHOLDER_KEY = "unused"


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
        http_client=DefaultAsyncHttpxClient(transport=CompatibleRequests()),
    )
    model = OpenAIChatCompletionsModel(model=settings.llm_model, openai_client=client)
    return ModelClient(client=client, model=model, name=settings.llm_model)


def accepted_everywhere(body: dict[str, Any]) -> bool:
    """Rewrite `body` in place so no message has null content; True when anything changed."""
    changed = False
    for message in body.get("messages") or []:
        if isinstance(message, dict) and "content" in message and message["content"] is None:
            message["content"] = ""
            changed = True
    return changed


class CompatibleRequests(httpx2.AsyncBaseTransport):
    """A transport that sends chat-completions bodies in the form every server accepts."""

    def __init__(self, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self._inner = inner or httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send `request`, rewritten first when it is a chat completion with null content."""
        if request.method == "POST" and request.url.path.endswith("/chat/completions"):
            request = _rewritten(request)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        """Close the inner transport's connections."""
        await self._inner.aclose()


def _rewritten(request: httpx2.Request) -> httpx2.Request:
    try:
        body = json.loads(request.content)
    except (ValueError, UnicodeDecodeError):
        return request  # not JSON: not ours to fix
    if not isinstance(body, dict) or not accepted_everywhere(body):
        return request
    headers = {k: v for k, v in request.headers.items() if k.lower() != "content-length"}
    return httpx2.Request(
        request.method,
        request.url,
        headers=headers,
        content=json.dumps(body).encode(),
        extensions=request.extensions,
    )


Name = Literal["reachable", "model", "chat", "streaming", "tools"]
State = Literal["ready", "limited", "unusable"]
ORDER: tuple[Name, ...] = ("reachable", "model", "chat", "streaming", "tools")
PROBE_TOOL: ChatCompletionFunctionToolParam = {
    "type": "function",
    "function": {
        "name": "search_book",
        "description": "Search the book for passages.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
        },
    },
}
_ASK: list[ChatCompletionMessageParam] = [
    {"role": "user", "content": "Reply with one word: ready."}
]


@dataclass(frozen=True, slots=True)
class Finding:
    """One capability: whether it works (None: not tried) and what was seen."""

    name: Name
    ok: bool | None
    detail: str


@dataclass(frozen=True, slots=True)
class Capabilities:
    """Every finding of one probe, in ORDER."""

    model: str
    findings: tuple[Finding, ...]

    def works(self, name: Name) -> bool:
        """True when `name` was tried and works."""
        return any(f.name == name and f.ok for f in self.findings)

    @property
    def state(self) -> State:
        """ready: all works; limited: answers work, something else does not; else unusable."""
        if not self.works("chat"):
            return "unusable"
        return "ready" if all(f.ok for f in self.findings) else "limited"

    def as_dict(self) -> dict[str, bool | None]:
        """capability → works (None: not tried), for /health."""
        return {f.name: f.ok for f in self.findings}

    def lines(self) -> list[str]:
        """One line per capability: what was found, and what bookchat does with it."""
        return [
            f"{_mark(f.ok)} {f.name:<9} {f.detail} → {self._use(f.name)}" for f in self.findings
        ]

    def _use(self, name: Name) -> str:
        if name in ("reachable", "model", "chat"):
            if self.works("chat"):
                return "answers are generated by the model"
            return "answers stay extractive (every question falls back)"
        if name == "streaming":
            if self.works("streaming"):
                return "tokens stream to the reader as written"
            return "generated answers arrive whole"
        if self.works("tools"):
            return "the model may search the book (BOOKCHAT_LLM_SEARCH)"
        return "no searches: the model reads the passages retrieved first"


def _mark(ok: bool | None) -> str:
    return {True: "ok  ", False: "FAIL", None: "--  "}[ok]


def _failed(exc: BaseException) -> str:
    if isinstance(exc, APIStatusError):
        return f"HTTP {exc.status_code}"
    if isinstance(exc, APIConnectionError | TimeoutError):
        return "no answer (connection refused or timed out)"
    return type(exc).__name__


Step = Callable[[AsyncOpenAI, str], Awaitable[list[Finding]]]


async def probe(client: AsyncOpenAI, model: str, *, timeout_s: float) -> Capabilities:
    """Ask the server what it can do; never raises for the server's failures."""
    steps: tuple[tuple[Name, Step], ...] = (
        ("reachable", _reachable),
        ("chat", _chat),
        ("streaming", _streaming),
        ("tools", _tools),
    )
    findings: list[Finding] = []
    for name, step in steps:
        try:
            async with asyncio.timeout(timeout_s):
                found = await step(client, model)
        except Exception as exc:  # any failure is a finding, not an error
            found = [Finding(name, False, _failed(exc))]
        findings.extend(found)
        # Nothing after these can work: an unreachable server, or one that will not answer.
        if name in ("reachable", "chat") and any(f.name == name and not f.ok for f in found):
            break
    tried = {f.name for f in findings}
    findings.extend(Finding(n, None, "not tried") for n in ORDER if n not in tried)
    return Capabilities(model, tuple(sorted(findings, key=lambda f: ORDER.index(f.name))))


async def _reachable(client: AsyncOpenAI, model: str) -> list[Finding]:
    try:
        listed = [m.id async for m in client.models.list()]
    except APIStatusError as exc:
        # Answering at all means reachable; some servers simply do not list models.
        return [
            Finding("reachable", True, f"answers at {client.base_url}"),
            Finding("model", None, f"the server does not list models (HTTP {exc.status_code})"),
        ]
    reached = Finding("reachable", True, f"answers at {client.base_url}")
    if model in listed:
        return [reached, Finding("model", True, f"“{model}” is listed")]
    shown = ", ".join(listed[:5]) or "none"
    return [reached, Finding("model", False, f"“{model}” is not listed (listed: {shown})")]


async def _chat(client: AsyncOpenAI, model: str) -> list[Finding]:
    reply = await client.chat.completions.create(
        model=model, messages=_ASK, max_tokens=8, temperature=0
    )
    ok = bool(reply.choices)
    return [Finding("chat", ok, "chat completions answer" if ok else "empty reply")]


async def _streaming(client: AsyncOpenAI, model: str) -> list[Finding]:
    chunks = 0
    stream = await client.chat.completions.create(
        model=model, messages=_ASK, max_tokens=8, temperature=0, stream=True
    )
    async for _ in stream:
        chunks += 1
    ok = chunks > 0
    return [Finding("streaming", ok, f"{chunks} chunks streamed" if ok else "nothing streamed")]


async def _tools(client: AsyncOpenAI, model: str) -> list[Finding]:
    question: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Search the book for: rebase."}
    ]
    # Offered, not forced: what every answer sends with BOOKCHAT_LLM_SEARCH=auto. Some servers
    # (vLLM without --enable-auto-tool-choice) refuse it while accepting a forced call.
    await client.chat.completions.create(
        model=model, messages=question, tools=[PROBE_TOOL], max_tokens=8, temperature=0
    )
    reply = await client.chat.completions.create(
        model=model,
        messages=question,
        tools=[PROBE_TOOL],
        tool_choice={"type": "function", "function": {"name": "search_book"}},
        max_tokens=48,
        temperature=0,
    )
    calls = reply.choices[0].message.tool_calls if reply.choices else None
    if not calls:
        return [Finding("tools", False, "a forced tool call came back without one")]
    call = calls[0]
    # The round trip an answer with a search makes: the call, then its result.
    turn: list[ChatCompletionMessageParam] = [
        *question,
        {"role": "assistant", "content": "", "tool_calls": [call.model_dump()]},  # type: ignore[list-item]
        {"role": "tool", "tool_call_id": call.id, "content": "No passages found."},
    ]
    await client.chat.completions.create(
        model=model, messages=turn, tools=[PROBE_TOOL], max_tokens=8, temperature=0
    )
    return [Finding("tools", True, "tools offered, a forced call and its result are accepted")]


def log_once(capabilities: Capabilities) -> None:
    """Log the probe's findings at start-up, one line per capability."""
    level = logging.INFO if capabilities.state == "ready" else logging.WARNING
    log.log(level, "model %s: %s", capabilities.model, capabilities.state)
    for line in capabilities.lines():
        log.log(level, "  %s", line)
