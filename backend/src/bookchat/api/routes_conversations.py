"""GET/DELETE /api/conversations/{id} and POST /api/feedback."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Path
from starlette.responses import Response

from bookchat.api.dependencies import conversation_store, services
from bookchat.api.models import ConversationOut, FeedbackRequest, StoredMessage
from bookchat.api.responses import CONVERSATION, FEEDBACK
from bookchat.api.services import Services
from bookchat.history import Conversation, ConversationStore, UnknownConversation
from bookchat.history.errors import UnknownMessage

router = APIRouter(tags=["conversations"])
Store = Annotated[ConversationStore, Depends(conversation_store)]
ConversationId = Annotated[str, Path(min_length=1, max_length=200)]


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _out(conversation: Conversation) -> ConversationOut:
    # The stored records carry every field of the response models (and a few more, ignored).
    messages = [
        StoredMessage.model_validate({**asdict(m), "created_at": _stamp(m.created_at)})
        for m in conversation.messages
    ]
    return ConversationOut(
        id=conversation.id, created_at=_stamp(conversation.created_at), messages=messages
    )


@router.get(
    "/api/conversations/{conversation_id}",
    response_model=ConversationOut,
    responses=CONVERSATION,
)
async def get_conversation(conversation_id: ConversationId, store: Store) -> ConversationOut:
    """A conversation's messages with their citations and ratings, oldest first."""
    conversation = await store.get_conversation(conversation_id)
    if conversation is None:
        raise UnknownConversation(conversation_id)
    return _out(conversation)


@router.delete(
    "/api/conversations/{conversation_id}",
    status_code=204,
    responses=CONVERSATION,
)
async def delete_conversation(conversation_id: ConversationId, store: Store) -> Response:
    """Delete a conversation and everything in it."""
    if not await store.delete_conversation(conversation_id):
        raise UnknownConversation(conversation_id)
    return Response(status_code=204)


@router.post("/api/feedback", status_code=204, responses=FEEDBACK)
async def feedback(
    body: FeedbackRequest, store: Store, found: Annotated[Services, Depends(services)]
) -> Response:
    """Rate an answer up or down (one rating per message: the last one wins)."""
    if not await store.rate(body.message_id, body.rating, body.comment):
        raise UnknownMessage(body.message_id)
    found.metrics.feedback.labels(rating=body.rating).inc()
    return Response(status_code=204)
