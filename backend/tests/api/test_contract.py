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


def _operation(openapi: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    found: dict[str, Any] = openapi["paths"][path][method]
    return found


# Every status each route can answer, as the error table and the handlers produce them.
DECLARED = {
    ("/api/query", "post"): {"200", "400", "404", "422", "429", "500", "503"},
    ("/api/query/stream", "post"): {"200", "400", "404", "422", "429", "500", "503"},
    ("/api/chapters", "get"): {"200", "404", "422", "500", "503"},
    ("/health", "get"): {"200", "500", "503"},
    ("/metrics", "get"): {"200", "500"},
    ("/api/admin/ingest", "post"): {"200", "400", "401", "403", "422", "500", "503"},
    ("/api/admin/insights", "get"): {"200", "400", "401", "403", "422", "429", "500", "503"},
    ("/api/conversations/{conversation_id}", "get"): {"200", "404", "422", "500", "503"},
    ("/api/conversations/{conversation_id}", "delete"): {"204", "404", "422", "500", "503"},
    ("/api/feedback", "post"): {"204", "400", "404", "422", "500", "503"},
}


def test_every_route_declares_every_status_it_can_answer(client: Any) -> None:
    openapi = client.get("/openapi.json").json()
    declared = {
        (path, method): set(operation["responses"])
        for path, operations in openapi["paths"].items()
        for method, operation in operations.items()
    }
    assert declared == DECLARED


def test_errors_are_declared_with_the_detail_model(client: Any) -> None:
    openapi = client.get("/openapi.json").json()
    assert _schema(openapi, "ErrorDetail")["required"] == ["detail"]
    for (path, method), statuses in DECLARED.items():
        responses = _operation(openapi, path, method)["responses"]
        for status in statuses - {"200", "204", "422"}:
            if (path, status) == ("/health", "503"):
                continue  # a degraded health report, not an error
            content = responses[status]["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/ErrorDetail"}, (path, status)


def test_the_request_schema_states_what_each_mode_needs(client: Any) -> None:
    rules = _schema(client.get("/openapi.json").json(), "QueryRequest")["oneOf"]
    needs = {rule["properties"]["mode"]["const"]: set(rule.get("required", [])) for rule in rules}
    assert needs == {
        "book": set(),
        "chapter": {"mode", "chapter"},
        "selection": {"mode", "selection"},
    }


def test_the_admin_route_declares_its_bearer_token(client: Any) -> None:
    openapi = client.get("/openapi.json").json()
    assert _operation(openapi, "/api/admin/ingest", "post")["security"] == [{"HTTPBearer": []}]
    assert _operation(openapi, "/api/admin/insights", "get")["security"] == [{"HTTPBearer": []}]
    assert openapi["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"


def test_an_answer_links_to_its_conversation_and_its_rating(client: Any) -> None:
    openapi = client.get("/openapi.json").json()
    links = _operation(openapi, "/api/query", "post")["responses"]["200"]["links"]
    operation_ids = {
        operation["operationId"]
        for operations in openapi["paths"].values()
        for operation in operations.values()
    }
    assert {link["operationId"] for link in links.values()} <= operation_ids
    assert links["RateAnswer"]["requestBody"] == {"message_id": "$response.body#/message_id"}


def test_the_insights_example_in_api_md_has_every_field_of_the_schema(client: Any) -> None:
    section = _section("GET /api/admin/insights")
    example = json.loads(re.search(r"```json\n(.*?)```", section, re.S)[1])  # type: ignore[index]
    openapi = client.get("/openapi.json").json()
    fields = {name: set(_schema(openapi, name)["properties"]) for name in (
        "InsightsReport", "Outcomes", "InsightsDay", "InsightsChapter", "CitedSection",
        "InsightsGap", "SectionLink", "RatedDownAnswer", "Latency", "CacheShare",
    )}  # fmt: skip
    assert set(example) == fields["InsightsReport"]
    assert set(example["totals"]) == fields["Outcomes"]
    assert set(example["days"][0]) == fields["InsightsDay"]
    assert set(example["chapters"][0]) == fields["InsightsChapter"]
    assert set(example["cited_sections"][0]) == fields["CitedSection"]
    assert set(example["gaps"][0]) == fields["InsightsGap"]
    assert set(example["gaps"][0]["closest"]) == fields["SectionLink"]
    assert set(example["rated_down"][0]) == fields["RatedDownAnswer"]
    assert set(example["latency"]) == fields["Latency"]
    assert set(example["answer_cache"]) == fields["CacheShare"]
    parameters = _operation(openapi, "/api/admin/insights", "get")["parameters"]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE))
    assert {p["name"] for p in parameters} == documented
