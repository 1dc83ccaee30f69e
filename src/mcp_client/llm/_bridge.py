"""``ToolBridge``: a client's (or a group's) tools in each provider's format, and the model's calls run.

The bridge knows no provider SDK: it hands out plain dicts the SDKs take as they are, and reads the
SDK objects a model answers with through their attributes (``field_of``), so none of ``openai``,
``anthropic`` or ``google-genai`` is imported here. Every call goes through ``call_tool`` of the server's
``Client``, so a tool that asks a question reaches the ``elicitation_callback`` (or the group's
per-server one) while the model waits for the result; or, with ``pause_with=`` (a ``QuestionBroker``),
through the broker, which may release the call instead (``ToolCallPaused``).
"""

from __future__ import annotations

import fnmatch
import logging
from collections.abc import Callable, Sequence
from typing import Any

import anyio

from mcp_client._client import Client
from mcp_client._errors import (
    InvalidToolResultError,
    MCPError,
    NoBackChannelError,
    ToolCallDenied,
    UrlElicitationRequiredError,
)
from mcp_client._group.client_group import ClientGroup
from mcp_client.apps._tool_app import model_may_see
from mcp_client.llm import _anthropic, _apps, _arguments, _gemini, _openai
from mcp_client.llm._names import provider_names
from mcp_client.llm._paused import PausingCaller, ToolCallPaused
from mcp_client.llm._view import (
    ExportedTool,
    ModelReads,
    argument_problem,
    denied_result,
    error_result,
    field_of,
    model_reads_checked,
    parse_arguments,
    result_parts,
)
from mcp_client.types import CallToolResult, Tool

__all__ = ["ToolBridge"]

logger = logging.getLogger("mcp_client.llm")

_Listing = list[tuple[str | None, list[Tool]]]


