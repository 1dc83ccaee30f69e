"""Every exception the SDK raises, in one place.

The tree, so that a caller can pick the right ``except`` in ten seconds::

    MCPClientError                       anything raised by mcp_client
    ├── MCPConnectionError               could not reach the server, or lost it
    │   ├── ServerExitedError            a stdio server process exited (carries its stderr tail)
    │   ├── SessionExpiredError          the server forgot our session and a new one could not be made
    │   ├── SubscriptionLostError        a ``listen()`` stream dropped without the server closing it
    │   └── RequestStreamLost            a 2026-07-28 reply stream ended before the answer, again after
    │                                    the one resend (a transport raises it; see ``Transport``)
    ├── MCPTimeoutError                  a request got no answer within ``timeout`` (progress restarts it)
    ├── ProtocolError                    the server broke the protocol (malformed or impossible message)
    │   ├── UnsupportedProtocolVersionError  no protocol version both sides speak
    │   ├── InvalidToolResultError       a tool's structuredContent breaks its outputSchema (.path .rule)
    │   └── SkillVerificationError       a skill's file does not match its entry (.skill .file .reason)
    ├── MCPError                         a JSON-RPC error (.code .message .data), from either side:
    │   ├── ServerError                  the server answered our request with it
    │   │   ├── UrlElicitationRequiredError  legacy -32042: open these URLs first (.elicitations)
    │   │   └── NoBackChannelError   2026-07-28: the server asked the legacy way (``ctx.elicit``) and
    │   │                            could not; connect with ``mode="legacy"`` (.server .method)
    │   ├── LocalRefusalError            this client refused the server's question; nothing came from
    │   │   │                            the server (.code .message: what a legacy server is told)
    │   │   └── CapabilityNotDeclaredError   the server asked for sampling, roots or elicitation, which
    │   │                                    this client did not declare (.kind); pass that callback
    │   └── (the very MCPError your callback raised to refuse comes back to the call as it is)
    ├── TaskCancelledError               a tool task ended ``cancelled`` (.task_id); a ``failed`` task
    │                                    raises its own JSON-RPC error as ``ServerError``
    ├── TaskLostError                    the server no longer knows a task (expired past its TTL, or
    │                                    never existed) (.task_id)
    ├── InputRequiredRoundsExceededError the server kept asking for input past the round cap
    ├── InputRequiredLimitError          the server's input requests broke a size or count limit
    ├── CallbackError                    an app callback (sampling, roots, elicitation) raised or
    │   │                                returned something unusable (.kind)
    │   └── ElicitationCallbackError     the elicitation callback itself raised (also an ElicitationError)
    ├── OAuthError                       an OAuth login, refresh or token request failed (mcp_client.auth)
    ├── ElicitationError                 a question or an answer could not be used
    │   ├── InvalidElicitationSchemaError    the server's requested_schema is outside the spec's subset
    │   ├── InvalidElicitationContentError   the callback's answer does not fit the schema
    │   └── ElicitationCallbackError
    ├── ClientStateError                 the Client was used outside ``async with`` or after closing
    └── UnsupportedInEraError            the negotiated protocol era has no such thing (says what to use)

Errors are split by who failed, as h11 splits local from remote: ``ServerError`` is what the server
said; ``LocalRefusalError`` and a callback's own ``MCPError`` are what this client said (in the legacy
era the server is told the same code and message; in 2026-07-28 nothing can be sent back, and the call
raises it). ``except MCPError`` catches all of them, as it always did.

Messages say what happened, which server, field or request it concerns, and what to do about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_client.types import ElicitRequestURLParams

__all__ = [
    "AppResourceError",
    "CallbackError",
    "CapabilityNotDeclaredError",
    "ClientStateError",
    "ElicitationCallbackError",
    "ElicitationError",
    "InputRequiredLimitError",
    "InputRequiredRoundsExceededError",
    "InvalidElicitationContentError",
    "InvalidElicitationSchemaError",
    "InvalidToolResultError",
    "LocalRefusalError",
    "MCPClientError",
    "MCPConnectionError",
    "MCPError",
    "MCPTimeoutError",
    "NoBackChannelError",
    "OAuthError",
    "ProtocolError",
    "RequestStreamLost",
    "ServerError",
    "ServerExitedError",
    "SessionExpiredError",
    "SkillVerificationError",
    "SubscriptionLostError",
    "TaskCancelledError",
    "TaskLostError",
    "ToolCallDenied",
    "UnsupportedInEraError",
    "UnsupportedProtocolVersionError",
    "UrlElicitationRequiredError",
]


class MCPClientError(Exception):
    """Base of every exception raised by ``mcp_client``."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Our errors take keyword-only details (``returncode=``, ``task_id``...) that ``Exception``'s
        # default pickling would pass back positionally: rebuild them from their message and attributes
        # instead, so an error crosses a process boundary (a worker pool, a task queue) intact.
        return (_rebuild_error, (type(self), self.args, dict(self.__dict__)))


