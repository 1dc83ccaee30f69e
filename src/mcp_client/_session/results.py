"""Reading results: typed models from result dicts, and lists gathered over every page.

Results travel as plain dicts; a pydantic model is built once, for what the caller gets back. A model
that does not fit is the server's fault (``ProtocolError`` naming the server and the field). A list
endpoint is followed cursor by cursor, refusing a cursor it already sent and a list without end.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from mcp_client._errors import ProtocolError

_M = TypeVar("_M", bound=BaseModel)
MAX_PAGES = 1000

Request = Callable[[str, dict[str, Any] | None], Awaitable[dict[str, Any]]]


def parse(model: type[_M], result: dict[str, Any], what: str, server: str) -> _M:
    try:
        return model.model_validate(result)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise ProtocolError(f"{server} sent a malformed {what} result: {where}: {first['msg']}") from exc


async def list_all(
    request: Request, method: str, key: str, server: str, pages: list[dict[str, Any]] | None = None
) -> list[Any]:
    """Every item of ``method``'s ``key`` list, following ``nextCursor`` (at most ``MAX_PAGES`` pages).

    ``pages``, when given, receives each page's cache hints (``ttlMs``, ``cacheScope``), for the list cache.
    """
    items: list[Any] = []
    cursor: Any = None
    seen: set[Any] = set()
    for _ in range(MAX_PAGES):
        result = await request(method, {"cursor": cursor} if cursor is not None else None)
        page = result.get(key)
        if not isinstance(page, list):
            raise ProtocolError(f"{server} answered {method} without a {key!r} list")
        items.extend(page)
        if pages is not None:
            pages.append({hint: result[hint] for hint in ("ttlMs", "cacheScope") if hint in result})
        cursor = result.get("nextCursor")
        if cursor is None:
            return items
        if not isinstance(cursor, str) or cursor in seen:
            raise ProtocolError(f"{server} sent a repeated or invalid {method} cursor {cursor!r}")
        seen.add(cursor)
    raise ProtocolError(f"{server} sent more than {MAX_PAGES} pages for {method}")