class ToolBridge:
    """Hand an MCP ``Client``'s or ``ClientGroup``'s tools to a model, and run the calls it asks for.

    ::

        bridge = ToolBridge(client)
        response = await openai.chat.completions.create(model=..., messages=messages,
                                                        tools=await bridge.openai_tools())
        for call in response.choices[0].message.tool_calls or []:
            messages.append(await bridge.run_openai(call))

    ``include`` / ``exclude`` are ``fnmatch`` patterns matched against a tool's name (its group name or
    its own name on the server). Names are made provider-safe (``[A-Za-z0-9_-]``, at most 64
    characters, unique even ignoring case, whatever names the servers send); ``tool_for(name)`` maps
    one back. A tool a server lists twice is exported once. A tool whose MCP Apps visibility lacks
    ``"model"`` (``_meta.ui.visibility: ["app"]``, for its view only) is never exported, and a call
    naming it is an error result: the server is not called. The list is the client's cached one, so it
    follows the server's ``list_changed`` notices: each export asks the cache, and converts again only
    when the list changed.

    ``model_reads`` is what the model is given of a result: ``"content"`` (the default; MCP's
    ``content`` is what a tool writes for the model), or ``"structured"``: the ``structuredContent``
    as JSON where the tool declares an ``outputSchema`` (the content otherwise).

    ``run_*`` never raise for what the model got wrong: arguments that are not a JSON object (or hold
    ``NaN``, ``Infinity``, an integer of thousands of digits, or nest deeper than 100 levels), an
    unknown tool, or a server that refuses the call come back as an error result the model can read;
    arguments that cannot be sent never reach the server. Connection failures still raise (the app
    decides whether to go on), and so does ``UrlElicitationRequiredError`` (the user, not the model,
    must open its URLs before the call is made again).

    A client with a ``tool_policy`` (``Client`` or ``ClientGroup``) gates every call the bridge makes:
    the bridge has no policy of its own, so the model, a view and the app are held to one policy. A
    call it denies (by a pattern, or the person asked) is an error result telling the model that the
    user refused it (and what the user said); ``is_denied(result)`` tells it apart.

    ``pause_with`` (a ``QuestionBroker``, or any ``PausingCaller``) makes every call through it: a
    2026-07-28 server's question then pauses the call instead of holding the model's run, and
    ``call_tool`` and ``run_*`` raise ``ToolCallPaused`` (with the paused call's id). Once the call is
    resumed (``await broker.resume(call_id, client)``), ``run_*(call, result=...)`` gives the model its
    result.

    ``on_app(name, arguments, result)`` (e.g. ``BrowserAppHost.present``, sync or async) is called with
    the result of each call of a tool that has a view (MCP Apps: ``_meta.ui.resourceUri``), and waited
    for; the model then reads the text ``content`` only (``structuredContent`` is the view's). One that
    fails is logged and the model still gets its result.
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        *,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] = (),
        pause_with: PausingCaller | None = None,
        model_reads: ModelReads = "content",
        on_app: _apps.OnApp | None = None,
    ) -> None:
        self._client = client
        self._on_app = on_app
        self._pause_with = pause_with
        self._model_reads: ModelReads = model_reads_checked(model_reads)
        self._include = tuple(include) if include is not None else None
        self._exclude = tuple(exclude)
        self._listing: _Listing | None = None
        self._tools: list[ExportedTool] = []
        self._by_name: dict[str, ExportedTool] = {}

    @property
    def model_reads(self) -> ModelReads:
        """What the model is given of a result: ``"content"`` or ``"structured"`` (set at construction)."""
        return self._model_reads

    # ------------------------------------------------------------------ the tool list

    async def _fetch(self) -> _Listing:
        client = self._client
        if isinstance(client, Client):
            return [(None, (await client.list_tools()).tools)]
        members = client.clients
        found: dict[str, list[Tool]] = {}

        async def one(name: str, member: Client) -> None:
            found[name] = (await member.list_tools()).tools

        async with anyio.create_task_group() as listing:
            for name, member in members.items():
                listing.start_soon(one, name, member)
        return [(name, found[name]) for name in members]

    def _wanted(self, *names: str) -> bool:
        if self._include is not None and not any(
            fnmatch.fnmatchcase(n, p) for n in names for p in self._include
        ):
            return False
        return not any(fnmatch.fnmatchcase(n, p) for n in names for p in self._exclude)

    def _build(self, listing: _Listing) -> list[ExportedTool]:
        entries: list[tuple[str, str | None, Tool]] = []
        group = self._client if isinstance(self._client, ClientGroup) else None
        for server, tools in listing:
            label = self._client.server if isinstance(self._client, Client) else server
            seen: set[str] = set()
            for tool in tools:
                if tool.name in seen:  # one server, one tool per name: the first listing is the one exported
                    logger.warning("%r lists the tool %r more than once; exported once", label, tool.name)
                    continue
                seen.add(tool.name)
                if not model_may_see(tool):  # MCP Apps: a tool for its view only never reaches a model
                    continue
                if group is not None and server is not None:
                    config = group.config.servers[server]
                    if not config.offers(tool.name):
                        continue
                    unique = group._tool_name(config, tool.name)
                else:
                    unique = tool.name
                if self._wanted(unique, tool.name):
                    entries.append((unique, server, tool))
        names = provider_names(unique for unique, _, _ in entries)
        return [
            ExportedTool(name, tool, server, self._model_reads)
            for name, (_, server, tool) in zip(names, entries, strict=True)
        ]

    async def tools(self) -> list[ExportedTool]:
        """The tools as the model sees them (the neutral view the provider formats are made from)."""
        listing = await self._fetch()
        if listing != self._listing:
            self._tools = self._build(listing)
            self._by_name = {tool.name: tool for tool in self._tools}
            self._listing = listing
        return self._tools

    def tool_for(self, name: str) -> ExportedTool:
        """The server and tool behind a name the model used (from the last export); ``KeyError`` if none."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(
                f"no tool named {name!r} in the last export; export the tools first "
                "(e.g. `await bridge.openai_tools()`)"
            ) from None

    async def _export(self, convert: Callable[[ExportedTool], dict[str, Any]]) -> list[dict[str, Any]]:
        return [convert(tool) for tool in await self.tools()]

    # ------------------------------------------------------------------ provider formats

    async def openai_tools(self, *, strict: bool | None = None) -> list[dict[str, Any]]:
        """Chat Completions ``tools=[...]``. ``strict=None``: strict for each tool whose schema can be
        made strict without changing what it accepts; ``False``: never; ``True`` is the same as ``None``
        (a schema that cannot be strict is sent non-strict rather than changed)."""
        key = "openai-chat" if strict is not False else "openai-chat-loose"
        return await self._export(lambda t: t.converted(key, lambda u: _openai.chat_tool(u, strict)))

    async def openai_responses_tools(self, *, strict: bool | None = None) -> list[dict[str, Any]]:
        """Responses API ``tools=[...]`` (``strict`` as in ``openai_tools``)."""
        key = "openai-responses" if strict is not False else "openai-responses-loose"
        return await self._export(lambda t: t.converted(key, lambda u: _openai.responses_tool(u, strict)))

    async def anthropic_tools(self) -> list[dict[str, Any]]:
        """Messages API ``tools=[...]``."""
        return await self._export(lambda t: t.converted("anthropic", _anthropic.tool))

    async def gemini_tools(self) -> list[dict[str, Any]]:
        """``[{"function_declarations": [...]}]``, for ``GenerateContentConfig(tools=...)``."""
        declarations = await self._export(lambda t: t.converted("gemini", _gemini.declaration))
        return [{"function_declarations": declarations}]

    # ------------------------------------------------------------------ calls

    async def _resolve(self, name: Any) -> ExportedTool | None:
        if not isinstance(name, str):
            return None
        tool = self._by_name.get(name)
        if tool is None:
            await self.tools()  # the list may have changed since the model saw it
            tool = self._by_name.get(name)
        return tool

    async def call(self, name: Any, arguments: Any) -> tuple[ExportedTool | None, CallToolResult]:
        """Run the tool the model named with the arguments it gave (a JSON string or an object).

        Returns the tool (``None`` when the model named none that exists) and the result; every
        mistake of the model's is an error result, never an exception. ``ToolCallPaused`` when
        ``pause_with`` paused the call.
        """
        tool = await self._resolve(name)
        if tool is None:
            known = ", ".join(t.name for t in self._tools) or "none"
            return None, error_result(f"There is no tool named {name!r}. The tools are: {known}.")
        parsed, problem = parse_arguments(arguments)
        if parsed is None:
            return tool, error_result(f"The call to {tool.name} was not run: {problem}.")
        return tool, await self.call_tool(tool, _openai.drop_omitted(tool, parsed))

    async def call_tool(self, tool: ExportedTool, arguments: dict[str, Any]) -> CallToolResult:
        """``call_tool`` on the tool's server; a refusal by the server becomes an error result.

        Arguments that cannot be sent as JSON (``NaN``, ``Infinity``, an integer of thousands of digits,
        nesting deeper than 100 levels) are an error result too, and the server is not called; so are
        arguments the tool's own schema refuses where its export was looser (a root union merged, a
        reference cut: ``_arguments``), with what is wrong for the model to correct. The framework
        adapters call this, so they get the same checks as ``call`` and ``run_*``. A
        ``UrlElicitationRequiredError`` is raised: its URLs are for the user, not the model. With
        ``pause_with``, the call goes through it; ``ToolCallPaused`` if it paused the call.
        """
        problem = argument_problem(arguments)
        if problem is not None:
            return error_result(f"The call to {tool.name} was not run: {problem}.")
        refused = _arguments.problem(tool, arguments)  # where the export was looser than the tool
        if refused is not None:
            return error_result(f"The call to {tool.name} was not run: {refused}")
        client = self.client_for(tool)
        try:
            if self._pause_with is None:
                return await self._shown(
                    tool, arguments, await client.call_tool(tool.original_name, arguments)
                )
            outcome = await self._pause_with.call_tool(client, tool.original_name, arguments)
        except (UrlElicitationRequiredError, NoBackChannelError):
            raise  # for the person, not the model: a link to open, or the app's mode to change
        except ToolCallDenied as denied:  # the client's tool_policy, or the person it asked, said no
            return denied_result(tool.name, denied)
        except (MCPError, InvalidToolResultError) as exc:
            return error_result(f"The call to {tool.name} failed: {exc}")
        if isinstance(outcome, CallToolResult):
            return await self._shown(tool, arguments, outcome)
        raise ToolCallPaused(tool, outcome, arguments=arguments, server=client.server)

    def client_for(self, tool: ExportedTool) -> Client:
        """The ``Client`` of the server ``tool`` belongs to (a group's member, or the one client)."""
        client = self._client
        if isinstance(client, ClientGroup):
            assert tool.server is not None  # a group's tools always name their server
            return client[tool.server]
        return client

    async def _shown(
        self, tool: ExportedTool, arguments: dict[str, Any], result: CallToolResult
    ) -> CallToolResult:
        """``result``, once ``on_app`` has shown it when the tool has a view."""
        if self._on_app is not None and _apps.has_view(tool):
            await _apps.present(self._on_app, self._client, tool, arguments, result)
        return result

    async def _run(
        self, name: Any, arguments: Any, call_id: Any, result: CallToolResult | None
    ) -> tuple[ExportedTool | None, CallToolResult]:
        """``call``, or the result of a resumed call; a pause names the model's ``call_id``. With
        ``on_app``, a tool that has a view gives the model its ``content`` only."""
        if result is not None:
            tool = await self._resolve(name)
            if tool is not None:
                parsed, _ = parse_arguments(arguments)
                result = await self._shown(tool, parsed or {}, result)
        else:
            try:
                tool, result = await self.call(name, arguments)
            except ToolCallPaused as paused:
                paused.tool_call_id = call_id if isinstance(call_id, str) else None
                raise
        if self._on_app is not None and _apps.has_view(tool):
            result = _apps.for_model(result)
        return tool, result

    async def run_openai(self, call: Any, *, result: CallToolResult | None = None) -> dict[str, Any]:
        """Run an OpenAI tool call and return what goes back to the model.

        A Chat Completions tool call (``ChatCompletionMessageToolCall`` or a dict with ``function``)
        gives ``{"role": "tool", "tool_call_id", "content"}``; a Responses ``function_call`` item gives
        ``{"type": "function_call_output", "call_id", "output"}``. ``result`` (of a call that paused and
        was resumed) is shaped as it is, without calling the tool again.
        """
        function = field_of(call, "function")
        if function is not None:
            tool, result = await self._run(
                field_of(function, "name"), field_of(function, "arguments"), field_of(call, "id"), result
            )
            content = _openai.chat_content(result_parts(tool, result), result)
            return {"role": "tool", "tool_call_id": field_of(call, "id"), "content": content}
        call_id = field_of(call, "call_id")
        tool, result = await self._run(field_of(call, "name"), field_of(call, "arguments"), call_id, result)
        output = _openai.responses_output(result_parts(tool, result), result)
        return {"type": "function_call_output", "call_id": call_id, "output": output}

    async def run_anthropic(self, tool_use: Any, *, result: CallToolResult | None = None) -> dict[str, Any]:
        """Run an Anthropic ``tool_use`` block (``ToolUseBlock`` or a dict) and return its
        ``tool_result`` block (``result``: as in ``run_openai``)."""
        use_id = field_of(tool_use, "id")
        tool, result = await self._run(
            field_of(tool_use, "name"), field_of(tool_use, "input"), use_id, result
        )
        return _anthropic.tool_result(use_id, result_parts(tool, result), result)

    async def run_gemini(self, function_call: Any, *, result: CallToolResult | None = None) -> dict[str, Any]:
        """Run a Gemini ``FunctionCall`` (or a ``Part`` holding one, or a dict) and return the
        ``{"function_response": ...}`` part (``result``: as in ``run_openai``)."""
        inner = field_of(function_call, "function_call")
        if inner is not None:
            function_call = inner
        name = field_of(function_call, "name")
        call_id = field_of(function_call, "id")
        tool, result = await self._run(name, field_of(function_call, "args"), call_id, result)
        parts = result_parts(tool, result)
        return _gemini.response(str(name), call_id, tool, parts, result)
