"""schemathesis against the real app: coverage, fuzzing and stateful phases, every check.

The app comes from the app factory and runs its real lifespan (schemathesis starts it through its
ASGI transport) over a two-page book ingested into a temporary data folder, with an admin token
the generated requests do not know. Two runs: one with a fixed seed, one with a random seed that
is printed; `BOOKCHAT_SCHEMATHESIS_SEED=<seed>` makes the random run replay it.
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import schemathesis
from fastapi import FastAPI
from schemathesis.engine import StopReason, events, from_schema
from schemathesis.engine.statistic import Statistic
from schemathesis.python import asgi

from bookchat.api.app import create_app
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.run import run_ingest
from bookchat.vectorstore import open_store
from tests.conftest import settings_for

FIXED_SEED = 15
REPLAY = "BOOKCHAT_SCHEMATHESIS_SEED"
# Per operation and phase; with the coverage phase and the stateful walks this gives each run
# 1,300-2,500 cases in under a minute here.
MAX_EXAMPLES = 150
MIN_CASES_PER_RUN = 1_000
PHASES = ("coverage", "fuzzing", "stateful")
PAGES = {
    "01-quokkas.md": "---\ntitle: Quokkas\n---\n\n# Quokkas\n\nQuokkas are small marsupials "
    "that live on Rottnest Island. They eat leaves, grasses and stems.\n\n## Habits\n\nQuokkas "
    "are mostly nocturnal and rest in the shade during the day.\n",
    "02-wombats.md": "---\ntitle: Wombats\n---\n\n# Wombats\n\nWombats produce cube-shaped "
    "droppings, which they leave on rocks to mark their territory. They dig long burrows.\n",
}


@dataclass
class Run:
    """What one schemathesis run found."""

    seed: int
    cases: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    server_errors: int = 0
    seconds: float = 0.0

    @property
    def total(self) -> int:
        """Cases generated and sent, all phases together."""
        return sum(self.cases.values())

    def summary(self) -> str:
        """One line for the test log, with how to replay the run."""
        return (
            f"schemathesis seed {self.seed}: {self.total} cases {self.cases}, "
            f"{len(self.problems)} failures, {self.server_errors} x 5xx, {self.seconds:.0f} s "
            f"(replay: {REPLAY}={self.seed})"
        )


@pytest.fixture(scope="module")
def served_book(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[FastAPI]:
    """The app over a freshly ingested two-page book; its lifespan is shut down afterwards."""
    root = tmp_path_factory.mktemp("schemathesis")
    docs = root / "docs"
    docs.mkdir()
    for name, text in PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    settings = settings_for(root / "data", BOOKCHAT_DOCS_DIR=docs)
    store = open_store(settings)
    try:
        run_ingest(settings, store, lambda: embedder, docs)
    finally:
        store.close()  # the app's lifespan opens the index itself
    yield create_app(settings, embedder=embedder, admin_token=secrets.token_urlsafe(24))
    asgi.shutdown_lifespans()


def _config(seed: int) -> schemathesis.Config:
    return schemathesis.Config.from_dict(
        {
            "seed": seed,
            "phases": {phase: {"enabled": True} for phase in PHASES},
            # No example database: the seed alone decides what is generated.
            "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "database": "none"},
            "checks": {"enabled": True},
        }
    )


def _failures(statistic: Statistic) -> list[str]:
    return [
        f"{label}: {'; '.join(f'{f.title}: {f.message}' for f in group.failures)}\n"
        f"    {group.code_sample}"
        for label, groups in statistic.failures.items()
        for group in groups.values()
    ]


def run_schemathesis(app: FastAPI, seed: int) -> Run:
    """Every phase and check of schemathesis against `app`, as its CLI would run them."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=_config(seed))
    statistic = Statistic()
    run = Run(seed)
    started = time.perf_counter()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            statistic.on_scenario_finished(event.recorder)
            phase = event.phase.value
            run.cases[phase] = run.cases.get(phase, 0) + len(event.recorder.cases)
            run.server_errors += sum(
                1
                for interaction in event.recorder.interactions.values()
                if interaction.response is not None and interaction.response.status_code >= 500
            )
        elif isinstance(event, events.NonFatalError):
            # An exception escaping the app (the transport re-raises it) or a schema problem.
            run.problems.append(f"{event.label}: {event.info.title}\n    {event.info.message}")
        elif isinstance(event, events.FatalError):
            run.problems.append(f"fatal: {type(event.exception).__name__}")
        elif isinstance(event, events.EngineFinished) and event.stop_reason != StopReason.COMPLETED:
            run.problems.append(f"stopped early: {event.stop_reason.value}")
    run.problems += _failures(statistic)
    run.seconds = time.perf_counter() - started
    return run


def _seed(kind: str) -> int:
    if kind == "fixed":
        return FIXED_SEED
    replay = os.environ.get(REPLAY)
    return int(replay) if replay else random.SystemRandom().randrange(2**32)


@pytest.mark.parametrize("kind", ["fixed", "random"])
def test_the_api_keeps_its_openapi_contract_under_generated_requests(
    served_book: FastAPI, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = _seed(kind)
    with capsys.disabled():
        print(f"\nschemathesis ({kind} seed): {REPLAY}={seed}", flush=True)
    run = run_schemathesis(served_book, seed)
    with capsys.disabled():
        print(run.summary(), flush=True)
    assert run.problems == [], f"{run.summary()}\n" + "\n".join(run.problems)
    assert run.server_errors == 0, run.summary()
    assert all(run.cases.get(phase, 0) > 0 for phase in PHASES), run.summary()
    assert run.total >= MIN_CASES_PER_RUN, run.summary()


def test_the_fuzzed_app_answers_from_its_book(served_book: FastAPI) -> None:
    # Guards the runs above against fuzzing an empty index, where every question abstains. The
    # request goes through schemathesis's client: the lifespan it started owns the index.
    with asgi.get_client(served_book) as client:
        chapters = client.get("/api/chapters").json()
        answer = client.post("/api/query", json={"question": "What shape are wombat droppings?"})
    assert [chapter["key"] for chapter in chapters] == ["quokkas", "wombats"]
    assert answer.json()["status"] == "grounded"
