"""How long questions are kept: older ones are deleted at start-up and then every hour.

The conversation store holds readers' own words; keeping them only as long as the insights need
them (BOOKCHAT_HISTORY_DAYS, default 90) bounds what a leaked database would show.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from bookchat.history.errors import HistoryUnavailable
from bookchat.history.store import ConversationStore

# Often enough that nothing outlives its day by much; rare enough to cost nothing.
SWEEP_SECONDS = 3_600.0
log = logging.getLogger(__name__)


def cutoff(days: int, now: datetime | None = None) -> datetime:
    """The moment before which stored questions are deleted."""
    return (now or datetime.now(UTC)) - timedelta(days=days)


async def forget_old(store: ConversationStore, days: int, now: datetime | None = None) -> int:
    """Delete what is older than `days` (one sweep); the number of messages deleted, 0 when the
    store is unavailable (the next sweep tries again)."""
    try:
        deleted = await store.forget_before(cutoff(days, now))
    except HistoryUnavailable:
        log.warning("conversation store unavailable: old conversations not deleted this time")
        return 0
    if deleted:
        log.info("deleted %d questions older than %d days", deleted, days)
    return deleted


async def keep_history(store: ConversationStore, days: int, every: float = SWEEP_SECONDS) -> None:
    """Sweep now, then every `every` seconds, until cancelled; `days` 0 keeps everything."""
    if days <= 0:
        return
    while True:
        await forget_old(store, days)
        await asyncio.sleep(every)