def _rebuild_error(cls: type[MCPClientError], args: tuple[Any, ...], state: dict[str, Any]) -> MCPClientError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class MCPConnectionError(MCPClientError):
    """The server could not be reached, or the connection to it was lost."""


class ServerExitedError(MCPConnectionError):
    """A stdio server process exited while requests were pending (or before they were sent).

    ``stderr_tail`` holds the last lines the server wrote to its stderr, which usually say why.
    """

    def __init__(self, message: str, *, returncode: int | None = None, stderr_tail: str = "") -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr_tail = stderr_tail


class SessionExpiredError(MCPConnectionError):
    """The server no longer knows our legacy session and starting a new one failed."""


class SubscriptionLostError(MCPConnectionError):
    """A ``listen()`` stream ended without the server's graceful close: listen again and refetch."""


class RequestStreamLost(MCPConnectionError):
    """A request's reply stream ended before the answer, and the protocol offers no way to resume it.

    A transport raises it (2026-07-28 streamable HTTP); the client sends the request again, once, with
    a new id, and only a second loss reaches the caller. ``listen()`` turns it into
    ``SubscriptionLostError``.
    """


class MCPTimeoutError(MCPClientError):
    """A request got no answer within the client's ``timeout`` (or the call's ``read_timeout_seconds``).

    Time spent inside the elicitation callback is not counted, and each progress notification for the
    call starts its clock again.
    """


class ProtocolError(MCPClientError):
    """The server sent something the protocol does not allow (bad JSON, a malformed JSON-RPC message, ...)."""


class InvalidToolResultError(ProtocolError):
    """A tool's ``structuredContent`` does not fit the ``outputSchema`` it declared (or is missing).

    ``tool`` names the tool, ``path`` the place in the structured content (``"$"`` is the whole of it,
    ``"$.items[2]"`` one element) and ``rule`` the JSON Schema keyword it broke (``"type"``,
    ``"required"``...; ``"structuredContent"`` when there was none, ``"outputSchema"`` when the
    schema itself is not valid JSON Schema).
    """

    def __init__(self, message: str, *, tool: str, path: str, rule: str) -> None:
        super().__init__(message)
        self.tool = tool
        self.path = path
        self.rule = rule


class SkillVerificationError(ProtocolError):
    """A skill's file does not match its skill entry (SEP-2640): size, digest, frontmatter, or unlisted.

    ``skill`` is the skill's ``SKILL.md`` URI, ``file`` the URI of the file that failed and ``reason``
    what did not match. The content was not used. If the skill was updated since it was listed, fetch
    the entry again (``get_skill``/``list_skills``) and load it again.
    """

    def __init__(self, skill: str, file: str, reason: str, *, read: bool = True) -> None:
        what = "its SKILL.md" if file == skill else file
        advice = (
            ". The content was not used; if the skill changed since it was listed, get its entry again "
            "(get_skill) and load it again"
            if read
            else ""
        )
        super().__init__(f"skill {skill}: {what} failed verification: {reason}{advice}")
        self.skill = skill
        self.file = file
        self.reason = reason


class UnsupportedProtocolVersionError(ProtocolError):
    """The client and the server have no protocol version in common."""

    def __init__(self, message: str, *, offered: list[str], supported: list[str]) -> None:
        super().__init__(message)
        self.offered = offered
        self.supported = supported


