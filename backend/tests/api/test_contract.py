"""The OpenAPI document and specs/001-bookchat/api.md describe the same query contract."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

API_MD = Path(__file__).resolve().parents[3] / "specs" / "001-bookchat" / "api.md"


def _section(title: str) -> str:
    text = API_MD.read_text(encoding="utf-8")
    start = text.index(f"## `{title}`")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _schema(openapi: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = openapi["components"]["schemas"][name]
    return found


def test_request_fields_match_the_table_in_api_md(client: Any) -> None:
    table = _section("POST /api/query")
    documented = set(re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE))
    schema = _schema(client.get("/openapi.json").json(), "QueryRequest")
    assert set(schema["properties"]) == documented
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["question"]


def test_response_fields_match_the_example_in_api_md(client: Any) -> None:
    example = json.loads(re.search(r"```json\n(.*?)```", _section("POST /api/query"), re.S)[1])  # type: ignore[index]
    openapi = client.get("/openapi.json").json()
    assert set(_schema(openapi, "QueryResponse")["properties"]) == set(example)
    assert set(_schema(openapi, "Citation")["properties"]) == set(example["citations"][0])


def test_documented_endpoints_exist(client: Any) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in [
        ("/api/query", "post"),
        ("/api/query/stream", "post"),
        ("/api/chapters", "get"),
        ("/health", "get"),
        ("/api/admin/ingest", "post"),
    ]:
        assert method in paths[path], path
