"""The gate every tool call of a ``Client`` with a ``tool_policy`` passes before anything is sent.

``ApprovalGate.check(tool, arguments)`` judges the call by the policy, from the tool's annotations in the
client's last listing (listed once if the client has none, listed again after a tools ``list_changed``
notice or a reconnect, so a tool listed again with other annotations is judged on the new ones). A call
the policy denies raises ``ToolCallDenied``; one it asks about is answered, in this order, by this
client's memory (``remember="session"``), by the ``ApprovalStore`` (``remember="always"``), or by the
``approval_callback``. Only an ``ApprovalResult`` allows: a callback that raises or returns anything else
denies the call (fail closed) and says so. A callback may take hours (a person answers on another
worker): nothing bounds it but the call's own cancellation, which passes through untouched.

One question per tool at a time: a call of a tool the person is being asked about (the same store key:
server, tool, policy) waits for that answer and follows it if it was remembered ("session", "always");
answered "once", or the question failed or was cancelled, it asks its own. Other tools do not wait.

A client without a policy has no gate: its calls pay nothing, and nothing extra goes on the wire.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Generator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import anyio

from mcp_client._approvals.audit import Audit, Source, record
from mcp_client._approvals.request import CALLBACK_FAILED, NOBODY_DECIDED, ApprovalRequest, ApprovalResult
from mcp_client._approvals.store import approval_key
from mcp_client._errors import MCPClientError, ToolCallDenied
from mcp_client._session.context import ClientRequestContext

if TYPE_CHECKING:
    from mcp_client._approvals.policy import ToolPolicy
    from mcp_client._approvals.request import ApprovalCallback
    from mcp_client._approvals.store import ApprovalStore
    from mcp_client._client import Client
    from mcp_client._session.session import Session

__all__ = [
    "ApprovalGate",
    "approved_by_app",
    "check_approval_options",
    "gate_of",
    "is_approved_by_app",
    "name_calls",
]

logger = logging.getLogger("mcp_client.approvals")

_APPROVED_BY_APP: ContextVar[Literal["app", "settled"] | None] = ContextVar(
    "mcp_client.approved_by_app", default=None
)
"""Inside ``approved_by_app()``: ``"app"`` (the gate logs the app's approval), ``"settled"`` (the
person's answer was logged by ``settle_approval``: the gate adds no line), else ``None``."""


def check_approval_options(policy: ToolPolicy | None, callback: ApprovalCallback | None) -> None:
    """At ``Client(...)``: a policy that may ask needs someone to ask."""
    from mcp_client._approvals.policy import ToolPolicy

    if policy is not None and not isinstance(policy, ToolPolicy):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"tool_policy is a mcp_client.ToolPolicy, got {type(policy).__name__}")
    if callback is not None and not callable(callback):
        raise TypeError(f"approval_callback is an async function (context, request), got {callback!r}")
    if policy is not None and policy.may_ask and callback is None:
        raise ValueError(
            f"tool_policy=ToolPolicy(ask={policy.ask!r}) may ask a person to approve a tool call, and "
            "there is no approval_callback to ask: pass Client(approval_callback=...) (e.g. "
            "ui_adapters.terminal_approval()), or ToolPolicy(ask='never') to run what allow and deny "
            "do not name"
        )


