"""/insights: the authors' page, a static bundle the API serves beside itself.

`make setup` builds it (the `insights/` npm workspace) into `insights_page/` next to this module,
a folder git ignores; until it is built, /insights answers 503 saying so. Its headers keep it
to itself: scripts from this server only, no framing, no referrer, nothing cached.
"""

from __future__ import annotations

from pathlib import Path

from starlette.responses import JSONResponse
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

PAGE_DIR = Path(__file__).resolve().parent / "insights_page"
NOT_BUILT = "the insights page is not built: run make setup"
HEADERS = {
    # Readers' questions are shown on this page: a script in one is never run (React renders
    # text), and nothing but the bundle's own scripts could run anyway.
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
}


class InsightsPage:
    """An ASGI app serving the built page from `folder`, or a 503 while it is not built."""

    def __init__(self, folder: Path = PAGE_DIR) -> None:
        self.folder = folder
        self._files = StaticFiles(directory=folder, html=True, check_dir=False)

    @property
    def built(self) -> bool:
        """Whether the bundle is there (checked on each request: a build needs no restart)."""
        return (self.folder / "index.html").is_file()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the page's files with HEADERS, or answer 503 when it is not built."""
        if not self.built:
            await JSONResponse({"detail": NOT_BUILT}, status_code=503)(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self._files(scope, receive, with_headers)
