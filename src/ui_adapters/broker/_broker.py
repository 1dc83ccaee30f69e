"""``QuestionBroker``: the elicitation callback that hands questions to the app; the guide is the
package's docstring (``ui_adapters.broker``)."""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import AsyncIterator, Mapping
from types import TracebackType
from typing import Any, Literal, Self, overload

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectSendStream

from mcp_client import (
    ApprovalRequest,
    ApprovalResult,
    Client,
    ClientRequestContext,
    ToolCallDenied,
    ToolTask,
)
from mcp_client.approvals import (
    approval_callback_of,
    approved_by_app,
    pending_approval,
    refusal_result,
    settle_approval,
)
from mcp_client.types import (
    CallToolResult,
    ElicitRequestParams,
    ElicitResult,
    GetPromptResult,
    InputRequiredResult,
    ReadResourceResult,
)
from ui_adapters.broker._question_record import (
    apply_entry,
    context_from_record,
    context_record,
    question_from_entry,
    question_record,
    result_wire,
)
from ui_adapters.broker._task_keeper import TaskKeeper
from ui_adapters.broker.approval import (
    PendingApproval,
    apply_approval_entry,
    approval_from_record,
    approval_record,
    no_answer_within,
    result_from_json,
    result_to_json,
)
from ui_adapters.broker.paused import PausedCall, PausedCallNotReadyError
from ui_adapters.broker.pending import PendingQuestion, QuestionNotPendingError
from ui_adapters.broker.stores import DEFAULT_LEASE, QuestionStore, redact_server
from ui_adapters.broker.stores.base import UnreadableEntries
from ui_adapters.broker.tasks import StoredTask, TaskOutcome

__all__ = ["Pending", "QuestionBroker", "QuestionNotPendingError"]

Pending = PendingQuestion | PendingApproval
"""What ``broker.pending()`` lists: a server's question (``.kind == "question"``) or the app's approval of
a tool call (``.kind == "approval"``); ``if item.kind == "approval":`` narrows the type."""


_log = logging.getLogger("ui_adapters.broker")  # the name the logger had before the package
_STATUS_OF = {"accept": "answered", "decline": "declined", "cancel": "cancelled"}
_SHUTTING_DOWN = ApprovalResult(decision="deny", note="the app is shutting down", asked=False)
"""An approval still waiting when the broker closes: nobody decided (not the user's refusal)."""
_ENDED_UNANSWERED = ApprovalResult(decision="deny", note="the approval ended unanswered", asked=False)
"""A paused call's approval that went away (its store entry expired) before anyone answered."""