class ApprovalGate:
    """One client's gate: its policy, whom it asks, where "always" is kept, and what "session" holds."""

    def __init__(
        self,
        session: Session,
        policy: ToolPolicy,
        callback: ApprovalCallback | None,
        store: ApprovalStore,
    ) -> None:
        self._session = session
        self.policy = policy
        self._callback = callback
        self._store = store
        self._remembered: dict[str, Literal["allow", "deny"]] = {}
        """``remember="session"`` (and ``"always"``) decisions of this client, by the server's tool name."""
        self._asking: dict[str, anyio.Event] = {}
        """The questions being asked now, by store key: set when answered (or given up), so a call of
        the same tool started meanwhile follows a remembered answer instead of asking again."""
        self._index: tuple[list[Any], dict[str, Mapping[str, Any]]] | None = None
        self.config_name: str | None = None
        """The server's name in a ``ClientGroup`` (set by the group): patterns' ``server.tool`` uses it."""
        self.app_name: Callable[[str], str] | None = None
        """The name the app calls a tool by, from the server's (a group's unique name)."""

    # ------------------------------------------------------------------ who and what

    def _server(self) -> str:
        if self.config_name is not None:
            return self.config_name
        info = self._session.description.info
        return info.name if info is not None and info.name else self._session.label

    def _identity(self) -> str:
        """The server as the store knows it: its own name and where it is reached.

        Where: the URL as given, ``user:password@`` included (the label shows it without): the key is a
        digest, never shown, and decisions kept before the label dropped the credentials still apply.
        """
        info = self._session.description.info
        url = getattr(self._session.transport, "url", None)
        where = url if isinstance(url, str) else self._session.label
        return f"{info.name if info is not None else ''}|{where}"

    async def _entry(self, tool: str) -> Mapping[str, Any] | None:
        """The tool as last listed (listed now if the client holds no listing, or does not list it)."""
        session = self._session
        listed_now = False
        if session.listed_tools is None:
            listed_now = await self._list(refresh=False)
        entry = self._lookup(tool)
        if entry is None and not listed_now:
            # Perhaps a tool added since the last listing, with no notice heard: list once more.
            await self._list(refresh=True)
            entry = self._lookup(tool)
        return entry

    async def _list(self, *, refresh: bool) -> bool:
        try:
            await self._session.list_tools(refresh)
        except MCPClientError as exc:
            logger.warning(
                "%s: could not list the tools to read their annotations (%s); judging the call without them",
                self._session.label,
                exc,
            )
        return True

    def _lookup(self, tool: str) -> Mapping[str, Any] | None:
        listed = self._session.listed_tools
        if listed is None:
            return None
        if self._index is None or self._index[0] is not listed:
            index: dict[str, Mapping[str, Any]] = {}
            for entry in listed:
                if isinstance(entry, dict):
                    name = entry.get("name")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
                    if isinstance(name, str):
                        index[name] = entry  # pyright: ignore[reportUnknownArgumentType]
            self._index = (listed, index)
        return self._index[1].get(tool)

    # ------------------------------------------------------------------ the decision

    async def _judge(self, tool: str) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None, str, str]:
        """The tool's listing entry, its annotations, the server's name and the tool's app name."""
        entry = await self._entry(tool)
        raw_annotations = entry.get("annotations") if entry is not None else None
        annotations: Mapping[str, Any] | None = (
            raw_annotations if isinstance(raw_annotations, Mapping) else None  # pyright: ignore[reportUnknownVariableType]
        )
        name = self.app_name(tool) if self.app_name is not None else tool
        return entry, annotations, self._server(), name

    async def _remembered_answer(self, tool: str, key: str) -> tuple[Literal["allow", "deny"] | None, Source]:
        remembered = self._remembered.get(tool)
        if remembered is not None:
            return remembered, "session"
        return await self._stored(key), "store"

    async def needs_asking(self, tool: str) -> str | None:
        """The rule that would ask about a call of ``tool`` now (no answer remembered), else ``None``:
        for an app that asks its user its own way first (PydanticAI's deferred approvals). A client not
        connected (or closed) raises ``ClientStateError``, as ``call_tool`` does: it has no listing to
        judge by."""
        self._session.require_open()
        _, annotations, server, name = await self._judge(tool)
        decision = self.policy.decide(name, annotations, server=server, own_name=tool)
        if decision.action != "ask":
            return None
        remembered, _ = await self._remembered_answer(tool, approval_key(self._identity(), tool, self.policy))
        return decision.reason if remembered is None else None

    async def check(self, tool: str, arguments: Mapping[str, Any]) -> None:
        """Return if the call may go to the server; raise ``ToolCallDenied`` if it may not."""
        entry, annotations, server, name = await self._judge(tool)
        decision = self.policy.decide(name, annotations, server=server, own_name=tool)
        if decision.action != "ask":
            audit = Audit(server, name, decision.reason, decision.action, asked=False, source="policy")
            self._settle(audit, arguments, fix="change the ToolPolicy's deny patterns to let it run")
            return
        approved = _APPROVED_BY_APP.get()
        if approved is not None:
            if approved == "app":  # "settled": the decision was logged once, when it was taken
                audit = Audit(server, name, decision.reason, "allow", asked=True, source="app")
                self._settle(audit, arguments, fix="")
            return
        key = approval_key(self._identity(), tool, self.policy)
        while True:
            remembered, source = await self._remembered_answer(tool, key)
            if remembered is not None:
                audit = Audit(server, name, decision.reason, remembered, asked=False, source=source)
                self._settle(audit, arguments, fix="the refusal was remembered; ask again with a new Client")
                return
            asking = self._asking.get(key)
            if asking is None:
                break
            # A call of the same tool is asking the person now: its answer, if remembered, is this
            # call's too. Answered "once", failed or cancelled, this call asks its own (looping, as
            # another waiting call may have started asking meanwhile).
            await asking.wait()
        request = self._request(entry, annotations, server, name, arguments, decision.reason)
        answered = self._asking[key] = anyio.Event()  # set before any await: the next call waits
        try:
            result, failure = await self._ask(request)
            await self.answered(tool, arguments, request, result, failure)
        finally:
            del self._asking[key]
            answered.set()

    async def request(self, tool: str, arguments: Mapping[str, Any]) -> ApprovalRequest:
        """The ``ApprovalRequest`` the ``approval_callback`` would be handed for this call now: for an
        app that asks later and resumes the call (a ``QuestionBroker``'s paused calls)."""
        self._session.require_open()
        entry, annotations, server, name = await self._judge(tool)
        decision = self.policy.decide(name, annotations, server=server, own_name=tool)
        return self._request(entry, annotations, server, name, arguments, decision.reason)

    def _request(
        self,
        entry: Mapping[str, Any] | None,
        annotations: Mapping[str, Any] | None,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        reason: str,
    ) -> ApprovalRequest:
        return ApprovalRequest(
            server=server,
            tool=name,
            arguments=MappingProxyType(dict(arguments)),
            annotations=MappingProxyType(dict(annotations)) if annotations is not None else None,
            title=_text(entry, "title") or _text(annotations, "title"),
            description=_text(entry, "description"),
            reason=reason,
        )

    async def answered(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        request: ApprovalRequest,
        result: ApprovalResult | None,
        failure: Exception | None = None,
    ) -> None:
        """Take the answer to ``request`` (``None``: the callback failed): remember it as it says, log
        it, and raise ``ToolCallDenied`` unless it allows. ``check`` ends here, and so does a call whose
        approval was answered later (a paused call resumed). ``failure``, what the callback raised, becomes
        the denial's cause."""
        server, name = request.server, request.tool
        if result is None:
            audit = Audit(server, name, CALLBACK_FAILED, "deny", asked=True, source="callback")
            # The exception's type, not its text or traceback (logged above): the message may reach a user.
            raised = f": it raised {type(failure).__name__}" if failure is not None else ""
            fix = f"fix the approval_callback{raised} (its error is logged above)"
            try:
                self._settle(audit, arguments, fix=fix)
            except ToolCallDenied as denied:
                raise denied from failure  # the traceback shows what the callback raised
            return
        if result.remember in ("session", "always"):
            self._remembered[tool] = result.decision
        if result.remember == "always":
            # Kept under the server's identity, which only a connected client knows (its name): kept
            # before that, the answer would sit under a key no later call looks up.
            self._session.require_open()
            await self._keep(approval_key(self._identity(), tool, self.policy), result.decision)
        audit = Audit(
            server,
            name,
            request.reason,
            result.decision,
            asked=result.asked,
            source="callback",
            remember=result.remember,
            note=result.note,
        )
        self._settle(audit, arguments, fix="the user refused it" if result.asked else NOBODY_DECIDED)

    def _settle(self, audit: Audit, arguments: Mapping[str, Any], *, fix: str) -> None:
        record(audit, arguments)
        if audit.decision == "allow":
            return
        # The callback answered for nobody (no terminal, no page, no answer in time): its note is the why.
        nobody_decided = audit.source == "callback" and not audit.asked
        by_user = audit.source != "policy" and audit.rule != CALLBACK_FAILED and not nobody_decided
        said = (f"; the user said: {audit.note}" if by_user else f": {audit.note}") if audit.note else ""
        raise ToolCallDenied(
            f"the call of tool {audit.tool!r} on {audit.server} was denied ({audit.rule}) and not sent "
            f"to the server: {fix}{said}",
            tool=audit.tool,
            server=audit.server,
            reason=audit.rule,
            note=audit.note,
            by_user=by_user,
            unanswered=nobody_decided,
        )

    @property
    def callback(self) -> ApprovalCallback | None:
        """Whom this gate asks (the client's ``approval_callback``)."""
        return self._callback

    def context(self, request: ApprovalRequest) -> ClientRequestContext:
        """Who asks about ``request``: what the ``approval_callback`` is handed with it."""
        return self._context(request)

    def _context(self, request: ApprovalRequest) -> ClientRequestContext:
        session = self._session
        era = session.era
        return ClientRequestContext(
            server=session.label,
            server_info=session.description.info,
            protocol_version=session.description.protocol_version or "",
            era=era.name if era is not None else "legacy",
            config_name=self.config_name,
            tool_name=request.tool,
            arguments=request.arguments,
        )

    async def _ask(self, request: ApprovalRequest) -> tuple[ApprovalResult | None, Exception | None]:
        """The callback's answer; ``None`` if it failed (logged), with what it raised. Cancellation
        passes through."""
        callback = self._callback
        if callback is None:  # check_approval_options makes this unreachable from Client(...)
            logger.warning("no approval_callback to ask about %s on %s", request.tool, request.server)
            return None, None
        try:
            answer: object = callback(self._context(request), request)
            if inspect.isawaitable(answer):
                answer = await answer
        except Exception as failed:
            logger.exception(
                "the approval_callback failed on %s of %s; the call is denied", request.tool, request.server
            )
            return None, failed
        if not isinstance(answer, ApprovalResult):  # pyright: ignore[reportUnnecessaryIsInstance]
            logger.warning(
                "the approval_callback returned %s for %s of %s, not an ApprovalResult; the call is denied",
                type(answer).__name__,
                request.tool,
                request.server,
            )
            return None, None
        return answer, None

    async def _stored(self, key: str) -> Literal["allow", "deny"] | None:
        try:
            stored = await self._store.get_approval(key)
        except Exception:
            logger.exception("the approval store could not be read; asking instead")
            return None
        return stored if stored in ("allow", "deny") else None

    async def _keep(self, key: str, decision: Literal["allow", "deny"]) -> None:
        try:
            await self._store.set_approval(key, decision)
        except Exception:
            logger.exception("the approval store could not keep a decision; it holds for this client only")


