"""Request validation: the schema of api.md, and no input ever yields a 5xx."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"question": ""},
        {"question": "   \n\t "},
        {"question": "x" * 2001},
        {"question": "ok", "surprise": 1},
        {"question": "ok", "top_k": 0},
        {"question": "ok", "top_k": 11},
        {"question": "ok", "top_k": True},
        {"question": "ok", "top_k": "5"},
        {"question": "ok", "mode": "everything"},
        {"question": "ok", "mode": "selection", "selection": "y" * 10001},
        {"question": "ok", "mode": "selection", "selection": "   "},
        {"question": "ok", "page": "/" * 2001},
        {"question": 42},
    ],
)
def test_invalid_requests_are_422_with_fastapi_detail(client: Any, body: dict[str, Any]) -> None:
    response = client.post("/api/query", json=body)
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], list)


def test_question_of_2000_characters_after_trimming_is_accepted(client: Any) -> None:
    question = "  " + "why " * 499 + "now?  "
    assert len(question.strip()) <= 2000
    assert client.post("/api/query", json={"question": question}).status_code == 200


def test_body_that_is_not_json_is_a_client_error(client: Any) -> None:
    response = client.post(
        "/api/query", content=b"\xff\xfe not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code in {400, 422}
    assert response.json()["detail"]


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=50),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=10,
)
_fields = st.fixed_dictionaries(
    {},
    optional={
        "question": st.text(max_size=80) | _json,
        "mode": st.sampled_from(["book", "chapter", "selection", "", "BOOK"]) | _json,
        "chapter": st.sampled_from(["branching", "intro", "nope", ""]) | st.text(max_size=20),
        "selection": st.text(max_size=200) | _json,
        "page": st.sampled_from(["/docs/branching/merging#x", "http://h/docs/", ""])
        | st.text(max_size=40),
        "conversation_id": st.text(max_size=30) | _json,
        "top_k": st.integers(min_value=-3, max_value=14) | _json,
    },
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=_fields | _json)
def test_random_bodies_never_yield_a_server_error(client: Any, body: Any) -> None:
    for path in ("/api/query", "/api/query/stream"):
        response = client.post(path, json=body)
        assert response.status_code < 500, response.text


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=st.sampled_from(["/api/chapters", "/health", "/"]), query=st.text(max_size=30))
def test_random_query_strings_never_yield_a_server_error(
    client: Any, path: str, query: str
) -> None:
    response = client.get(path, params={"q": query}, follow_redirects=False)
    assert response.status_code < 500
