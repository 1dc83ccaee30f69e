"""What one ``call_tool`` / ``get_prompt`` / ``read_resource`` asks beyond its name and arguments.

A call may bring its own timeout, a progress callback (a ``progressToken`` goes out in ``_meta`` and
each progress report restarts the call's clock), extra ``_meta``, answers and state to resume a paused
call with, whether to hand back an ``input_required`` result instead of running the loop, and whether a
task the server makes of it comes back as a ``ToolTask`` (``as_task``). A call
with none of these builds no ``CallOptions`` and pays for none of it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_client._errors import UnsupportedInEraError
from mcp_client._session.notifications import ProgressCallback, ProgressRoute


@dataclass(frozen=True, slots=True)
class CallOptions:
    """The options of one call (see the module docstring)."""

    timeout: float | None = None
    progress_callback: ProgressCallback | None = None
    meta: Mapping[str, Any] | None = None
    input_responses: Mapping[str, Any] | None = None
    request_state: str | None = None
    allow_input_required: bool = False
    as_task: bool = False


def check_seconds(name: str, seconds: float | None) -> None:
    if seconds is not None and (not seconds > 0 or math.isnan(seconds)):
        raise ValueError(f"{name} must be a positive number of seconds or None; got {seconds!r}")


def call_options(
    timeout: float | None,
    progress_callback: ProgressCallback | None,
    meta: Mapping[str, Any] | None,
    input_responses: Mapping[str, Any] | None,
    request_state: str | None,
    allow_input_required: bool,
    as_task: bool = False,
) -> CallOptions | None:
    """The call's options, or ``None`` when it has none (the common call pays for nothing)."""
    if (
        timeout is None
        and progress_callback is None
        and meta is None
        and input_responses is None
        and request_state is None
        and not allow_input_required
        and not as_task
    ):
        return None
    check_seconds("read_timeout_seconds", timeout)
    return CallOptions(
        timeout, progress_callback, meta, input_responses, request_state, allow_input_required, as_task
    )


def dress(
    params: dict[str, Any],
    options: CallOptions,
    route: ProgressRoute | None,
    what: str,
    resumable: bool,
    version: str | None,
) -> dict[str, Any]:
    """The call's params with its ``_meta``, progress token and resumption fields.

    ``resumable`` is the era's word on whether a paused call can be resumed at all (``version`` names
    the protocol in the error when it cannot).
    """
    params = dict(params)
    meta = dict(options.meta) if options.meta else {}
    if route is not None:
        meta["progressToken"] = route.token  # ours wins: the callback must hear this call's progress
    if meta:
        params["_meta"] = meta
    if options.input_responses is not None or options.request_state is not None:
        if not resumable:
            raise UnsupportedInEraError(
                f"{what}: there is nothing to resume in the legacy era ({version}): the server "
                "holds the call open while it asks, and the elicitation callback answers; "
                "input_responses and request_state work only with a 2026-07-28 server"
            )
        if options.input_responses is not None:
            params["inputResponses"] = {
                key: _wire_answer(answer) for key, answer in options.input_responses.items()
            }
        if options.request_state is not None:
            params["requestState"] = options.request_state
    return params


def _wire_answer(answer: object) -> object:
    """An answer to a server's question as it goes on the wire (a model is dumped, a mapping copied)."""
    dump = getattr(answer, "model_dump_wire", None)
    if callable(dump):
        return dump()
    if isinstance(answer, Mapping):
        return dict(answer)
    return answer
