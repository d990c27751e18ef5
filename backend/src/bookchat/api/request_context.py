"""Per-request id, access log and HTTP metrics, as one pure ASGI middleware.

Pure ASGI (not BaseHTTPMiddleware) so streaming responses pass through untouched. The request
id comes from a sane incoming `X-Request-ID` or is generated; it is echoed in the response and
attached to every log record of the request. Logs carry no question text, selection or secret.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bookchat.api.metrics import Metrics

request_id: ContextVar[str] = ContextVar("request_id", default="-")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
log = logging.getLogger("bookchat.access")


class RequestContext:
    """Assigns request ids, logs one line per request and counts it."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Wrap one HTTP request."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        rid = incoming if _SAFE_ID.match(incoming) else secrets.token_hex(8)
        token = request_id.set(rid)
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", []).append((b"x-request-id", rid.encode()))
                endpoint = _endpoint(scope)
                self.metrics.http_seconds.labels(endpoint=endpoint).observe(
                    time.perf_counter() - started
                )
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            endpoint = _endpoint(scope)
            self.metrics.http_requests.labels(
                endpoint=endpoint, method=scope["method"], code=str(status)
            ).inc()
            log.info(
                "request",
                extra={
                    "method": scope["method"],
                    "endpoint": endpoint,
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                },
            )
            request_id.reset(token)


def _endpoint(scope: Scope) -> str:
    """The route template (`/api/conversations/{conversation_id}`), never the raw path."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return str(path) if path else "unmatched"