def _text(source: Mapping[str, Any] | None, key: str) -> str | None:
    value = source.get(key) if source is not None else None
    return value if isinstance(value, str) else None


def name_calls(gate: ApprovalGate | None, server: str, app_name: Callable[[str], str]) -> None:
    """A ``ClientGroup`` names its member's server and tools as the app sees them (no gate: nothing)."""
    if gate is not None:
        gate.config_name = server
        gate.app_name = app_name


def gate_of(client: Client) -> ApprovalGate | None:
    """The gate of ``client`` (``None``: its calls are not gated)."""
    return client._gate  # pyright: ignore[reportPrivateUsage]


def is_approved_by_app() -> bool:
    """Whether this code runs inside ``approved_by_app()``."""
    return _APPROVED_BY_APP.get() is not None


@contextmanager
def approved_by_app(*, settled: bool = False) -> Generator[None]:
    """While the block runs, a call the policy would ask about is allowed without asking: the app
    asked its user its own way (PydanticAI's deferred approval) and the user approved. ``deny``
    patterns still refuse; the audit line says the answer came from the app.

    ``settled=True``: the person's answer was given to ``settle_approval``, which logged it (who was
    asked, the answer, ``remember``, the note): the call adds no second line for the same decision."""
    token = _APPROVED_BY_APP.set("settled" if settled else "app")
    try:
        yield
    finally:
        _APPROVED_BY_APP.reset(token)
