"""mcp_client: an async MCP client where every server question, in either protocol era, reaches one callback.

::

    from mcp_client import Client

    async with Client("http://127.0.0.1:8000/mcp", elicitation_callback=ask) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})

Wire models live in ``mcp_client.types``, the normalized form model in ``mcp_client.schema``, ready
callbacks (terminal forms, URL consent, canned answers) in the ``ui_adapters`` package.

``import mcp_client`` loads nothing but the version: each public name loads its module the first time it
is touched (PEP 562 ``__getattr__``), so an app, a CLI's ``--help`` or a test collector that imports the
package pays for pydantic and the wire models only when it makes a client. Type checkers read the
``TYPE_CHECKING`` imports below, which name the same objects.
"""

from __future__ import annotations

import importlib
from types import FunctionType
from typing import TYPE_CHECKING, Any

from mcp_client._protocol.versions import LEGACY_VERSIONS, MODERN_VERSIONS
from mcp_client._version import __version__

if TYPE_CHECKING:
    from mcp_client._approvals.policy import ToolPolicy
    from mcp_client._approvals.request import ApprovalCallback, ApprovalRequest, ApprovalResult
    from mcp_client._approvals.store import ApprovalStore, MemoryApprovalStore
    from mcp_client._client import Client
    from mcp_client._connection.reconnect import Reconnect, ServerHealth
    from mcp_client._connection.transport import Message, RequestId, ServerMessageSink, Spawn, Transport
    from mcp_client._errors import (
        AppResourceError,
        CallbackError,
        CapabilityNotDeclaredError,
        ClientStateError,
        ElicitationCallbackError,
        ElicitationError,
        InputRequiredLimitError,
        InputRequiredRoundsExceededError,
        InvalidElicitationContentError,
        InvalidElicitationSchemaError,
        InvalidToolResultError,
        LocalRefusalError,
        MCPClientError,
        MCPConnectionError,
        MCPError,
        MCPTimeoutError,
        NoBackChannelError,
        OAuthError,
        ProtocolError,
        RequestStreamLost,
        ServerError,
        ServerExitedError,
        SessionExpiredError,
        SkillVerificationError,
        SubscriptionLostError,
        TaskCancelledError,
        TaskLostError,
        ToolCallDenied,
        UnsupportedInEraError,
        UnsupportedProtocolVersionError,
        UrlElicitationRequiredError,
    )
    from mcp_client._group.client_group import ClientGroup, GroupTool
    from mcp_client._session.context import ClientRequestContext, current_server, with_server_name
    from mcp_client._session.elicitation import ElicitationCallback, ElicitationCompleteCallback
    from mcp_client._session.listen import Listening
    from mcp_client._session.notifications import (
        LoggingCallback,
        MessageHandler,
        ProgressCallback,
        Subscription,
    )
    from mcp_client._session.roots import ListRootsCallback
    from mcp_client._session.sampling import SamplingCallback
    from mcp_client._skills.skills import Skill, SkillEntry, SkillFile
    from mcp_client._tasks.tool_task import ToolTask
    from mcp_client._transports.http import StreamableHTTPTransport
    from mcp_client._transports.stdio import StdioServerParameters, StdioTransport

__all__ = [
    "LEGACY_VERSIONS",
    "MODERN_VERSIONS",
    "AppResourceError",
    "ApprovalCallback",
    "ApprovalRequest",
    "ApprovalResult",
    "ApprovalStore",
    "CallbackError",
    "CapabilityNotDeclaredError",
    "Client",
    "ClientGroup",
    "ClientRequestContext",
    "ClientStateError",
    "ElicitationCallback",
    "ElicitationCallbackError",
    "ElicitationCompleteCallback",
    "ElicitationError",
    "GroupTool",
    "InputRequiredLimitError",
    "InputRequiredRoundsExceededError",
    "InvalidElicitationContentError",
    "InvalidElicitationSchemaError",
    "InvalidToolResultError",
    "ListRootsCallback",
    "Listening",
    "LocalRefusalError",
    "LoggingCallback",
    "MCPClientError",
    "MCPConnectionError",
    "MCPError",
    "MCPTimeoutError",
    "MemoryApprovalStore",
    "Message",
    "MessageHandler",
    "NoBackChannelError",
    "OAuthError",
    "ProgressCallback",
    "ProtocolError",
    "Reconnect",
    "RequestId",
    "RequestStreamLost",
    "SamplingCallback",
    "ServerError",
    "ServerExitedError",
    "ServerHealth",
    "ServerMessageSink",
    "SessionExpiredError",
    "Skill",
    "SkillEntry",
    "SkillFile",
    "SkillVerificationError",
    "Spawn",
    "StdioServerParameters",
    "StdioTransport",
    "StreamableHTTPTransport",
    "Subscription",
    "SubscriptionLostError",
    "TaskCancelledError",
    "TaskLostError",
    "ToolCallDenied",
    "ToolPolicy",
    "ToolTask",
    "Transport",
    "UnsupportedInEraError",
    "UnsupportedProtocolVersionError",
    "UrlElicitationRequiredError",
    "__version__",
    "current_server",
    "with_server_name",
]

