"""The multi-round-trip loop of the 2026-07-28 era (SEP-2322), independent of transport and method.

A server that needs input returns ``resultType: "input_required"`` with ``inputRequests`` (questions,
keyed by the server) and/or an opaque ``requestState``. The client answers every question (all at
once), then retries the same method, name and arguments with ``inputResponses`` keyed the same way and
the byte-exact ``requestState``; a round with only state is retried after a back-off (50 ms doubling to
250 ms). Each retry is a new request with a fresh JSON-RPC id (the caller's ``send`` takes care of it).
A legacy server never returns ``input_required``, so the loop costs it one dict lookup.

The loop knows no kind of question: each entry's method and params go to ``answer`` (the router, in
the client), and ``check`` may refuse a round before any of its questions is shown to anyone.

Limits against a server that never stops asking: ``max_rounds`` (``input_required_max_rounds``), at
most ``MAX_QUESTIONS_PER_ROUND`` questions in one round and ``MAX_REQUEST_STATE_CHARS`` of state.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from mcp_client._errors import InputRequiredLimitError, InputRequiredRoundsExceededError, ProtocolError

MAX_QUESTIONS_PER_ROUND = 64
MAX_REQUEST_STATE_CHARS = 4 * 1024 * 1024
_BACKOFF_START = 0.05
_BACKOFF_MAX = 0.25

Send = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""Sends the method with these params as a new request; returns the result dict."""

Answer = Callable[[str, str, dict[str, Any], int, int], Awaitable[dict[str, Any]]]
"""Answers one question: (key, method, params, index, count) -> the wire result for that method."""

Check = Callable[[str, str], None]
"""Called with (key, method) for every question of a round before any is answered; raises to refuse."""


def is_input_required(result: dict[str, Any]) -> bool:
    return result.get("resultType") == "input_required"


async def run(
    send: Send,
    params: dict[str, Any],
    answer: Answer,
    *,
    max_rounds: int,
    what: str,
    first: dict[str, Any] | None = None,
    check: Check | None = None,
) -> dict[str, Any]:
    """Send ``params`` and keep answering until the server's result is complete; return that result.

    ``first`` is the result of a first send the caller already made, so that the common case, a
    complete result, never enters the loop.
    """
    result = await send(params) if first is None else first
    rounds = 0
    backoff = _BACKOFF_START
    while is_input_required(result):
        rounds += 1
        if rounds > max_rounds:
            raise InputRequiredRoundsExceededError(
                f"{what}: the server asked for more input {rounds} times in a row (the cap is {max_rounds} "
                "rounds); raise Client(input_required_max_rounds=...) if this server needs more",
                rounds=max_rounds,
            )
        questions = result.get("inputRequests")
        state = result.get("requestState")
        if state is not None and not isinstance(state, str):
            raise ProtocolError(f"{what}: the server sent a requestState that is not a string")
        if state is not None and len(state) > MAX_REQUEST_STATE_CHARS:
            raise InputRequiredLimitError(
                f"{what}: the server's requestState is {len(state)} characters, over the client's limit of "
                f"{MAX_REQUEST_STATE_CHARS}; the server is misbehaving"
            )
        retry = dict(params)
        retry.pop("inputResponses", None)
        retry.pop("requestState", None)
        if questions:
            if not isinstance(questions, dict):
                raise ProtocolError(f"{what}: the server sent inputRequests that is not an object")
            retry["inputResponses"] = await answer_all(questions, answer, what, check)
            backoff = _BACKOFF_START
        else:
            await anyio.sleep(backoff)  # state only: the server is working; poll gently
            backoff = min(backoff * 2, _BACKOFF_MAX)
        if state is not None:
            retry["requestState"] = state
        result = await send(retry)
    return result


async def answer_all(
    questions: dict[str, Any], answer: Answer, what: str, check: Check | None
) -> dict[str, Any]:
    """Answer one round of ``inputRequests`` (checked first, then all at once); the answers by key."""
    if len(questions) > MAX_QUESTIONS_PER_ROUND:
        raise InputRequiredLimitError(
            f"{what}: the server asked {len(questions)} questions in one round, over the client's limit of "
            f"{MAX_QUESTIONS_PER_ROUND}"
        )
    for key, request in questions.items():
        method = request.get("method") if isinstance(request, dict) else None
        if not isinstance(method, str):
            raise ProtocolError(f"{what}: the server's input request {key!r} has no method")
        if check is not None:
            check(key, method)
    answers: dict[str, Any] = {}
    failure: list[BaseException] = []
    count = len(questions)
    if count == 1:  # the common round: answered inline, without a task group and a task (3 loop trips)
        ((key, request),) = questions.items()
        answers[key] = await answer(key, request["method"], request.get("params") or {}, 1, 1)
        return answers

    async with anyio.create_task_group() as tg:

        async def one(key: str, request: dict[str, Any], index: int) -> None:
            try:
                answers[key] = await answer(key, request["method"], request.get("params") or {}, index, count)
            except Exception as exc:  # first failure wins; the siblings are cancelled
                if not failure:
                    failure.append(exc)
                tg.cancel_scope.cancel()

        for index, (key, request) in enumerate(questions.items(), start=1):
            tg.start_soon(one, key, request, index)
    if failure:
        raise failure[0]
    return answers