class QuestionBroker:
    """An elicitation callback that hands every question to the app and waits for its answer.

    ``timeout`` (seconds, ``None`` for no limit) bounds how long a question waits; then it is cancelled
    (status ``"timed-out"``). Pass the broker as ``Client(..., elicitation_callback=broker)``; it
    declares both form and URL mode. See the module docstring for the app side.

    ``store`` (a ``QuestionStore``: ``SqliteStore``, ``RedisStore``) shares questions and paused calls
    with other workers; the broker must then be entered (``async with broker:``), which connects, keeps
    this worker's lease (``lease`` seconds, renewed every third of it) and follows other workers'
    changes. ``worker`` names this worker in the store (default: random).

    ``pause_approvals`` (default True): when the broker is also the client's ``approval_callback``, a
    call made through ``call_tool`` (and so through ``ToolBridge(pause_with=broker)`` and the adapters)
    that the policy asks about pauses before anything is sent, like a released question. False: the
    call waits for the approval where it was made (an app whose calls wait anyway, as a legacy-era web
    app's request does).
    """

    elicitation_modes: frozenset[str] = frozenset({"form", "url"})

    def __init__(
        self,
        timeout: float | None = None,
        *,
        store: QuestionStore | None = None,
        lease: float = DEFAULT_LEASE,
        worker: str | None = None,
        pause_approvals: bool = True,
    ) -> None:
        if timeout is not None and not _positive_seconds(timeout):
            raise ValueError(f"timeout must be a positive number of seconds or None; got {timeout!r}")
        if not _positive_seconds(lease):
            raise ValueError(
                f"lease must be a positive number of seconds; got {lease!r} (a lease of 0 or NaN would "
                "end at once: every other worker would take this worker's questions for a dead one's)"
            )
        self.timeout = timeout
        self.store = store
        self.lease = lease
        self.worker: str = worker or secrets.token_urlsafe(12)
        self.pause_approvals: bool = pause_approvals
        self._pending: dict[str, Pending] = {}
        self._waiting: dict[str, Pending] = {}  # questions and approvals whose call waits in this process
        self._listeners: set[MemoryObjectSendStream[Pending]] = set()
        self._paused: dict[str, PausedCall] = {}
        self._closed = False
        self._task_group: TaskGroup | None = None
        self._unreadable = UnreadableEntries(store)  # store entries no broker could have written
        self._tasks = TaskKeeper(store, self.worker, self._unreadable) if store is not None else None

    async def __aenter__(self) -> Self:
        if self.store is not None:
            await self.store.open()
            await self.store.heartbeat(self.worker, self.lease)
            await self._refresh()
            self._task_group = anyio.create_task_group()
            await self._task_group.__aenter__()
            if self._tasks is not None:
                self._tasks.task_group = self._task_group
            self._task_group.start_soon(self._keep_lease)
            self._task_group.start_soon(self._follow_store)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
        if self._task_group is not None:
            self._task_group.cancel_scope.cancel()
            await self._task_group.__aexit__(None, None, None)
            self._task_group = None
            if self._tasks is not None:
                self._tasks.task_group = None
        if self.store is not None:
            with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                await self.store.release(self.worker)
                await self.store.close()

    # ------------------------------------------------------------------- the client's side

    @overload
    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult: ...

    @overload
    async def __call__(self, context: ClientRequestContext, params: ApprovalRequest) -> ApprovalResult: ...

    async def __call__(
        self, context: ClientRequestContext, params: ElicitRequestParams | ApprovalRequest
    ) -> ElicitResult | ApprovalResult:
        """Publish the question (or, as ``approval_callback``, the approval) and wait for the app's answer.

        The broker is both callbacks: ``Client(..., elicitation_callback=broker,
        approval_callback=broker)``. An approval nobody decides within ``timeout`` is denied as
        ``ApprovalResult(asked=False, note="nobody answered within 90s")`` (nobody decided, so the refusal
        does not say the user refused it); one whose call goes away is withdrawn.
        """
        if isinstance(params, ApprovalRequest):
            return await self._approve(context, params)
        return await self._ask(context, params)

    async def _approve(self, context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        approval = PendingApproval(context, request, timeout=self.timeout)
        if self._closed:
            approval.settle(_SHUTTING_DOWN, "withdrawn")
            return approval.result or ApprovalResult(decision="deny")
        if self.store is not None:
            self._require_open()
            record = approval_record(approval, self.timeout, context_record(context))
            await self.store.add_question(record, owner=self.worker, expires_in=self._expires_in())
            self._waiting[approval.id] = approval
        self._publish(approval)
        try:
            with anyio.move_on_after(self.timeout if self.timeout is not None else math.inf):
                await approval.wait()
            # Nobody decided in time: the refusal must not say the user refused it (asked=False).
            timed_out = ApprovalResult(decision="deny", note=no_answer_within(self.timeout), asked=False)
            approval.settle(timed_out, "timed-out")
            if self.store is not None and approval.status == "timed-out":
                await self._agree_with_store(approval)
            return approval.result or ApprovalResult(decision="deny")
        finally:
            approval.withdraw()
            self._pending.pop(approval.id, None)
            self._waiting.pop(approval.id, None)
            if self.store is not None and approval.status == "withdrawn":
                with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                    await self.store.settle_question(approval.id, "withdrawn", None)

    async def _ask(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        question = PendingQuestion(context, params, timeout=self.timeout)
        if self._closed:
            question.settle(ElicitResult(action="cancel"))
            return ElicitResult(action="cancel")
        if self.store is not None:
            self._require_open()
            await self.store.add_question(
                question_record(question, self.timeout), owner=self.worker, expires_in=self._expires_in()
            )
            self._waiting[question.id] = question
        self._publish(question)
        try:
            with anyio.move_on_after(self.timeout if self.timeout is not None else math.inf):
                await question.wait()
            question.settle(ElicitResult(action="cancel"), "timed-out")  # no-op if answered in time
            if self.store is not None and question.status in ("timed-out", "cancelled"):
                await self._agree_with_store(question)
            return question.result or ElicitResult(action="cancel")
        finally:
            question.withdraw()  # the call was cancelled or its client closed while we waited
            self._pending.pop(question.id, None)
            self._waiting.pop(question.id, None)
            if self.store is not None and question.status == "withdrawn":
                with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                    await self.store.settle_question(question.id, "withdrawn", None)

    # ---------------------------------------------------------------------- the app's side

    def pending(self) -> list[Pending]:
        """The questions and approvals waiting for an answer now, oldest first (a snapshot).

        ``item.kind`` says which: ``"question"`` (a ``PendingQuestion``, a server asks) or
        ``"approval"`` (a ``PendingApproval``, the app asks whether a tool call may run).
        """
        return [question for question in self._pending.values() if question.is_pending]

    def get(self, question_id: str) -> Pending:
        """The pending question with this id; ``QuestionNotPendingError`` if there is none."""
        question = self._pending.get(question_id)
        if question is None or not question.is_pending:
            raise QuestionNotPendingError(
                f"no pending question has the id {question_id!r}: it was already answered, declined, "
                "cancelled or timed out, the call that asked went away, or the id is wrong"
            )
        return question

    async def answer(self, id: str, result: ElicitResult | ApprovalResult | Mapping[str, Any]) -> None:
        """Answer question ``id`` with an ``ElicitResult`` or a plain dict of field values (an accept).

        An approval (``kind == "approval"``) is answered with an ``ApprovalResult`` (or a dict of its
        fields, ``{"decision": "allow", "remember": "session", "note": ...}``); an ``ElicitResult`` for
        an approval, or an ``ApprovalResult`` for a question, is a ``TypeError``.

        The answer is completed with the schema's defaults and validated with the form model first:
        an invalid one raises ``InvalidElicitationContentError`` (naming the field and the rule), is
        not sent, and the question stays pending. ``QuestionNotPendingError`` if ``id`` is not pending.
        With a store, the question may have been asked on any worker, and of two answers to it (on
        two workers at once) exactly one is taken.
        """
        item = await self._find(id)
        if isinstance(item, PendingApproval):
            await self._settle(item, item.check_answer(result))
            return
        if isinstance(result, ApprovalResult):
            raise TypeError(
                f"the pending item {id!r} is a server's question: answer it with an ElicitResult or a "
                "dict of field values; an ApprovalResult answers an approval (kind == 'approval')"
            )
        await self._settle(item, item.check_answer(result))

    async def decline(self, id: str) -> None:
        """Decline question ``id`` (the person said no; an approval is denied); ``QuestionNotPendingError`` if
        not pending."""
        await self._settle_no(await self._find(id), "decline")

    async def cancel(self, id: str) -> None:
        """Cancel question ``id`` (the person dismissed it; an approval is denied);
        ``QuestionNotPendingError`` if not pending."""
        await self._settle_no(await self._find(id), "cancel")

    async def _settle_no(self, item: Pending, action: Literal["decline", "cancel"]) -> None:
        if isinstance(item, PendingApproval):
            await self._settle(item, ApprovalResult(decision="deny"))
        else:
            await self._settle(item, ElicitResult(action=action))

    async def describe(self, id: str) -> dict[str, Any] | None:
        """``to_json()`` of question ``id`` whatever its status (e.g. ``withdrawn``), ``None`` if unknown.

        Without a store only this process's pending questions are known; with one, every worker's
        questions until they expire.
        """
        if self.store is None:
            question = self._pending.get(id)
            return question.to_json() if question is not None else None
        entry = await self.store.get_question(id)
        if entry is None:
            return None
        record: object = entry.get("record")
        view: object = record.get("view") if isinstance(record, dict) else None  # pyright: ignore[reportUnknownMemberType]
        if not isinstance(view, dict):
            self._unreadable.skip("question", id, "its record has no view")
            return None
        described: dict[str, Any] = {**view, "status": entry["status"]}  # pyright: ignore[reportUnknownVariableType]
        return described

    async def __aiter__(self) -> AsyncIterator[Pending]:
        """Every question that is pending when the loop starts, then each new one as it arrives.

        Each ``async for`` loop gets its own feed (several may run at once, e.g. one per open browser
        tab); a question answered before the loop reaches it is skipped. The loop ends when the broker
        is closed.
        """
        send, receive = anyio.create_memory_object_stream[Pending](math.inf)
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
        of paused calls stay as they are (store the calls with ``PausedCall.to_json()``); the tasks this
        broker follows for the store stop being followed (their questions are withdrawn) and stay in the
        store for another worker, or this one restarted, to take over.
        """
        self._closed = True
        tasks = self._tasks
        if tasks is not None:
            tasks.stop()  # their questions are withdrawn, not cancelled: another worker asks them again
        for question in list(self._pending.values()):
            followed = tasks is not None and tasks.follows(question.context.task_id)
            if isinstance(question, PendingApproval):
                if question.call_id is None:  # a paused call's approval stays, like its questions
                    question.settle(_SHUTTING_DOWN)
            elif question.call_id is None and not followed:
                question.settle(ElicitResult(action="cancel"))
        for listener in list(self._listeners):
            listener.close()
        self._listeners.clear()

    # ------------------------------------------------------- 2026-07-28: release the call, resume later

    @overload
    async def call_tool(
        self,
        client: Client,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        as_task: Literal[False] = False,
    ) -> CallToolResult | PausedCall: ...

    @overload
    async def call_tool(
        self, client: Client, name: str, arguments: Mapping[str, Any] | None = None, *, as_task: Literal[True]
    ) -> ToolTask: ...

    async def call_tool(
        self, client: Client, name: str, arguments: Mapping[str, Any] | None = None, *, as_task: bool = False
    ) -> CallToolResult | PausedCall | ToolTask:
        """Call a tool; if a 2026-07-28 server asks something, release the call and hold its questions.

        Returns the tool's result, or a ``PausedCall`` whose questions are now pending in this broker
        (``call_id`` set): answer them whenever you like, store the call with ``to_json()`` if the app
        may restart, and finish it with ``resume``. A legacy server holds its call open instead: its
        questions reach this broker as the ``client``'s elicitation callback, and this waits for them.

        ``as_task=True`` (a ``Client(..., tasks=True)`` whose elicitation callback is this broker, and
        a store): the server runs the tool as a task, returned as a ``ToolTask`` at once and followed
        by this broker in the background (``track_task``).

        A call the ``client``'s ``tool_policy`` asks about, when this broker is its
        ``approval_callback``, pauses before anything is sent: the ``PausedCall``'s ``approval`` is
        pending (``kind == "approval"``, ``call_id`` set) instead of waiting here; ``resume`` then makes
        the call if it was allowed, or returns the refusal (an error result, ``is_denied``) if not.
        """
        if as_task:
            tasks = self._tasks_for("call_tool(..., as_task=True)")  # before the server starts anything
            return await tasks.track(await client.call_tool(name, arguments, as_task=True))
        if self.pause_approvals and approval_callback_of(client) is self:
            pending = await pending_approval(client, name, arguments)  # None: patterns or memory decide
            if pending is not None:
                request, context = pending
                call = PausedCall.for_approval(client, request, context, name=name, arguments=arguments)
                return await self._keep(call)
        result = await client.call_tool(name, arguments, allow_input_required=True)
        if isinstance(result, InputRequiredResult):
            return await self._keep(
                PausedCall.from_result(client, result, method="tools/call", name=name, arguments=arguments)
            )
        return result

    async def get_prompt(
        self, client: Client, name: str, arguments: Mapping[str, str] | None = None
    ) -> GetPromptResult | PausedCall:
        """``get_prompt`` that releases a paused 2026-07-28 call, like ``call_tool``."""
        result = await client.get_prompt(name, arguments, allow_input_required=True)
        if isinstance(result, InputRequiredResult):
            return await self._keep(
                PausedCall.from_result(client, result, method="prompts/get", name=name, arguments=arguments)
            )
        return result

    async def read_resource(self, client: Client, uri: str) -> ReadResourceResult | PausedCall:
        """``read_resource`` that releases a paused 2026-07-28 call, like ``call_tool``."""
        result = await client.read_resource(uri, allow_input_required=True)
        if isinstance(result, InputRequiredResult):
            return await self._keep(
                PausedCall.from_result(client, result, method="resources/read", name=uri, arguments=None)
            )
        return result

    def hold(self, call: PausedCall) -> PausedCall:
        """Keep ``call`` and publish its questions that are still pending (``pending()``, ``async for``).

        In this process only: with a store, ``call_tool`` (and ``get_prompt``, ``read_resource``) put
        the call in the store themselves, and ``resume`` takes it from there.
        """
        self._paused[call.id] = call
        for question in _waiting_items(call):
            self._publish(question)
        return call

    def restore(self, data: Mapping[str, Any]) -> PausedCall:
        """Hold the call that ``PausedCall.to_json()`` described (e.g. after the app restarted)."""
        return self.hold(PausedCall.from_json(data))

    def paused_calls(self) -> list[PausedCall]:
        """The calls held here, oldest first; ``call.ready`` says which can be resumed.

        With a store, ``await broker.stored_calls()`` lists every worker's paused calls.
        """
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
        kept, so it can be resumed again. With a store, the call is taken from the store (answers given
        on any worker included) and exactly one worker resumes it; the others get
        ``QuestionNotPendingError``.
        """
        if self.store is not None:
            return await self._resume_from_store(call if isinstance(call, str) else call.id, client)
        if isinstance(call, str):
            call = self.paused_call(call)
        return await self._send(call, client)

    async def _send(
        self, call: PausedCall, client: Client
    ) -> CallToolResult | GetPromptResult | ReadResourceResult | PausedCall:
        if call.approval is not None and call.approval.is_pending:
            raise PausedCallNotReadyError(
                f"the paused call of {call.name!r} still waits for its approval ({call.approval.id}): "
                "answer it with broker.answer(id, ApprovalResult(...)) first"
            )
        if not call.ready:
            waiting = [question.message for question in call.questions.values() if question.is_pending]
            raise PausedCallNotReadyError(
                f"the paused {call.method} {call.name!r} still waits for {len(waiting)} answer(s): "
                + "; ".join(repr(message) for message in waiting)
            )
        if call.approval is not None:
            return await self._send_approved(call, call.approval, client)
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
            return await self._keep(again)
        return result

    async def _send_approved(
        self, call: PausedCall, approval: PendingApproval, client: Client
    ) -> CallToolResult | PausedCall:
        """The call paused for its approval: made now if allowed (the gate does not ask again; its
        deny patterns still hold), else the refusal as the error result a model reads."""
        decision = approval.result or _ENDED_UNANSWERED
        try:  # remembers "session" / "always", logs it, raises if denied
            await settle_approval(client, call.name, call.arguments, approval.request, decision)
            with approved_by_app(settled=True):  # logged once, above: the person's answer
                result = await client.call_tool(call.name, call.arguments, allow_input_required=True)
        except ToolCallDenied as denied:
            self._paused.pop(call.id, None)
            return refusal_result(approval.request.tool, denied)
        self._paused.pop(call.id, None)
        if isinstance(result, InputRequiredResult):  # allowed, and now the server asks: paused again
            again = PausedCall.from_result(
                client, result, method="tools/call", name=call.name, arguments=call.arguments, call_id=call.id
            )
            return await self._keep(again)
        return result

    # ------------------------------------------------------------ tool tasks kept in the store

    async def track_task(self, task: ToolTask) -> ToolTask:
        """Keep ``task`` in the store and follow it to its end in the background; returns it.

        Its questions reach this broker (the task's client must have it as elicitation callback) and
        show in every worker's ``pending()``; when it ends, its outcome is stored for any worker
        (``task_outcome``, ``describe_task``). If this worker dies first, a worker that called
        ``adopt_tasks`` (or ``resume_task``) takes it over. A task the server answered at once (no id)
        is returned as it is. Needs a store (``MemoryStore()`` for one process) and ``async with``.
        """
        return await self._tasks_for("track_task").track(task)

    async def resume_task(self, task_id: str, client: Client) -> ToolTask:
        """Take over the stored task ``task_id`` with ``client`` (same server, ``tasks=True``).

        For a task whose worker died or stopped: exactly one worker gets it (the others, and any
        worker while its holder is alive, get ``QuestionNotPendingError``); a task this worker
        follows already is returned as it is. ``adopt_tasks`` does this by itself for every such task.
        A stored record no broker could have written raises ``DamagedTaskRecordError`` (a
        ``ValueError`` saying which field is wrong).
        """
        return await self._tasks_for("resume_task").resume(task_id, client)

    def adopt_tasks(self, client: Client) -> None:
        """Take over, with ``client``, the stored tasks of its server whose worker died or stopped.

        Checked every third of the lease; each such task is taken by exactly one worker, followed to
        its end, and its outcome stored. Call it once per client, after the client is open. A damaged
        task record is skipped (logged once), not the tasks after it.
        """
        self._tasks_for("adopt_tasks").adopt(client)

    async def stored_tasks(self) -> list[StoredTask]:
        """Every task in the store that has not ended (any worker's), oldest first.

        A record no broker could have written (a damaged row, a foreign key in a shared Redis) is
        skipped and logged once (WARNING on ``ui_adapters.broker``, naming it and what is wrong).
        """
        return await self._tasks_for("stored_tasks").stored()

    async def task_outcome(self, task_id: str) -> TaskOutcome | None:
        """How the stored task ``task_id`` ended (any worker finished it); ``None`` while it runs.

        A damaged ``"task-result"`` record raises ``DamagedTaskRecordError`` (a ``ValueError``: "the
        stored record of task ... is damaged: its 'status' is missing", and the fix).
        """
        return await self._tasks_for("task_outcome").outcome(task_id)

    async def describe_task(self, task_id: str) -> dict[str, Any] | None:
        """A stored task as JSON for a page: its outcome if it ended, else its state; ``None`` if unknown.

        A damaged record of the task raises ``ui_adapters.broker.tasks.DamagedTaskRecordError`` (a
        ``ValueError`` saying the stored record of the task is damaged, which field is wrong, and the
        fix): answer it as an error of the app's store (the example web app replies 500 with the message).
        """
        return await self._tasks_for("describe_task").describe(task_id)

    def _tasks_for(self, what: str) -> TaskKeeper:
        if self._tasks is None:
            raise RuntimeError(
                f"QuestionBroker.{what} keeps tasks in a store: pass store=MemoryStore() (one process), "
                "SqliteStore(path) or RedisStore(url), and enter the broker (async with broker: ...)"
            )
        self._require_open()
        return self._tasks

    # ------------------------------------------------------------------------------------ helpers

    def _publish(self, question: Pending) -> None:
        self._pending[question.id] = question
        for listener in list(self._listeners):
            try:
                listener.send_nowait(question)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._listeners.discard(listener)  # a loop that ended without saying so

    @overload
    async def _settle(self, question: PendingQuestion, result: ElicitResult) -> None: ...

    @overload
    async def _settle(self, question: PendingApproval, result: ApprovalResult) -> None: ...

    async def _settle(self, question: Pending, result: ElicitResult | ApprovalResult) -> None:
        if self.store is not None:
            if isinstance(result, ApprovalResult):
                status = "allowed" if result.decision == "allow" else "denied"
                wire = result_to_json(result)
            else:
                status, wire = _STATUS_OF[result.action], result_wire(result)
            if not await self.store.settle_question(question.id, status, wire):
                # answered elsewhere, or withdrawn now: its worker died (the store checks its lease)
                self._apply(question, await self.store.get_question(question.id))
                if not question.is_pending:
                    self._pending.pop(question.id, None)
                raise self._not_pending(question.id)
            question = self._waiting.get(question.id, question)
        question.settle(result)  # pyright: ignore[reportArgumentType] (the overloads pair them)
        if question.call_id is not None or self.store is not None:  # nobody waits to take it off the list
            self._pending.pop(question.id, None)

    @staticmethod
    def _not_pending(question_id: str) -> QuestionNotPendingError:
        return QuestionNotPendingError(
            f"no pending question has the id {question_id!r}: it was already answered, declined, "
            "cancelled or timed out, the call that asked went away, or the id is wrong"
        )

    # ------------------------------------------------------------------------ with a store

    def _require_open(self) -> None:
        if self._task_group is None:
            raise RuntimeError(
                "a QuestionBroker with a store must be entered first: async with QuestionBroker(store=...) "
                "as broker: ..."
            )

    def _expires_in(self) -> float:
        keep_for = float(getattr(self.store, "keep_for", 24 * 3600.0))
        return self.timeout + 60 if self.timeout is not None else keep_for

    async def _find(self, question_id: str) -> Pending:
        """The pending question: this process's own, or (with a store) any worker's."""
        if self.store is None:
            return self.get(question_id)
        question = self._waiting.get(question_id) or self._pending.get(question_id)
        if question is None or not question.is_pending:
            entry = await self.store.get_question(question_id)
            if entry is None or entry["status"] != "pending":
                raise self._not_pending(question_id)
            found = self._question_of(entry)
            if found is None:
                raise QuestionNotPendingError(
                    f"the question {question_id!r} is in the store but cannot be read (the log of "
                    "'ui_adapters.broker' says why); it cannot be answered: delete it from the store"
                )
            question = found
        return question

    def _question_of(self, entry: Mapping[str, Any]) -> Pending | None:
        """The question a store entry describes; ``None`` (logged once) if no broker could have written it."""
        try:
            record = entry["record"]
            if record.get("kind") == "approval":
                approval = approval_from_record(record, context_from_record(record["context"]))
                apply_approval_entry(approval, entry)
                return approval
            return question_from_entry(entry)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # pydantic's errors are ValueErrors
            self._unreadable.skip("question", entry.get("id"), f"not a question a broker stored: {exc!r}")
            return None

    def _apply(self, question: Pending, entry: Mapping[str, Any] | None) -> None:
        """``apply_entry``, skipping (logged once) an outcome no broker could have written."""
        try:
            if isinstance(question, PendingApproval):
                apply_approval_entry(question, entry)
            else:
                apply_entry(question, entry)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self._unreadable.skip("question", question.id, f"its outcome cannot be read: {exc!r}")

    async def _agree_with_store(self, question: Pending) -> None:
        """A question that ended here (timeout, close): the store says so too, unless an answer won."""
        assert self.store is not None
        with anyio.CancelScope(shield=True), anyio.move_on_after(5):
            wire = (
                result_to_json(question.result)
                if isinstance(question, PendingApproval)
                else result_wire(question.result)
            )
            if not await self.store.settle_question(question.id, question.status, wire):
                entry = await self.store.get_question(question.id)
                if isinstance(question, PendingApproval):
                    if entry is not None and entry.get("result") is not None:
                        question._result = result_from_json(entry["result"])  # pyright: ignore[reportPrivateUsage]
                elif entry is not None and entry.get("result") is not None:
                    # answered on another worker at the moment it timed out here: the answer wins
                    question._result = ElicitResult.model_validate(entry["result"])  # pyright: ignore[reportPrivateUsage]

    async def _keep(self, call: PausedCall) -> PausedCall:
        """Hold ``call`` here, and with a store, put it and its pending questions in the store."""
        if self.store is None:
            return self.hold(call)
        self._require_open()
        for question in call.questions.values():
            if question.is_pending:
                record = question_record(question, None)
                await self.store.add_question(record, owner=None, expires_in=self._expires_in())
        if call.approval is not None and call.approval.is_pending:
            record = approval_record(call.approval, None, context_record(call.approval.context))
            await self.store.add_question(record, owner=None, expires_in=self._expires_in())
        stored = call.to_json()
        stored["server"] = redact_server(call.server)  # the store never keeps user:password (docs/ui.md)
        await self.store.put_record("paused-call", call.id, stored)
        for question in _waiting_items(call):
            self._publish(question)
        return call

    async def stored_calls(self) -> list[PausedCall]:
        """Every paused call in the store (any worker's), with the answers given so far; oldest first."""
        if self.store is None:
            return self.paused_calls()
        calls: list[PausedCall] = []
        for data in await self.store.list_records("paused-call"):
            try:
                calls.append(PausedCall.from_json(data))
            except ValueError as exc:  # one bad record does not hide the others
                self._unreadable.skip("paused-call record", data.get("id"), exc)
        for call in calls:
            await self._apply_answers(call)
        return calls

    async def _apply_answers(self, call: PausedCall) -> None:
        assert self.store is not None
        for question in _waiting_items(call):
            self._apply(question, await self.store.get_question(question.id))

    async def _resume_from_store(
        self, call_id: str, client: Client
    ) -> CallToolResult | GetPromptResult | ReadResourceResult | PausedCall:
        assert self.store is not None
        data = await self.store.get_record("paused-call", call_id)
        if data is None:
            raise QuestionNotPendingError(
                f"no paused call has the id {call_id!r} in the store: it was resumed already (here or by "
                "another worker), it expired, or the id is wrong"
            )
        call = PausedCall.from_json(data)
        await self._apply_answers(call)
        if not call.ready:
            return await self._send(call, client)  # raises PausedCallNotReadyError, naming the questions
        if await self.store.take_record("paused-call", call_id) is None:  # exactly one worker goes on
            raise QuestionNotPendingError(
                f"the paused call {call_id!r} is being resumed by another worker (or was just resumed)"
            )
        try:
            return await self._send(call, client)
        except BaseException:
            with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                await self.store.put_record("paused-call", call_id, data)  # kept: it can be resumed again
            raise

    async def _keep_lease(self) -> None:
        assert self.store is not None
        while True:
            await anyio.sleep(self.lease / 3)
            try:
                await self.store.heartbeat(self.worker, self.lease)
                if await self.store.sweep():
                    await self._refresh()
                if self._tasks is not None:
                    await self._tasks.keep()
            except Exception:  # the store is down for a moment: the app keeps running, we retry
                _log.warning("%r: lease renewal or sweep failed; retrying", self.store, exc_info=True)

    async def _follow_store(self) -> None:
        assert self.store is not None
        while True:
            try:
                await self.store.wait_for_change(1.0)
                await self._refresh()
            except Exception:
                _log.warning("%r: reading the store failed; retrying in a second", self.store, exc_info=True)
                await anyio.sleep(1.0)

    async def _refresh(self) -> None:
        """Bring ``pending()`` in line with the store, and wake the calls here whose answer came elsewhere."""
        assert self.store is not None
        entries = await self.store.pending_questions()
        live = {entry["id"] for entry in entries}
        for entry in entries:
            if entry["id"] not in self._pending and entry["id"] not in self._waiting:
                question = self._question_of(entry)  # one that cannot be read is skipped, not the rest
                if question is not None:
                    self._publish(question)
        for question_id, question in list(self._pending.items()):
            if question_id not in live and question.is_pending:
                self._apply(
                    self._waiting.get(question_id, question), await self.store.get_question(question_id)
                )
                if not question.is_pending:
                    self._pending.pop(question_id, None)
        for question_id, question in list(self._waiting.items()):  # answered before it reached _pending
            if question_id not in live and question.is_pending:
                self._apply(question, await self.store.get_question(question_id))


def _waiting_items(call: PausedCall) -> list[Pending]:
    """The paused call's questions (or approval) that still wait for an answer."""
    items: list[Pending] = [question for question in call.questions.values() if question.is_pending]
    if call.approval is not None and call.approval.is_pending:
        items.append(call.approval)
    return items


def _positive_seconds(value: object) -> bool:
    """A finite number of seconds above 0 (not a bool, not NaN, not infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return value > 0 and math.isfinite(value)


QuestionBroker.__module__ = "ui_adapters.broker"  # reprs and tracebacks show the name a user imports
