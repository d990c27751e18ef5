"""Small FastAPI dependencies handing the lifespan's objects to handlers."""

from __future__ import annotations

from starlette.requests import Request

from bookchat.api.services import Services
from bookchat.history.conversation import ConversationalAnswers
from bookchat.history.store import ConversationStore
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import StoreUnavailable


def services(request: Request) -> Services:
    """The app's Services (set by the lifespan)."""
    found: Services = request.app.state.services
    return found


def conversational_answers(request: Request) -> ConversationalAnswers:
    """The answer service with conversation memory; StoreUnavailable when the index is closed."""
    answers = services(request).conversations
    if answers is None:
        raise StoreUnavailable("store not open")
    return answers


def conversation_store(request: Request) -> ConversationStore:
    """The conversation store (it reconnects by itself after an outage)."""
    return services(request).history


def catalog_cache(request: Request) -> CatalogCache:
    """The catalog cache; StoreUnavailable when the store could not be opened."""
    catalog = services(request).catalog
    if catalog is None:
        raise StoreUnavailable("store not open")
    return catalog
