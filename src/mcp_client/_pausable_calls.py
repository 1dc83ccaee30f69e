"""The three calls that may need input, pause, report progress or run long: ``call_tool``,
``get_prompt`` and ``read_resource``, as part of ``Client``.

Each takes the same keywords: ``meta``, and ``input_responses`` / ``request_state`` /
``allow_input_required`` to drive the 2026-07-28 multi-round-trip loop yourself (pause a call, store the
``InputRequiredResult`` as JSON, resume it later from any client). ``call_tool`` also takes
``read_timeout_seconds`` and ``progress_callback`` (each progress report restarts the call's timeout)
and checks a structured result against the tool's output schema. A call with none of these options
builds no ``CallOptions`` and pays for none of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, overload

from pydantic import BaseModel

from mcp_client import _input_required, _results
from mcp_client._notifications import ProgressCallback
from mcp_client._session import CallOptions, Session
from mcp_client.types import CallToolResult, GetPromptResult, InputRequiredResult, ReadResourceResult

__all__ = ["PausableCalls", "check_seconds"]

_R = TypeVar("_R", bound=BaseModel)


class PausableCalls:
    """``Client``'s calls that may ask questions (the rest of ``Client`` is in ``_client``)."""

    _session: Session

    @overload
    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: Literal[False] = False,
    ) -> CallToolResult: ...

    @overload
    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool,
    ) -> CallToolResult | InputRequiredResult: ...

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool = False,
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool and return its result; the server's questions go to the elicitation callback.

        ``read_timeout_seconds`` replaces ``Client(timeout=...)`` for this call. ``progress_callback
        (progress, total, message)`` hears the call's progress, and each report restarts its timeout.
        ``meta`` joins the request's ``_meta``. ``allow_input_required=True`` returns a 2026-07-28
        server's ``InputRequiredResult`` instead of asking the callback; resume later (from any client)
        with ``input_responses`` and ``request_state``. A structured result is checked against the
        tool's ``outputSchema`` (``InvalidToolResultError``). A tool's own failure is a result with
        ``is_error=True``; protocol failures raise ``MCPError``.
        """
        self._session.require_open()
        params = {"name": name, "arguments": dict(arguments) if arguments else {}}
        what = f"tools/call {name!r}"
        options = _options(
            read_timeout_seconds,
            progress_callback,
            meta,
            input_responses,
            request_state,
            allow_input_required,
        )
        result = await self._session.call("tools/call", params, what, options)
        if allow_input_required and _input_required.is_input_required(result):
            return _results.parse(InputRequiredResult, result, what, self._session.label)
        await self._session.check_tool_result(name, result)
        return _results.parse(CallToolResult, result, what, self._session.label)

    @overload
    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: Literal[False] = False,
    ) -> GetPromptResult: ...

    @overload
    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool,
    ) -> GetPromptResult | InputRequiredResult: ...

    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool = False,
    ) -> GetPromptResult | InputRequiredResult:
        """Render a prompt; the server's questions go to the elicitation callback (keywords: call_tool's)."""
        self._session.require_open()
        params: dict[str, Any] = {"name": name}
        if arguments:
            params["arguments"] = dict(arguments)
        options = _options(None, None, meta, input_responses, request_state, allow_input_required)
        return await self._call(GetPromptResult, "prompts/get", params, f"prompts/get {name!r}", options)

    @overload
    async def read_resource(
        self,
        uri: str,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: Literal[False] = False,
    ) -> ReadResourceResult: ...

    @overload
    async def read_resource(
        self,
        uri: str,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool,
    ) -> ReadResourceResult | InputRequiredResult: ...

    async def read_resource(
        self,
        uri: str,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool = False,
    ) -> ReadResourceResult | InputRequiredResult:
        """Read a resource; the server's questions go to the elicitation callback (keywords: call_tool's)."""
        self._session.require_open()
        options = _options(None, None, meta, input_responses, request_state, allow_input_required)
        return await self._call(
            ReadResourceResult, "resources/read", {"uri": uri}, f"resources/read {uri!r}", options
        )

    async def _call(
        self, model: type[_R], method: str, params: dict[str, Any], what: str, options: CallOptions | None
    ) -> Any:
        result = await self._session.call(method, params, what, options)
        if options is not None and options.allow_input_required and _input_required.is_input_required(result):
            return _results.parse(InputRequiredResult, result, what, self._session.label)
        return _results.parse(model, result, what, self._session.label)


def check_seconds(name: str, seconds: float | None) -> None:
    if seconds is not None and (not seconds > 0 or math.isnan(seconds)):
        raise ValueError(f"{name} must be a positive number of seconds or None; got {seconds!r}")


def _options(
    timeout: float | None,
    progress_callback: ProgressCallback | None,
    meta: Mapping[str, Any] | None,
    input_responses: Mapping[str, Any] | None,
    request_state: str | None,
    allow_input_required: bool,
) -> CallOptions | None:
    """The call's options, or ``None`` when it has none (the common call pays for nothing)."""
    if (
        timeout is None
        and progress_callback is None
        and meta is None
        and input_responses is None
        and request_state is None
        and not allow_input_required
    ):
        return None
    check_seconds("read_timeout_seconds", timeout)
    return CallOptions(timeout, progress_callback, meta, input_responses, request_state, allow_input_required)
