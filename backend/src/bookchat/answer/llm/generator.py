"""LLMGenerator: one question, its numbered passages and history in; the model's answer out.

It runs the answering agent on its model-server client, streamed or not, within the time
limit; every model-side failure becomes GenerationFailed. check.py checks the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

from agents import RunConfig, Runner, StreamEvent
from openai.types.responses import ResponseTextDeltaEvent

from bookchat.answer.llm.agent import (
    MAX_SEARCHES,
    Passage,
    Question,
    Run,
    RunState,
    SearchPolicy,
    prepare_run,
)
from bookchat.answer.llm.server import Capabilities, ModelClient, Name, connect, log_once, probe
from bookchat.config import Settings

log = logging.getLogger(__name__)


class GenerationFailed(Exception):
    """The model gave no usable answer; the caller falls back to the extractive answer."""

    def __init__(self, reason: str) -> None:
        # The reason is for logs and metrics (e.g. "timeout", "APIStatusError"), never the
        # provider's own message, which may echo prompts or configuration.
        super().__init__("The language model could not answer.")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Generated:
    """The model's answer as written, and every passage it was shown (numbered from 1)."""

    text: str
    passages: list[Passage]
    model: str
    searches: int


def _text_delta(event: StreamEvent) -> str:
    if event.type == "raw_response_event" and isinstance(event.data, ResponseTextDeltaEvent):
        return event.data.delta
    return ""


def _failure(exc: BaseException) -> GenerationFailed:
    reason = "timeout" if isinstance(exc, TimeoutError) else type(exc).__name__
    log.warning("model call failed (%s); falling back", reason, exc_info=exc)
    return GenerationFailed(reason)


class LLMGenerator:
    """Runs the answering agent against the configured model."""

    def __init__(
        self,
        client: ModelClient,
        *,
        timeout_s: float,
        max_words: int,
        max_searches: int = MAX_SEARCHES,
        search_policy: SearchPolicy = "auto",
        temperature: float | None = None,
        tracing: bool = False,
    ) -> None:
        self._client = client
        self._timeout_s = timeout_s
        self._max_words = max_words
        self._max_searches = max_searches
        self._search_policy: SearchPolicy = search_policy
        self._temperature = temperature
        self._run_config = RunConfig(tracing_disabled=not tracing, workflow_name="bookchat")
        self.capabilities: Capabilities | None = None  # set by `probe`

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMGenerator:
        """A generator with its own client (see `close`); ModelNotConfigured without a model."""
        return cls(
            connect(settings),
            timeout_s=settings.llm_timeout_s,
            max_words=settings.answer_max_words,
            search_policy=settings.llm_search,
            temperature=settings.llm_temperature,
            tracing=settings.llm_tracing,
        )

    async def probe(self, *, announce: bool = False) -> Capabilities:
        """Find what the server can do (logged when `announce`), and use only that from now on."""
        found = await probe(self._client.client, self._client.name, timeout_s=self._timeout_s)
        if announce:
            log_once(found)
        self.capabilities = found
        return found

    @property
    def search_policy(self) -> SearchPolicy:
        """The configured policy, or "off" on a server found not to take tool calls."""
        return "off" if self._found("tools") is False else self._search_policy

    @property
    def streams(self) -> bool:
        """False on a server found not to stream: answers are then fetched whole."""
        return self._found("streaming") is not False

    def _found(self, name: Name) -> bool | None:
        """Whether the last probe found `name` working; None when no probe was answered."""
        # A server that did not answer the probe (down at start-up, say) tells nothing about
        # what it supports once it is up: the configured behaviour stands until a probe answers.
        if self.capabilities is None or not self.capabilities.works("chat"):
            return None
        return self.capabilities.works(name)

    async def close(self) -> None:
        """Close the model client's connections."""
        await self._client.close()

    @property
    def model_name(self) -> str:
        """The model's name, as the response reports it."""
        return self._client.name

    def _prepare(self, question: Question) -> Run:
        return prepare_run(
            self._client.model,
            question,
            max_words=self._max_words,
            max_searches=self._max_searches,
            search_policy=self.search_policy,
            temperature=self._temperature,
        )

    def _finish(self, output: object, state: RunState) -> Generated:
        if not isinstance(output, str) or not output.strip():
            raise GenerationFailed("empty output")
        return Generated(
            text=output.strip(),
            passages=list(state.shown.passages),
            model=self._client.name,
            searches=state.shown.searches,
        )

    @property
    def _max_turns(self) -> int:
        # One turn per search, one to answer, and one to cope with a refused extra search.
        return self._max_searches + 2

    async def generate(self, question: Question) -> Generated:
        """The model's answer (non-streaming), in the reader's language; raises GenerationFailed."""
        return await self._run(self._prepare(question))

    async def _run(self, run: Run) -> Generated:
        try:
            async with asyncio.timeout(self._timeout_s):
                result = await Runner.run(
                    run.agent,
                    run.items,
                    context=run.state,
                    max_turns=self._max_turns,
                    run_config=self._run_config,
                )
        except Exception as exc:  # every failure on the model's side means: fall back
            raise _failure(exc) from exc
        return self._finish(result.final_output, run.state)

    async def stream(self, question: Question) -> AsyncIterator[str | Generated]:
        """Text deltas as the model writes them, then the Generated; raises GenerationFailed."""
        run = self._prepare(question)
        if not self.streams:
            done = await self._run(run)
            yield done.text
            yield done
            return
        queue: asyncio.Queue[str | Generated | GenerationFailed] = asyncio.Queue()
        # The run lives in its own task so the time limit never spans a `yield` to the caller.
        producer = asyncio.create_task(self._produce(run, queue))
        try:
            while True:
                item = await queue.get()
                if isinstance(item, GenerationFailed):
                    raise item
                yield item
                if isinstance(item, Generated):
                    return
        finally:
            if not producer.done():
                producer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await producer

    async def _produce(
        self, run: Run, queue: asyncio.Queue[str | Generated | GenerationFailed]
    ) -> None:
        result = Runner.run_streamed(
            run.agent,
            run.items,
            context=run.state,
            max_turns=self._max_turns,
            run_config=self._run_config,
        )
        try:
            async with asyncio.timeout(self._timeout_s):
                async for event in result.stream_events():
                    delta = _text_delta(event)
                    if delta:
                        queue.put_nowait(delta)
            queue.put_nowait(self._finish(result.final_output, run.state))
        except GenerationFailed as failed:
            queue.put_nowait(failed)
        except Exception as exc:  # every failure on the model's side means: fall back
            queue.put_nowait(_failure(exc))
        finally:
            # Stops the SDK's own background task when we time out or the reader goes away.
            result.cancel()
