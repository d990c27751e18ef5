"""Rate limiting with slowapi: one shared limit for the query endpoints, per resolved client."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from limits import parse as parse_limit
from slowapi import Limiter
from slowapi.errors import RateLimitExceeded
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bookchat.api.client_address import client_address_func
from bookchat.config import Settings

QUERY_SCOPE = "query"
# The authors' insights count apart from readers' questions: opening the page spends none of
# the questions its author may ask from the same address.
INSIGHTS_SCOPE = "insights"
_F = TypeVar("_F", bound=Callable[..., Any])


def limit_enabled(settings: Settings) -> bool:
    """False when BOOKCHAT_RATE_LIMIT is `off`."""
    return settings.rate_limit.strip().lower() not in {"off", "none", ""}


def build_limiter(settings: Settings) -> Limiter:
    """The app's limiter: memory storage, or Redis with an in-memory fallback when Redis is down."""
    if limit_enabled(settings):
        parse_limit(settings.rate_limit)  # fail at start-up, not on the first request
    storage = settings.redis_url.get_secret_value() if settings.redis_url else "memory://"
    return Limiter(
        key_func=client_address_func(settings.trusted_proxies),
        storage_uri=storage,
        in_memory_fallback_enabled=True,
        key_prefix="bookchat",
        enabled=limit_enabled(settings),
        headers_enabled=False,
    )


def query_limit(
    limiter: Limiter, settings: Settings, scope: str = QUERY_SCOPE
) -> Callable[[_F], _F]:
    """Decorator giving an endpoint the limit shared by `scope`'s endpoints (identity when limits
    are off)."""
    if not limit_enabled(settings):
        return lambda func: func
    decorator: Callable[[_F], _F] = limiter.shared_limit(settings.rate_limit, scope=scope)
    return decorator


def _retry_after(request: Request, exc: RateLimitExceeded) -> int:
    limiter: Limiter = request.app.state.limiter
    fallback = int(exc.limit.limit.get_expiry()) if exc.limit is not None else 60
    current = getattr(request.state, "view_rate_limit", None)
    if not current:
        return fallback
    try:
        reset_at, _remaining = limiter.limiter.get_window_stats(current[0], *current[1])
    except Exception:  # storage trouble must not turn a 429 into a 500
        return fallback
    return max(1, math.ceil(reset_at - time.time()))


def rate_limit_exceeded(request: Request, exc: Exception) -> Response:
    """429 with Retry-After (seconds) and a reader-facing detail."""
    assert isinstance(exc, RateLimitExceeded)
    seconds = _retry_after(request, exc)
    found = getattr(request.app.state, "services", None)
    if found is not None:
        found.metrics.rate_limited.labels(endpoint=request.url.path).inc()
    return JSONResponse(
        {"detail": f"Rate limit exceeded: {exc.detail}. Try again in {seconds} seconds."},
        status_code=429,
        headers={"Retry-After": str(seconds)},
    )
