"""Chat-completions requests that every OpenAI-compatible server accepts.

The Agents SDK sends an assistant turn that only calls a tool with `"content": null`. OpenAI
accepts it; llama.cpp's Python server (and servers built on the same request schema) answers
HTTP 500 "Input should be a valid string", so every answer that used a search would silently
fall back. The transport below rewrites such requests on their way out: `null` content of an
assistant message becomes `""`, which every server accepts and means the same.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2


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
