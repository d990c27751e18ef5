"""The shared query rate limit: 429 with Retry-After, per resolved client, memory and Redis."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

QUESTION = {"question": "What does git revert do?"}


@pytest.fixture(params=["memory", "redis"])
def storage(request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """Settings overrides selecting the limiter's storage."""
    if request.param == "memory":
        yield {}
    else:
        yield {"REDIS_URL": request.getfixturevalue("redis_url")}


def _limited(make_settings: Any, storage: dict[str, Any], **extra: Any) -> Any:
    return make_settings(BOOKCHAT_RATE_LIMIT="2/minute", **storage, **extra)


def _fresh_ip() -> str:
    # A random documentation-range IPv6 address per client: counts left in the shared Redis by
    # earlier runs cannot leak into this one.
    return f"2001:db8::{secrets.randbelow(2**16):x}:{secrets.randbelow(2**16):x}"


@pytest.fixture
def limited(make_client: Any, make_settings: Any, storage: dict[str, Any]) -> Iterator[Any]:
    """A client held to 2 questions a minute, from an address no other test used."""
    with make_client(_limited(make_settings, storage), peer=_fresh_ip()) as client:
        yield client


def test_over_the_limit_is_429_with_retry_after(limited: Any) -> None:
    assert limited.post("/api/query", json=QUESTION).status_code == 200
    assert limited.post("/api/query", json=QUESTION).status_code == 200
    response = limited.post("/api/query", json=QUESTION)
    assert response.status_code == 429
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert response.json()["detail"].startswith("Rate limit exceeded: 2 per 1 minute.")


def test_query_and_stream_share_one_limit(limited: Any) -> None:
    paths = ["/api/query", "/api/query/stream", "/api/query/stream", "/api/query"]
    statuses = [limited.post(path, json=QUESTION).status_code for path in paths]
    assert statuses == [200, 200, 429, 429]


def test_spoofed_forwarded_for_from_an_untrusted_peer_does_not_bypass_the_limit(
    make_client: Any, make_settings: Any, storage: dict[str, Any]
) -> None:
    settings = _limited(make_settings, storage, TRUSTED_PROXIES=["10.0.0.1"])
    peer = _fresh_ip()
    with make_client(settings, peer=peer) as client:
        statuses = [
            client.post(
                "/api/query", json=QUESTION, headers={"X-Forwarded-For": f"192.0.2.{i}"}
            ).status_code
            for i in range(3)
        ]
    assert statuses == [200, 200, 429]


def test_clients_behind_a_trusted_proxy_are_limited_separately(
    make_client: Any, make_settings: Any, storage: dict[str, Any]
) -> None:
    settings = _limited(make_settings, storage, TRUSTED_PROXIES=["10.0.0.0/8"])
    first = _fresh_ip()
    second = _fresh_ip()
    with make_client(settings, peer="10.0.0.1") as client:

        def ask(ip: str) -> int:
            headers = {"X-Forwarded-For": f"6.6.6.6, {ip}, 10.0.0.9"}
            return int(client.post("/api/query", json=QUESTION, headers=headers).status_code)

        assert [ask(first), ask(first), ask(first)] == [200, 200, 429]
        assert ask(second) == 200


def test_off_disables_the_limit(make_client: Any, make_settings: Any) -> None:
    with make_client(make_settings(BOOKCHAT_RATE_LIMIT="off")) as client:
        assert {client.post("/api/query", json=QUESTION).status_code for _ in range(25)} == {200}


def test_unreachable_redis_falls_back_to_memory_instead_of_failing(
    make_client: Any, make_settings: Any
) -> None:
    settings = make_settings(BOOKCHAT_RATE_LIMIT="2/minute", REDIS_URL="redis://127.0.0.1:1/0")
    with make_client(settings) as client:
        statuses = [client.post("/api/query", json=QUESTION).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
