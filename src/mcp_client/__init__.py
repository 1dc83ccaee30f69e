"""mcp_client: an async MCP client where every server question, in either protocol era, reaches one callback.

::

    from mcp_client import Client

    async with Client("http://127.0.0.1:8000/mcp", elicitation_callback=ask) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})

Wire models live in ``mcp_client.types``, the normalized form model in ``mcp_client.schema``, ready
callbacks (terminal forms, URL consent, canned answers) in the ``ui_adapters`` package.
"""

from mcp_client._client import Client
from mcp_client._context import ClientRequestContext
from mcp_client._elicitation import ElicitationCallback, ElicitationCompleteCallback
from mcp_client._errors import (
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
    UnsupportedInEraError,
    UnsupportedProtocolVersionError,
    UrlElicitationRequiredError,
)
from mcp_client._group import ClientGroup, GroupTool
from mcp_client._listen import Listening
from mcp_client._notifications import LoggingCallback, MessageHandler, ProgressCallback, Subscription
from mcp_client._roots import ListRootsCallback
from mcp_client._sampling import SamplingCallback
from mcp_client._skills import Skill, SkillEntry, SkillFile
from mcp_client._tool_task import ToolTask
from mcp_client._transport import Message, RequestId, ServerMessageSink, Spawn, Transport
from mcp_client._transports.http import StreamableHTTPTransport
from mcp_client._transports.stdio import StdioServerParameters, StdioTransport
from mcp_client._version import __version__
from mcp_client._versions import LEGACY_VERSIONS, MODERN_VERSIONS

__all__ = [
    "LEGACY_VERSIONS",
    "MODERN_VERSIONS",
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
    "Message",
    "MessageHandler",
    "OAuthError",
    "ProgressCallback",
    "ProtocolError",
    "RequestId",
    "RequestStreamLost",
    "SamplingCallback",
    "ServerError",
    "ServerExitedError",
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
    "ToolTask",
    "Transport",
    "UnsupportedInEraError",
    "UnsupportedProtocolVersionError",
    "UrlElicitationRequiredError",
    "__version__",
]


# The public names say they are public (as httpx does): reprs, tracebacks and docs show
# ``mcp_client.Client``, not the private module it is defined in.
def _say_public() -> None:
    namespace = globals()
    for name in __all__:
        member = namespace[name]
        if isinstance(member, type):
            member.__module__ = "mcp_client"


_say_public()
del _say_public
