"""Questions for apps that answer them in their own UI: a web page, a chat, a notebook, later.

``QuestionBroker`` is an elicitation callback that asks nobody itself. Each question becomes a
``PendingQuestion`` the app can list (``pending()``) or receive as it arrives (``async for question in
broker``), show however it likes (``question.to_json()`` is ready for a browser), and answer from any
task (``answer``, ``decline``, ``cancel``). The tool call that asked waits meanwhile, and carries on
with the answer the moment it is given::

    broker = QuestionBroker(timeout=3600)
    async with Client(url, elicitation_callback=broker) as client:
        ...                                      # calls made here may ask questions
    # elsewhere, e.g. in a web handler:
    for question in broker.pending():
        show(question.to_json())
    await broker.answer(question_id, {"confirm": True})

Answers are validated with the same form model the client uses before sending, so a bad answer is
refused at ``answer`` (``InvalidElicitationContentError``) and the question stays open for a better one.
A question not answered within ``timeout`` seconds is cancelled. One broker may serve several clients.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Mapping
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from mcp_client import ClientRequestContext, ElicitationError
from mcp_client.types import ElicitRequestParams, ElicitResult
from ui_adapters.pending import PendingQuestion

__all__ = ["QuestionBroker", "QuestionNotPendingError"]


class QuestionNotPendingError(ElicitationError, LookupError):
    """No pending question has this id: it never existed, or it was answered, timed out or withdrawn."""


class QuestionBroker:
    """An elicitation callback that hands every question to the app and waits for its answer.

    ``timeout`` (seconds, ``None`` for no limit) bounds how long a question waits; then it is cancelled
    (status ``"timed-out"``). Pass the broker as ``Client(..., elicitation_callback=broker)``; it
    declares both form and URL mode. See the module docstring for the app side.
    """

    elicitation_modes: frozenset[str] = frozenset({"form", "url"})

    def __init__(self, timeout: float | None = None) -> None:
        if timeout is not None and (not timeout > 0 or math.isinf(timeout)):
            raise ValueError(f"timeout must be a positive number of seconds or None; got {timeout!r}")
        self.timeout = timeout
        self._pending: dict[str, PendingQuestion] = {}
        self._listeners: set[MemoryObjectSendStream[PendingQuestion]] = set()
        self._closed = False

    # ------------------------------------------------------------------- the client's side

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        """Publish the question and wait for the app's answer (or the timeout, or the caller going away)."""
        question = PendingQuestion(context, params, timeout=self.timeout)
        if self._closed:
            question.settle(ElicitResult(action="cancel"))
            return ElicitResult(action="cancel")
        self._pending[question.id] = question
        for listener in list(self._listeners):
            try:
                listener.send_nowait(question)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._listeners.discard(listener)  # a loop that ended without saying so
        try:
            with anyio.move_on_after(self.timeout if self.timeout is not None else math.inf):
                await question.wait()
            question.settle(ElicitResult(action="cancel"), "timed-out")  # no-op if answered in time
            return question.result or ElicitResult(action="cancel")
        finally:
            question.withdraw()  # the call was cancelled or its client closed while we waited
            self._pending.pop(question.id, None)

    # ---------------------------------------------------------------------- the app's side

    def pending(self) -> list[PendingQuestion]:
        """The questions waiting for an answer now, oldest first (a snapshot)."""
        return [question for question in self._pending.values() if question.is_pending]

    def get(self, question_id: str) -> PendingQuestion:
        """The pending question with this id; ``QuestionNotPendingError`` if there is none."""
        question = self._pending.get(question_id)
        if question is None or not question.is_pending:
            raise QuestionNotPendingError(
                f"no pending question has the id {question_id!r}: it was already answered, declined, "
                "cancelled or timed out, the call that asked went away, or the id is wrong"
            )
        return question

    async def answer(self, id: str, result: ElicitResult | Mapping[str, Any]) -> None:
        """Answer question ``id`` with an ``ElicitResult`` or a plain dict of field values (an accept).

        The answer is completed with the schema's defaults and validated with the form model first:
        an invalid one raises ``InvalidElicitationContentError`` (naming the field and the rule), is
        not sent, and the question stays pending. ``QuestionNotPendingError`` if ``id`` is not pending.
        """
        question = self.get(id)
        question.settle(question.check_answer(result))

    async def decline(self, id: str) -> None:
        """Decline question ``id`` (the person said no); ``QuestionNotPendingError`` if not pending."""
        self.get(id).settle(ElicitResult(action="decline"))

    async def cancel(self, id: str) -> None:
        """Cancel question ``id`` (the person dismissed it); ``QuestionNotPendingError`` if not pending."""
        self.get(id).settle(ElicitResult(action="cancel"))

    async def __aiter__(self) -> AsyncIterator[PendingQuestion]:
        """Every question that is pending when the loop starts, then each new one as it arrives.

        Each ``async for`` loop gets its own feed (several may run at once, e.g. one per open browser
        tab); a question answered before the loop reaches it is skipped. The loop ends when the broker
        is closed.
        """
        send, receive = anyio.create_memory_object_stream[PendingQuestion](math.inf)
        for question in self.pending():
            send.send_nowait(question)
        if self._closed:
            send.close()
        else:
            self._listeners.add(send)
        try:
            async with receive:
                async for question in receive:
                    if question.is_pending:
                        yield question
        finally:
            self._listeners.discard(send)
            send.close()

    def close(self) -> None:
        """Cancel every pending question, end every ``async for`` loop, and cancel later questions at once.

        For an app shutting down: the calls waiting on questions get ``cancel`` and carry on.
        """
        self._closed = True
        for question in list(self._pending.values()):
            question.settle(ElicitResult(action="cancel"))
        for listener in list(self._listeners):
            listener.close()
        self._listeners.clear()
