"""405 and OPTIONS with an `Allow` header that lists every method of the path.

Starlette answers a method a route lacks with the methods of the first route whose path matched,
so `/api/conversations/{id}` (a GET route and a DELETE route) would advertise only GET. Here the
methods of every route on the path are gathered, and a plain OPTIONS (CORS preflights never get
this far: the CORS middleware answers them) is answered 204 with that list.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match
from starlette.types import Scope

# The methods a route can be asked about; OPTIONS is always answered (below, or by CORS).
_METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route of the app accepts at the request's path, OPTIONS included."""
    allowed = {"OPTIONS"}
    for method in _METHODS:
        # A fresh scope per probe: matching records the route it found in the scope it is given.
        probe = {key: scope[key] for key in ("type", "path", "root_path") if key in scope}
        probe["method"] = method
        if any(route.matches(probe)[0] is Match.FULL for route in app.router.routes):
            allowed.add(method)
    return sorted(allowed)


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    """405 with the path's full `Allow` (204 for OPTIONS); other HTTP errors as FastAPI answers."""
    assert isinstance(exc, HTTPException)
    if exc.status_code != 405:
        return await http_exception_handler(request, exc)
    allow = {"Allow": ", ".join(allowed_methods(request.app, request.scope))}
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=allow)
    return JSONResponse({"detail": exc.detail}, status_code=405, headers=allow)


def install_method_handling(app: FastAPI) -> None:
    """Answer 405 and OPTIONS from all of a path's routes."""
    app.add_exception_handler(HTTPException, method_not_allowed)
