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

In the 2026-07-28 era the call need not wait: ``broker.call_tool(client, ...)`` releases it as a
``PausedCall`` (``ui_adapters.paused``) whose questions wait here like the others, survive a restart as
JSON, and are sent with ``broker.resume(call, client)`` once answered.

A tool the server runs as a task (``Client(..., tasks=True)``) asks its questions here too, each
``question.context.task_id`` naming the task; while ``await task.result()`` waits (in a background
task of the app), they sit in ``pending()`` like any other, and an answer goes back with
``tasks/update``::

    task = await client.call_tool("search_logs", {"query": "timeout"}, as_task=True)
    tg.start_soon(finish, task)                  # awaits task.result(), stores it
    # later, in a web handler:
    for question in broker.pending():            # the task's question, with question.context.task_id
        show(question.to_json())
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Mapping
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from mcp_client import Client, ClientRequestContext, ElicitationError
from mcp_client.types import (
    CallToolResult,
    ElicitRequestParams,
    ElicitResult,
    GetPromptResult,
    InputRequiredResult,
    ReadResourceResult,
)
from ui_adapters.paused import PausedCall, PausedCallNotReadyError
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
        self._paused: dict[str, PausedCall] = {}
        self._closed = False

    # ------------------------------------------------------------------- the client's side

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        """Publish the question and wait for the app's answer (or the timeout, or the caller going away)."""
        question = PendingQuestion(context, params, timeout=self.timeout)
        if self._closed:
            question.settle(ElicitResult(action="cancel"))
            return ElicitResult(action="cancel")
        self._publish(question)
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
        self._settle(question, question.check_answer(result))

    async def decline(self, id: str) -> None:
        """Decline question ``id`` (the person said no); ``QuestionNotPendingError`` if not pending."""
        self._settle(self.get(id), ElicitResult(action="decline"))

    async def cancel(self, id: str) -> None:
        """Cancel question ``id`` (the person dismissed it); ``QuestionNotPendingError`` if not pending."""
        self._settle(self.get(id), ElicitResult(action="cancel"))

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
        """Cancel every question whose call waits, end every ``async for`` loop, and cancel later
        questions at once.

        For an app shutting down: the calls waiting on questions get ``cancel`` and carry on. Questions
        of paused calls stay as they are (store the calls with ``PausedCall.to_json()``).
        """
        self._closed = True
        for question in list(self._pending.values()):
            if question.call_id is None:
                question.settle(ElicitResult(action="cancel"))
        for listener in list(self._listeners):
            listener.close()
        self._listeners.clear()

    # ------------------------------------------------------- 2026-07-28: release the call, resume later

    async def call_tool(
        self, client: Client, name: str, arguments: Mapping[str, Any] | None = None
    ) -> CallToolResult | PausedCall:
        """Call a tool; if a 2026-07-28 server asks something, release the call and hold its questions.

        Returns the tool's result, or a ``PausedCall`` whose questions are now pending in this broker
        (``call_id`` set): answer them whenever you like, store the call with ``to_json()`` if the app
        may restart, and finish it with ``resume``. A legacy server holds its call open instead: its
        questions reach this broker as the ``client``'s elicitation callback, and this waits for them.
        """
        result = await client.call_tool(name, arguments, allow_input_required=True)
        if isinstance(result, InputRequiredResult):
            return self.hold(
                PausedCall.from_result(client, result, method="tools/call", name=name, arguments=arguments)
            )
        return result

    async def get_prompt(
        self, client: Client, name: str, arguments: Mapping[str, str] | None = None
    ) -> GetPromptResult | PausedCall:
        """``get_prompt`` that releases a paused 2026-07-28 call, like ``call_tool``."""
        result = await client.get_prompt(name, arguments, allow_input_required=True)
        if isinstance(result, InputRequiredResult):
            return self.hold(
                PausedCall.from_result(client, result, method="prompts/get", name=name, arguments=arguments)
            )
        return result

    async def read_resource(self, client: Client, uri: str) -> ReadResourceResult | PausedCall:
        """``read_resource`` that releases a paused 2026-07-28 call, like ``call_tool``."""
        result = await client.read_resource(uri, allow_input_required=True)
        if isinstance(result, InputRequiredResult):
            return self.hold(
                PausedCall.from_result(client, result, method="resources/read", name=uri, arguments=None)
            )
        return result

    def hold(self, call: PausedCall) -> PausedCall:
        """Keep ``call`` and publish its questions that are still pending (``pending()``, ``async for``)."""
        self._paused[call.id] = call
        for question in call.questions.values():
            if question.is_pending:
                self._publish(question)
        return call

    def restore(self, data: Mapping[str, Any]) -> PausedCall:
        """Hold the call that ``PausedCall.to_json()`` described (e.g. after the app restarted)."""
        return self.hold(PausedCall.from_json(data))

    def paused_calls(self) -> list[PausedCall]:
        """The calls held here, oldest first; ``call.ready`` says which can be resumed."""
        return list(self._paused.values())

    def paused_call(self, call_id: str) -> PausedCall:
        """The held call with this id; ``QuestionNotPendingError`` if none is held here."""
        call = self._paused.get(call_id)
        if call is None:
            raise QuestionNotPendingError(
                f"no paused call has the id {call_id!r} here: it was resumed already, or it was never "
                "held or restored in this broker (QuestionBroker.restore)"
            )
        return call

    async def resume(
        self, call: PausedCall | str, client: Client
    ) -> CallToolResult | GetPromptResult | ReadResourceResult | PausedCall:
        """Send the answers of a ready paused call with ``client`` (any Client of the same server).

        Returns the result, or the same call (same ``id``) with new questions if the server asks again.
        Raises ``PausedCallNotReadyError`` while a question still waits; if sending fails the call is
        kept, so it can be resumed again.
        """
        if isinstance(call, str):
            call = self.paused_call(call)
        if not call.ready:
            waiting = [question.message for question in call.questions.values() if question.is_pending]
            raise PausedCallNotReadyError(
                f"the paused {call.method} {call.name!r} still waits for {len(waiting)} answer(s): "
                + "; ".join(repr(message) for message in waiting)
            )
        answers, state = call.input_responses(), call.request_state
        result: CallToolResult | GetPromptResult | ReadResourceResult | InputRequiredResult
        if call.method == "tools/call":
            result = await client.call_tool(
                call.name,
                call.arguments,
                input_responses=answers,
                request_state=state,
                allow_input_required=True,
            )
        elif call.method == "prompts/get":
            result = await client.get_prompt(
                call.name,
                call.arguments,
                input_responses=answers,
                request_state=state,
                allow_input_required=True,
            )
        else:
            result = await client.read_resource(
                call.name, input_responses=answers, request_state=state, allow_input_required=True
            )
        self._paused.pop(call.id, None)
        if isinstance(result, InputRequiredResult):
            again = PausedCall.from_result(
                client, result, method=call.method, name=call.name, arguments=call.arguments, call_id=call.id
            )
            return self.hold(again)
        return result

    # ------------------------------------------------------------------------------------ helpers

    def _publish(self, question: PendingQuestion) -> None:
        self._pending[question.id] = question
        for listener in list(self._listeners):
            try:
                listener.send_nowait(question)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._listeners.discard(listener)  # a loop that ended without saying so

    def _settle(self, question: PendingQuestion, result: ElicitResult) -> None:
        question.settle(result)
        if question.call_id is not None:  # nobody waits to take it off the list
            self._pending.pop(question.id, None)
