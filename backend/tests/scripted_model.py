"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1: the only fake in the tests.

It is a real HTTP server (Starlette under uvicorn, in its own thread and event loop) so the
OpenAI client, the Agents SDK and bookchat run unchanged against it. Each request takes the next
scripted `Reply` (or, when the script is empty, asks `default(request)` for one); replies can
stream or not, carry tool calls, wait, fail with a status code or send a body that is not JSON.
Every request body is recorded in `requests`, in arrival order.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from bookchat.markdown.units import split_units

_SOURCE = re.compile(r'<source id="(\d+)"[^>]*>\n(.*?)\n</source>', re.DOTALL)


@dataclass(frozen=True)
class ToolCall:
    """A function call the scripted model makes."""

    name: str
    arguments: str  # the JSON text the model would send
    id: str = "call_1"


@dataclass(frozen=True)
class Reply:
    """One scripted model turn."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    chunks: tuple[str, ...] | None = None  # how `text` is streamed; default: word by word
    first_token_delay: float = 0.0  # seconds before the first byte of the answer
    token_delay: float = 0.0  # seconds between streamed chunks
    status: int = 200
    raw_body: str | None = None  # sent as-is (e.g. malformed JSON), with `status`


def searching(query: str) -> Reply:
    """A turn that only calls search_book with `query`."""
    return Reply(tool_calls=(ToolCall("search_book", json.dumps({"query": query})),))


def words(text: str) -> tuple[str, ...]:
    """`text` cut into word-sized chunks that concatenate back to it."""
    pieces = text.split(" ")
    return (*(p + " " for p in pieces[:-1]), pieces[-1])


def _usage() -> dict[str, int]:
    return {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _tool_calls(reply: Reply) -> list[dict[str, Any]]:
    return [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": call.arguments},
        }
        for call in reply.tool_calls
    ]


def _completion(reply: Reply, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.tool_calls:
        message["tool_calls"] = _tool_calls(reply)
    finish = "tool_calls" if reply.tool_calls else "stop"
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": _usage(),
    }


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> str:
    body = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n"


class ScriptedModel:
    """The server; use `start()`/`stop()` (or the fixtures built on it)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.default: Callable[[dict[str, Any]], Reply] = lambda _: Reply(status=500)
        # perf_counter() when each streamed reply sent its first and its last chunk.
        self.first_token_at: list[float] = []
        self.last_token_at: list[float] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._port = _free_port()
        self._server = uvicorn.Server(
            uvicorn.Config(
                Starlette(routes=[Route("/v1/chat/completions", self._handle, methods=["POST"])]),
                host="127.0.0.1",
                port=self._port,
                log_level="error",
                lifespan="off",
                # Replies sleeping past a test's time limit must not hold up shutdown.
                timeout_graceful_shutdown=1,
            )
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def base_url(self) -> str:
        """What OPENAI_BASE_URL should be."""
        return f"http://127.0.0.1:{self._port}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next requests, in order."""
        with self._lock:
            self._script.extend(replies)

    def reset(self) -> None:
        """Forget the script, the default and the request log."""
        with self._lock:
            self._script.clear()
            self.requests.clear()
            self.first_token_at.clear()
            self.last_token_at.clear()
            self.default = lambda _: Reply(status=500)

    def start(self) -> ScriptedModel:
        """Serve in a background thread; returns once the port accepts connections."""
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("scripted model server failed to start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Shut the server down (replies mid-delay are abandoned)."""
        self._server.should_exit = True
        self._thread.join(timeout=5)

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self._script:
                return self._script.popleft()
        return self.default(body)

    async def _handle(self, request: Request) -> Response:
        body = await request.json()
        reply = self._next(body)
        model = str(body.get("model", "scripted"))
        if reply.raw_body is not None or reply.status != 200:
            await asyncio.sleep(reply.first_token_delay)
            if reply.raw_body is not None:
                return PlainTextResponse(
                    reply.raw_body, status_code=reply.status, media_type="application/json"
                )
            error = {"error": {"message": "scripted provider failure SECRET-PROVIDER-TEXT"}}
            return JSONResponse(error, status_code=reply.status)
        if not body.get("stream"):
            await asyncio.sleep(reply.first_token_delay)
            return JSONResponse(_completion(reply, model))
        usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return StreamingResponse(self._stream(reply, model, usage), media_type="text/event-stream")

    async def _stream(self, reply: Reply, model: str, usage: bool) -> AsyncIterator[str]:
        await asyncio.sleep(reply.first_token_delay)
        pieces = reply.chunks if reply.chunks is not None else words(reply.text)
        pieces = tuple(p for p in pieces if p)
        self.first_token_at.append(time.perf_counter())
        yield _chunk(model, {"role": "assistant", "content": ""})
        for i, piece in enumerate(pieces):
            if i:
                await asyncio.sleep(reply.token_delay)
            yield _chunk(model, {"content": piece})
        for index, call in enumerate(_tool_calls(reply)):
            yield _chunk(model, {"tool_calls": [{"index": index, **call}]})
        self.last_token_at.append(time.perf_counter())
        yield _chunk(model, {}, "tool_calls" if reply.tool_calls else "stop")
        if usage:
            tail = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0}
            tail |= {"model": model, "choices": [], "usage": _usage()}
            yield f"data: {json.dumps(tail)}\n\n"
        yield "data: [DONE]\n\n"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The chat messages of a recorded request."""
    return list(request.get("messages", []))


def sources_in(request: dict[str, Any]) -> dict[int, str]:
    """The text of every `<source>` the request shows the model (user turns and tool results)."""
    found: dict[int, str] = {}
    for message in messages(request):
        if message["role"] in {"user", "tool"} and isinstance(message.get("content"), str):
            for number, text in _SOURCE.findall(message["content"]):
                found.setdefault(int(number), html.unescape(text))
    return found


def quoting(
    number: int = 1, *, first_token_delay: float = 0.0, token_delay: float = 0.0
) -> Callable[[dict[str, Any]], Reply]:
    """A responder that answers with the first sentence of source `number`, cited."""

    def reply(request: dict[str, Any]) -> Reply:
        text = sources_in(request)[number]
        sentence = next((u.plain for u in split_units(text) if u.role != "code"), text)
        return Reply(
            text=f"{sentence} [{number}]",
            first_token_delay=first_token_delay,
            token_delay=token_delay,
        )

    return reply