class MCPError(MCPClientError):
    """A JSON-RPC error: the server's (``ServerError``) or this client's refusal (``LocalRefusalError``).

    A callback (elicitation, sampling, roots) raises it to refuse the server's question: in the legacy
    era the error is sent to the server as the answer to its request, and the call raises this very
    exception rather than the server's echo of it.
    """

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{message} (JSON-RPC error {code})")
        self.code = code
        self.message = message
        self.data = data

    def to_error_dict(self) -> dict[str, Any]:
        """The JSON-RPC ``error`` member this exception stands for."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ServerError(MCPError):
    """The server answered our request with a JSON-RPC error (``code``, ``message``, ``data`` as sent)."""


class LocalRefusalError(MCPError):
    """This client refused a question the server asked; the server sent no error.

    ``code`` and ``message`` are what a legacy server is told (a 2026-07-28 server is told nothing: the
    call raises this error).
    """


class UrlElicitationRequiredError(ServerError):
    """Legacy ``-32042``: the tool needs the user to visit these URLs before it can run.

    ``elicitations`` lists them as ``ElicitRequestURLParams``; after the user has completed them, call the
    tool again.
    """

    def __init__(
        self, code: int, message: str, data: Any, elicitations: list[ElicitRequestURLParams]
    ) -> None:
        super().__init__(code, message, data)
        self.elicitations = elicitations


class NoBackChannelError(ServerError):
    """A 2026-07-28 server could not ask its question: the tool asks the legacy way, mid-call.

    A tool written with the official SDK's ``ctx.elicit`` (or ``ctx.elicit_url``, ``create_message``)
    sends its question as a request of its own over the open call: the legacy era's back-channel. A
    2026-07-28 connection has none (its questions come back in the result, "input required"), so the
    server answers the call with ``-32600`` "...has no back-channel..." and the question never reaches
    the user. Connecting in the legacy era (``Client(..., mode="legacy")``, ``"mode": "legacy"`` for the
    server in a config file) gives the tool its back-channel.

    ``code``, ``message`` and ``data`` are the server's, as sent; ``server`` is the server's URL or
    command line (``Client.server``), ``server_name`` the name it gave itself (``None`` if none), and
    ``method`` the request it could not send (``"elicitation/create"``; ``None`` if it did not say).
    """

    def __init__(
        self,
        code: int,
        message: str,
        data: Any,
        *,
        server: str,
        server_name: str | None = None,
        method: str | None = None,
    ) -> None:
        super().__init__(code, message, data)
        what = _BACK_CHANNEL_ASKS.get(method or "")
        if what is None:
            what = f"send this client a request ({method})" if method else "ask the user a question"
        named = f"the server {server_name!r} ({server})" if server_name else server
        lost = "the question never reached the user" if method in (None, _ELICIT) else "it never reached us"
        text = (
            f"{named} tried to {what} over the legacy back-channel (the way ctx.elicit asks); a "
            f"2026-07-28 connection has none, so {lost} and the call failed. Connect to this server "
            'with Client(..., mode="legacy") (in a config file or a ClientGroup: "mode": "legacy" for '
            "this server)"
        )
        Exception.__init__(self, text)  # str(error) says what to do; .message stays the server's
        self.server = server
        self.server_name = server_name
        self.method = method


_ELICIT = "elicitation/create"
_BACK_CHANNEL_ASKS = {
    _ELICIT: "ask the user a question (elicitation/create)",
    "sampling/createMessage": "ask this client's model (sampling/createMessage)",
    "roots/list": "ask for this client's roots (roots/list)",
}


class CapabilityNotDeclaredError(LocalRefusalError):
    """The server asked a question of a kind this client did not declare (``kind``: ``"sampling"``,
    ``"roots"`` or ``"elicitation"``; ``method`` its JSON-RPC method).

    A legacy server is told ``-32600`` and ``wire_message`` ("Sampling not supported", ...); the call
    raises this error, whose message names the callback to pass. In the 2026-07-28 era nothing is sent:
    the call raises.
    """

    def __init__(self, kind: str, method: str, callback: str, wire_message: str) -> None:
        super().__init__(
            -32600,
            f"this server asked for {kind} ({method}), which this client did not declare; "
            f"pass {callback}=... to Client to answer it",
        )
        self.kind = kind
        self.method = method
        self.wire_message = wire_message
        """What a legacy server is told (``"Sampling not supported"``, as the official client says)."""


class TaskCancelledError(MCPClientError):
    """A tool task ended in ``cancelled``: by ``task.cancel()``, by another client, or by the server.

    ``task_id`` names the task; ``status_message`` is what the server said about it, if anything.
    """

    def __init__(self, message: str, task_id: str, status_message: str | None = None) -> None:
        super().__init__(message)
        self.task_id = task_id
        self.status_message = status_message


class TaskLostError(MCPClientError):
    """The server answered ``tasks/get`` for ``task_id`` with an error: it expired or never existed.

    The server's own error is the ``__cause__`` (a ``ServerError``); the task's result cannot be had.
    """

    def __init__(self, message: str, task_id: str) -> None:
        super().__init__(message)
        self.task_id = task_id


class InputRequiredRoundsExceededError(MCPClientError):
    """The server answered with ``InputRequiredResult`` more times than ``input_required_max_rounds``."""

    def __init__(self, message: str, *, rounds: int) -> None:
        super().__init__(message)
        self.rounds = rounds


class InputRequiredLimitError(MCPClientError):
    """An ``InputRequiredResult`` broke one of the client's safety limits (state size, question count)."""


