"""OPTIONS and 405 answer with every method of the path in `Allow`."""

from __future__ import annotations

from typing import Any


def _allow(response: Any) -> set[str]:
    return {method.strip() for method in response.headers["allow"].split(",")}


def test_options_lists_both_methods_of_a_conversation(client: Any) -> None:
    response = client.options("/api/conversations/some-id")
    assert response.status_code == 204
    assert _allow(response) == {"DELETE", "GET", "OPTIONS"}


def test_options_on_a_post_route_lists_post(client: Any) -> None:
    response = client.options("/api/query")
    assert response.status_code == 204
    assert _allow(response) == {"OPTIONS", "POST"}


def test_an_unsupported_method_is_405_with_every_allowed_method(client: Any) -> None:
    response = client.put("/api/conversations/some-id")
    assert response.status_code == 405
    assert _allow(response) == {"DELETE", "GET", "OPTIONS"}
    assert response.json() == {"detail": "Method Not Allowed"}


def test_a_cors_preflight_is_still_answered_by_the_cors_rules(client: Any) -> None:
    response = client.options(
        "/api/query",
        headers={"Origin": "http://127.0.0.1:3000", "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://127.0.0.1:3000"


def test_unknown_paths_stay_404(client: Any) -> None:
    assert client.options("/api/nothing-here").status_code == 404
