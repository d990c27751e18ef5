"""Small FastAPI dependencies handing the lifespan's objects to handlers.

They are `async def` although they never wait: FastAPI runs a plain `def` dependency in its
thread pool, a thread hop per dependency per request that costs more than the lookup itself.
"""

from __future__ import annotations

from starlette.requests import Request

from bookchat.api.services import Services
from bookchat.history.conversation import ConversationalAnswers
from bookchat.history.store import ConversationStore
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import StoreUnavailable


async def services(request: Request) -> Services:
    """The app's Services (set by the lifespan)."""
    found: Services = request.app.state.services
    return found


async def conversational_answers(request: Request) -> ConversationalAnswers:
    """The answer service with conversation memory; StoreUnavailable when the index is closed."""
    answers = (await services(request)).conversations
    if answers is None:
        raise StoreUnavailable("store not open")
    return answers


async def conversation_store(request: Request) -> ConversationStore:
    """The conversation store (it reconnects by itself after an outage)."""
    return (await services(request)).history


async def catalog_cache(request: Request) -> CatalogCache:
    """The catalog cache; StoreUnavailable when the store could not be opened."""
    catalog = (await services(request)).catalog
    if catalog is None:
        raise StoreUnavailable("store not open")
    return catalog