class CallbackError(MCPClientError):
    """An app callback raised, or returned something that cannot be sent; ``kind`` says which one.

    The original exception, if any, is the ``__cause__``. The server is told only that the client's
    handler failed, never the details.
    """

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class OAuthError(MCPClientError):
    """Authorization with an OAuth server failed: discovery, registration, the login, or a token request.

    ``error`` is the OAuth error code when the authorization server sent one (``"invalid_grant"``,
    ``"access_denied"``...), else ``None``. Messages never contain a token, code, verifier or secret.
    """

    def __init__(self, message: str, *, error: str | None = None) -> None:
        super().__init__(message)
        self.error = error


class ElicitationError(MCPClientError):
    """A server's question, or the answer to it, could not be used."""


class InvalidElicitationSchemaError(ElicitationError):
    """A ``requested_schema`` is outside the flat primitive subset the MCP spec allows.

    ``property`` names the offending property (``None`` when the envelope itself is wrong).
    """

    def __init__(self, message: str, *, property: str | None = None) -> None:
        super().__init__(message)
        self.property = property


class InvalidElicitationContentError(ElicitationError):
    """The content of an ``accept`` answer does not fit the ``requested_schema``; it was not sent.

    ``field`` names the field and ``rule`` the broken rule (``"required"``, ``"maxLength"``, ``"format"``...).
    """

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule


class ElicitationCallbackError(ElicitationError, CallbackError):
    """The elicitation callback raised; the original exception is the ``__cause__``."""

    def __init__(self, message: str) -> None:
        CallbackError.__init__(self, message, kind="elicitation")


class ClientStateError(MCPClientError):
    """The ``Client`` was used before ``async with`` entered it, or after it was closed."""


class UnsupportedInEraError(MCPClientError):
    """The protocol era this connection negotiated has no such feature; the message says what to use.

    For example ``resources/subscribe`` is gone in 2026-07-28 (use ``listen()``), and a legacy call
    cannot be resumed from ``request_state`` (the server holds a legacy call open while it asks).
    """


class AppResourceError(MCPClientError):
    """A tool's view (an MCP Apps ``ui://`` resource) cannot be used: the tool has none, the resource
    is not ``text/html;profile=mcp-app``, its HTML is over ``max_app_bytes``, or it is not readable
    (a ``blob`` that is not base64, HTML that is not UTF-8). ``uri`` is the resource (``None`` when the
    tool named none); the client goes on working."""

    def __init__(self, message: str, *, uri: str | None = None) -> None:
        super().__init__(message)
        self.uri = uri


class ToolCallDenied(MCPClientError):
    """The app's tool policy, or the person it asked, refused this tool call: the server was not called.

    ``tool`` is the tool's name as the app called it, ``server`` the server it belongs to, ``reason``
    which rule decided (a ``deny`` pattern, or the approval asked for), ``note`` what the person said
    when refusing (``None`` if nothing). ``by_user`` is true when a person refused (now, or remembered
    from before), false when the policy's ``deny`` patterns did, or the approval could not be asked.
    ``unanswered`` is true when the approval was asked for and no person decided (nobody could be asked,
    nobody answered in time: ``ApprovalResult(asked=False)``); ``note`` then says why.
    """

    def __init__(
        self,
        message: str,
        *,
        tool: str,
        server: str,
        reason: str,
        note: str | None = None,
        by_user: bool = False,
        unanswered: bool = False,
    ) -> None:
        super().__init__(message)
        self.tool = tool
        self.server = server
        self.reason = reason
        self.note = note
        self.by_user = by_user
        self.unanswered = unanswered


# Errors are raised from deep inside the package, often before the app has touched
# ``mcp_client.ServerError`` (``mcp_client`` loads its names lazily): they name the public module
# themselves, so the first traceback already says ``mcp_client.ServerError``.
def _say_public() -> None:
    namespace = globals()
    for name in __all__:
        namespace[name].__module__ = "mcp_client"


_say_public()
