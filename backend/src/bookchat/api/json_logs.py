"""JSON log lines with the request id, for `bookchat serve`."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from bookchat.api.request_context import request_id

# Attributes every LogRecord has; anything else was passed as `extra` and is logged.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's ANSI-coloured duplicate of msg
}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        """Render a record as JSON."""
        data = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            "request_id": request_id.get(),
        }
        data.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


def configure_json_logging(level: str) -> None:
    """Send every log record to stderr as JSON (replacing other handlers)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = name != "uvicorn.access"
