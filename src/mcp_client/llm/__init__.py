"""MCP tools in a model's hands: ``ToolBridge`` and ready sampling callbacks for the big providers.

::

    from mcp_client.llm import ToolBridge

    bridge = ToolBridge(client)                      # a Client or a ClientGroup
    tools = await bridge.openai_tools()              # or anthropic_tools(), gemini_tools(), ...
    message = await bridge.run_openai(tool_call)     # the tool's result, shaped for the model

One module per provider (``_openai``, ``_anthropic``, ``_gemini`` for tools and results;
``_openai_sampling``, ``_anthropic_sampling``, ``_gemini_sampling`` for ``sampling_callback``s), all
written against one neutral view (``_view``). Nothing here imports a provider SDK: the formats are plain
dicts, and the sampling callbacks use the SDK client the app passes in. Like ``mcp_client`` itself, this
package loads each name on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_client.llm._anthropic_sampling import AnthropicSampling
    from mcp_client.llm._bridge import ToolBridge
    from mcp_client.llm._gemini_sampling import GeminiSampling
    from mcp_client.llm._openai_sampling import OpenAISampling
    from mcp_client.llm._paused import PausingCaller, ToolCallPaused
    from mcp_client.llm._view import ExportedTool

__all__ = [
    "AnthropicSampling",
    "ExportedTool",
    "GeminiSampling",
    "OpenAISampling",
    "PausingCaller",
    "ToolBridge",
    "ToolCallPaused",
]

_LAZY: dict[str, str] = {
    "AnthropicSampling": "_anthropic_sampling",
    "ExportedTool": "_view",
    "GeminiSampling": "_gemini_sampling",
    "OpenAISampling": "_openai_sampling",
    "PausingCaller": "_paused",
    "ToolCallPaused": "_paused",
    "ToolBridge": "_bridge",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mcp_client.llm' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"mcp_client.llm.{module}"), name)
    if isinstance(value, type):
        value.__module__ = "mcp_client.llm"  # reprs and docs show the name a user imports
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