# Where each public name lives (its module, relative to this package), loaded on first touch.
_LAZY: dict[str, str] = {
    "ApprovalCallback": "_approvals.request",
    "ApprovalRequest": "_approvals.request",
    "ApprovalResult": "_approvals.request",
    "ToolPolicy": "_approvals.policy",
    "ApprovalStore": "_approvals.store",
    "MemoryApprovalStore": "_approvals.store",
    "Client": "_client",
    "ClientRequestContext": "_session.context",
    "current_server": "_session.context",
    "with_server_name": "_session.context",
    "ElicitationCallback": "_session.elicitation",
    "ElicitationCompleteCallback": "_session.elicitation",
    "AppResourceError": "_errors",
    "CallbackError": "_errors",
    "CapabilityNotDeclaredError": "_errors",
    "ClientStateError": "_errors",
    "ElicitationCallbackError": "_errors",
    "ElicitationError": "_errors",
    "InputRequiredLimitError": "_errors",
    "InputRequiredRoundsExceededError": "_errors",
    "InvalidElicitationContentError": "_errors",
    "InvalidElicitationSchemaError": "_errors",
    "InvalidToolResultError": "_errors",
    "LocalRefusalError": "_errors",
    "MCPClientError": "_errors",
    "MCPConnectionError": "_errors",
    "MCPError": "_errors",
    "MCPTimeoutError": "_errors",
    "NoBackChannelError": "_errors",
    "OAuthError": "_errors",
    "ProtocolError": "_errors",
    "RequestStreamLost": "_errors",
    "ServerError": "_errors",
    "ServerExitedError": "_errors",
    "SessionExpiredError": "_errors",
    "SkillVerificationError": "_errors",
    "SubscriptionLostError": "_errors",
    "TaskCancelledError": "_errors",
    "TaskLostError": "_errors",
    "ToolCallDenied": "_errors",
    "UnsupportedInEraError": "_errors",
    "UnsupportedProtocolVersionError": "_errors",
    "UrlElicitationRequiredError": "_errors",
    "ClientGroup": "_group.client_group",
    "GroupTool": "_group.client_group",
    "Listening": "_session.listen",
    "LoggingCallback": "_session.notifications",
    "MessageHandler": "_session.notifications",
    "ProgressCallback": "_session.notifications",
    "Subscription": "_session.notifications",
    "Reconnect": "_connection.reconnect",
    "ServerHealth": "_connection.reconnect",
    "ListRootsCallback": "_session.roots",
    "SamplingCallback": "_session.sampling",
    "Skill": "_skills.skills",
    "SkillEntry": "_skills.skills",
    "SkillFile": "_skills.skills",
    "ToolTask": "_tasks.tool_task",
    "Message": "_connection.transport",
    "RequestId": "_connection.transport",
    "ServerMessageSink": "_connection.transport",
    "Spawn": "_connection.transport",
    "Transport": "_connection.transport",
    "StreamableHTTPTransport": "_transports.http",
    "StdioServerParameters": "_transports.stdio",
    "StdioTransport": "_transports.stdio",
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'mcp_client' has no attribute {name!r}")
    module = importlib.import_module(f"mcp_client.{where}")
    # The public names say they are public (as httpx does): reprs, tracebacks and docs show
    # ``mcp_client.Client``, not the private module it is defined in. Every public name of the module
    # is named at once, and cached here so the next touch is a plain attribute read.
    namespace = globals()
    for public, home in _LAZY.items():
        if home == where:
            member = getattr(module, public)
            if isinstance(member, type | FunctionType):
                member.__module__ = "mcp_client"
            namespace[public] = member
    return namespace[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
