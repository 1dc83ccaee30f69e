"""Pydantic models for what crosses the wire, with the names users know from the MCP docs.

Fields are snake_case in Python and camelCase on the wire (``requested_schema`` <-> ``requestedSchema``);
both spellings are accepted when building a model. Unknown keys from newer servers are kept, not dropped,
so nothing a server sends is lost. ``model_dump_wire()`` gives the JSON-ready camelCase dict.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError
from pydantic.alias_generators import to_camel

from mcp_client._schema.model import FormSchema
from mcp_client._schema.parse import parse_form_schema

__all__ = [
    "AudioContent",
    "BlobResourceContents",
    "CallToolResult",
    "CompleteResult",
    "Completion",
    "ContentBlock",
    "CreateMessageRequest",
    "CreateMessageRequestParams",
    "CreateMessageResult",
    "CreateMessageResultWithTools",
    "ElicitRequest",
    "ElicitRequestFormParams",
    "ElicitRequestParams",
    "ElicitRequestURLParams",
    "ElicitResult",
    "ElicitationAction",
    "EmbeddedResource",
    "GetPromptResult",
    "ImageContent",
    "Implementation",
    "IncludeContext",
    "InputRequest",
    "InputRequiredResult",
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ListRootsRequest",
    "ListRootsResult",
    "ListToolsResult",
    "LoggingLevel",
    "LoggingMessageNotification",
    "LoggingMessageNotificationParams",
    "ModelHint",
    "ModelPreferences",
    "OtherInputRequest",
    "ProgressNotification",
    "ProgressNotificationParams",
    "Prompt",
    "PromptArgument",
    "PromptListChangedNotification",
    "PromptMessage",
    "PromptReference",
    "ReadResourceResult",
    "Resource",
    "ResourceContents",
    "ResourceLink",
    "ResourceListChangedNotification",
    "ResourceTemplate",
    "ResourceTemplateReference",
    "ResourceUpdatedNotification",
    "ResourceUpdatedNotificationParams",
    "Role",
    "Root",
    "SamplingContent",
    "SamplingMessage",
    "SamplingMessageContentBlock",
    "ServerCapabilities",
    "ServerNotification",
    "StopReason",
    "SubscriptionFilter",
    "Task",
    "TaskStatusNotification",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolChoice",
    "ToolListChangedNotification",
    "ToolResultContent",
    "ToolUseContent",
    "UnknownNotification",
]


class WireModel(BaseModel):
    """Base of every wire model: camelCase aliases, snake_case names, unknown keys kept."""

    model_config: ClassVar[ConfigDict] = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        serialize_by_alias=True,
        # Build validators on first use, not at import: `import mcp_client` stays cheap.
        defer_build=True,
    )

    def model_dump_wire(self) -> dict[str, Any]:
        """The model as the JSON object the protocol carries (camelCase keys, unset optionals left out)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class Implementation(WireModel):
    """Name and version of a client or a server (``clientInfo`` / ``serverInfo``)."""

    name: str
    version: str = ""
    title: str | None = None


class ServerCapabilities(WireModel):
    """What the server said it can do. Each entry is the raw capability object, or ``None`` if absent."""

    tools: dict[str, Any] | None = None
    prompts: dict[str, Any] | None = None
    resources: dict[str, Any] | None = None
    logging: dict[str, Any] | None = None
    completions: dict[str, Any] | None = None
    experimental: dict[str, Any] | None = None
    extensions: dict[str, Any] | None = None
    """The protocol extensions the server offers (SEP-2133), by id (``io.modelcontextprotocol/tasks``)."""

    @classmethod
    def from_server(cls, raw: object) -> ServerCapabilities:
        """What a server declared, never raising: a malformed entry (``"tools": true``) is left out.

        A server's self-description is not worth failing a connection over; what it does is learned
        from its answers.
        """
        if not isinstance(raw, dict):
            return cls()
        entries = {key: value for key, value in raw.items() if isinstance(key, str)}
        for _ in range(2):
            try:
                return cls.model_validate(entries)
            except ValidationError as exc:
                malformed = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
                entries = {key: value for key, value in entries.items() if key not in malformed}
        return cls()


# ---------------------------------------------------------------------------------------------- content


class TextContent(WireModel):
    """Text in a tool result, a prompt message or a sampling message."""

    type: Literal["text"] = "text"
    text: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ImageContent(WireModel):
    """An image: base64 ``data`` of type ``mime_type`` (``image/png``...)."""

    type: Literal["image"] = "image"
    data: str
    mime_type: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class AudioContent(WireModel):
    """Audio: base64 ``data`` of type ``mime_type`` (``audio/wav``...)."""

    type: Literal["audio"] = "audio"
    data: str
    mime_type: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ResourceContents(WireModel):
    """The contents of one resource, as ``read_resource`` returns them (text or blob below)."""

    uri: str
    mime_type: str | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class TextResourceContents(ResourceContents):
    """A resource's contents as ``text``."""

    text: str


class BlobResourceContents(ResourceContents):
    """A resource's contents as base64 ``blob``."""

    blob: str


class ResourceLink(WireModel):
    """A link to a resource in a tool result: read it with ``client.read_resource(uri)`` if you need it."""

    type: Literal["resource_link"] = "resource_link"
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class EmbeddedResource(WireModel):
    """A resource's contents embedded in a tool result or a prompt message."""

    type: Literal["resource"] = "resource"
    resource: TextResourceContents | BlobResourceContents
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


ContentBlock = Annotated[
    TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource,
    Field(discriminator="type"),
]
"""One block of a tool result or prompt message, told apart by ``type``."""


# ------------------------------------------------------------------------------------------------ tools


class Tool(WireModel):
    """A tool as ``list_tools`` gives it: its name, ``input_schema`` for the arguments and, if it has
    one, the ``output_schema`` its structured results are checked against."""

    name: str
    title: str | None = None
    description: str | None = None
    input_schema: dict[str, Any] = Field(default_factory=lambda: {"type": "object"})
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListToolsResult(WireModel):
    """Every tool of the server: ``list_tools()`` has already followed the pagination cursors."""

    tools: list[Tool]


class CallToolResult(WireModel):
    """A tool's answer. ``is_error`` is the tool's own failure report, not a protocol error."""

    content: list[ContentBlock] = Field(default_factory=list)
    structured_content: Any = None
    is_error: bool = False
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ---------------------------------------------------------------------------------------------- prompts


class PromptArgument(WireModel):
    """One argument a prompt takes (``get_prompt(name, arguments)``)."""

    name: str
    title: str | None = None
    description: str | None = None
    required: bool | None = None


class Prompt(WireModel):
    """A prompt template as ``list_prompts`` gives it."""

    name: str
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgument] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListPromptsResult(WireModel):
    """Every prompt of the server (``list_prompts`` follows the pages for you)."""

    prompts: list[Prompt]


class PromptMessage(WireModel):
    """One message of a prompt, as ``get_prompt`` returns it."""

    role: Literal["user", "assistant"]
    content: ContentBlock


class GetPromptResult(WireModel):
    """A prompt with its arguments filled in: the ``messages`` to give a model."""

    description: str | None = None
    messages: list[PromptMessage] = Field(default_factory=list[PromptMessage])
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# -------------------------------------------------------------------------------------------- resources


class Resource(WireModel):
    """A resource as ``list_resources`` gives it: read it with ``client.read_resource(uri)``."""

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListResourcesResult(WireModel):
    """Every resource of the server (``list_resources`` follows the pages for you)."""

    resources: list[Resource]


class ReadResourceResult(WireModel):
    """What ``read_resource`` returns: the ``contents`` of the resource (one or more parts)."""

    contents: list[TextResourceContents | BlobResourceContents] = Field(default_factory=list)
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ResourceTemplate(WireModel):
    """A family of resources: ``uri_template`` is an RFC 6570 template such as ``notes://{topic}``."""

    uri_template: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListResourceTemplatesResult(WireModel):
    """Every resource template of the server: ``list_resource_templates()`` followed the cursors."""

    resource_templates: list[ResourceTemplate]


# ------------------------------------------------------------------------------------------- completion


class PromptReference(WireModel):
    """What ``complete()`` completes an argument of: a prompt, by name."""

    type: Literal["ref/prompt"] = "ref/prompt"
    name: str
    title: str | None = None


class ResourceTemplateReference(WireModel):
    """What ``complete()`` completes an argument of: a resource template, by its URI template."""

    type: Literal["ref/resource"] = "ref/resource"
    uri: str


class Completion(WireModel):
    """Suggested values (at most 100); ``total`` and ``has_more`` say whether the server has more."""

    values: list[str]
    total: int | None = None
    has_more: bool | None = None


class CompleteResult(WireModel):
    """Suggested values for a prompt or resource-template argument (``client.complete``)."""

    completion: Completion
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ------------------------------------------------------------------------------------------ elicitation


ElicitationAction = Literal["accept", "decline", "cancel"]
"""How a person answered: ``accept`` (with content, for a form), ``decline`` (said no) or ``cancel``."""


class ElicitRequestFormParams(WireModel):
    """A form question: ``requested_schema`` is a flat JSON Schema object of primitive properties.

    ``form`` is that schema parsed into the normalized model (``mcp_client.schema.FormSchema``): read
    it instead of the raw JSON. The client parses each question once, before a callback sees it
    (refusing schemas outside the spec's subset), and hands the parsed form over on these params.
    """

    mode: Literal["form"] = "form"
    message: str
    requested_schema: dict[str, Any]
    _form: FormSchema | None = PrivateAttr(default=None)

    @classmethod
    def from_form(cls, message: str, form: FormSchema) -> ElicitRequestFormParams:
        """Params for an already parsed ``form`` (its ``raw`` schema is the ``requested_schema``)."""
        params = cls(message=message, requested_schema=dict(form.raw))
        params._form = form
        return params

    @property
    def form(self) -> FormSchema:
        """The question's form, parsed once from ``requested_schema``.

        Params built by the client carry the form it parsed. Params built by hand are parsed on first
        access, which raises ``InvalidElicitationSchemaError`` if the schema is outside the spec.
        """
        if self._form is None:
            self._form = parse_form_schema(self.requested_schema)
        return self._form

    def __eq__(self, other: object) -> bool:
        # The parsed form is derived from requested_schema: whether it was parsed yet does not matter.
        if not isinstance(other, ElicitRequestFormParams):
            return NotImplemented
        return self.model_dump() == other.model_dump()


class ElicitRequestURLParams(WireModel):
    """A URL question: the user should open ``url`` (after consenting) to do something out of band.

    ``elicitation_id`` identifies it for the legacy completion notification; it is ``None`` in the
    2026-07-28 era, where the server learns the outcome when the client retries.
    """

    mode: Literal["url"] = "url"
    message: str
    url: str
    elicitation_id: str | None = None


ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams
"""What an elicitation callback receives, the same in both protocol eras."""


class ElicitResult(WireModel):
    """The answer to a question. ``content`` is only meaningful with ``action="accept"`` in form mode."""

    action: ElicitationAction
    content: dict[str, str | int | float | bool | list[str] | None] | None = None


# --------------------------------------------------------------------------------------------- sampling

Role = Literal["user", "assistant"]
"""Who speaks in a sampling or prompt message."""
IncludeContext = Literal["none", "thisServer", "allServers"]
"""Which MCP context a sampling request asks the app to add to the prompt (a hint the app may ignore)."""
StopReason = str
"""Why sampling stopped: ``"endTurn"``, ``"stopSequence"``, ``"maxTokens"``, ``"toolUse"``, or other."""


class ToolUseContent(WireModel):
    """The model asks to call one of the tools the server offered (sampling with tools)."""

    type: Literal["tool_use"] = "tool_use"
    name: str
    id: str
    input: dict[str, Any] = Field(default_factory=dict[str, Any])
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ToolResultContent(WireModel):
    """The result of a ``ToolUseContent``, sent back to the model in a later user message."""

    type: Literal["tool_result"] = "tool_result"
    tool_use_id: str
    content: list[ContentBlock] = Field(default_factory=list)
    structured_content: Any = None
    is_error: bool | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


SamplingContent = Annotated[TextContent | ImageContent | AudioContent, Field(discriminator="type")]
"""The content of a plain sampling answer: one text, image or audio block."""

SamplingMessageContentBlock = Annotated[
    TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent,
    Field(discriminator="type"),
]
"""One block of a sampling message (tool use and tool results only with ``sampling.tools``)."""


class SamplingMessage(WireModel):
    """One message of the conversation the server wants the model to continue."""

    role: Role
    content: SamplingMessageContentBlock | list[SamplingMessageContentBlock]
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")

    @property
    def content_as_list(self) -> list[Any]:
        """The content as a list of blocks, whether the server sent one block or several."""
        return self.content if isinstance(self.content, list) else [self.content]


class ModelHint(WireModel):
    """A model name hint, to be matched as a substring (``"sonnet"``)."""

    name: str | None = None


class ModelPreferences(WireModel):
    """The server's advisory preferences for choosing a model (priorities from 0 to 1)."""

    hints: list[ModelHint] | None = None
    cost_priority: float | None = None
    speed_priority: float | None = None
    intelligence_priority: float | None = None


class ToolChoice(WireModel):
    """How the model may use the offered tools: ``"auto"`` (the default), ``"required"`` or ``"none"``."""

    mode: Literal["auto", "required", "none"] | None = None


class CreateMessageRequestParams(WireModel):
    """What a ``sampling_callback`` receives: the server wants the app's model to answer ``messages``.

    ``tools`` and ``tool_choice`` come only when the client declared ``sampling_capabilities={"tools": {}}``.
    """

    messages: list[SamplingMessage]
    max_tokens: int
    system_prompt: str | None = None
    model_preferences: ModelPreferences | None = None
    include_context: IncludeContext | None = None
    temperature: float | None = None
    stop_sequences: list[str] | None = None
    metadata: dict[str, Any] | None = None
    tools: list[Tool] | None = None
    tool_choice: ToolChoice | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class CreateMessageResult(WireModel):
    """The model's answer: one block of content, the model's name, and why it stopped."""

    role: Role = "assistant"
    content: SamplingContent
    model: str
    stop_reason: StopReason | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class CreateMessageResultWithTools(WireModel):
    """The model's answer when tools were offered: content may be several blocks, with tool uses."""

    role: Role = "assistant"
    content: SamplingMessageContentBlock | list[SamplingMessageContentBlock]
    model: str
    stop_reason: StopReason | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ------------------------------------------------------------------------------------------------ roots


class Root(WireModel):
    """A folder or file the app works in; ``uri`` must be a ``file://`` URI."""

    uri: str
    name: str | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListRootsResult(WireModel):
    """What a ``list_roots_callback`` returns: every root the server may work in."""

    roots: list[Root] = Field(default_factory=list[Root])
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ---------------------------------------------------------------------------- pausing and resuming (MRTR)


class ElicitRequest(WireModel):
    """An elicitation question inside an ``InputRequiredResult`` (the 2026-07-28 era)."""

    method: Literal["elicitation/create"] = "elicitation/create"
    params: ElicitRequestParams


class CreateMessageRequest(WireModel):
    """A sampling request inside an ``InputRequiredResult`` (the 2026-07-28 era)."""

    method: Literal["sampling/createMessage"] = "sampling/createMessage"
    params: CreateMessageRequestParams


class ListRootsRequest(WireModel):
    """A roots request inside an ``InputRequiredResult`` (the 2026-07-28 era)."""

    method: Literal["roots/list"] = "roots/list"
    params: dict[str, Any] | None = None


class OtherInputRequest(WireModel):
    """A question of a kind this version of the models does not type (kept as the server sent it)."""

    method: str
    params: dict[str, Any] | None = None


InputRequest = Annotated[
    ElicitRequest | CreateMessageRequest | ListRootsRequest | OtherInputRequest,
    Field(union_mode="left_to_right"),
]
"""One question of an ``InputRequiredResult``, keyed by the server in ``input_requests``."""


class Task(WireModel):
    """A durable tool task's state (SEP-2663), as ``tasks/get`` or ``notifications/tasks`` carry it.

    ``status`` is ``working``, ``input_required``, ``completed``, ``failed`` or ``cancelled``;
    ``input_requests`` holds the open questions (``input_required``), ``result`` the tool's
    ``CallToolResult`` as sent (``completed``), ``error`` the JSON-RPC error (``failed``).
    """

    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: float | None = None
    poll_interval_ms: float | None = None
    input_requests: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    @property
    def done(self) -> bool:
        """Whether the task reached a terminal status (completed, failed or cancelled)."""
        return self.status in ("completed", "failed", "cancelled")


class InputRequiredResult(WireModel):
    """A paused call (2026-07-28): the server needs answers before it can finish.

    ``call_tool``/``get_prompt``/``read_resource(..., allow_input_required=True)`` return it instead of
    answering the questions themselves. It round-trips through JSON (``model_dump_json()`` /
    ``model_validate_json()``), so it can be stored and the call resumed later, from another ``Client``
    or process: pass the answers as ``input_responses`` (keyed like ``input_requests``) and
    ``request_state`` unchanged.
    """

    result_type: Literal["input_required"] = "input_required"
    input_requests: dict[str, InputRequest] | None = None
    request_state: str | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ------------------------------------------------------------------------------ what a server tells us


LoggingLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
"""The syslog severities of MCP logging, lowest first."""


class LoggingMessageNotificationParams(WireModel):
    """One log message of the server: what ``logging_callback`` receives."""

    level: LoggingLevel
    logger: str | None = None
    data: Any = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ProgressNotificationParams(WireModel):
    """Progress of one call: ``progress`` grows; ``total`` and ``message`` are optional."""

    progress_token: str | int
    progress: float
    total: float | None = None
    message: str | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ResourceUpdatedNotificationParams(WireModel):
    """``uri`` changed (it may be a sub-resource of the one subscribed to): read it again if it matters."""

    uri: str
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class SubscriptionFilter(WireModel):
    """What a ``listen()`` subscription asked for, or what the server agreed to send."""

    tools_list_changed: bool | None = None
    prompts_list_changed: bool | None = None
    resources_list_changed: bool | None = None
    resource_subscriptions: list[str] | None = None
    task_ids: list[str] | None = None
    """Tool tasks whose ``notifications/tasks`` to send (the tasks extension, SEP-2663)."""


class TaskStatusNotification(WireModel):
    """A task's new state, pushed by the server (``notifications/tasks``): what ``tasks/get`` would say."""

    method: Literal["notifications/tasks"] = "notifications/tasks"
    params: Task


class LoggingMessageNotification(WireModel):
    """A server log message (``notifications/message``); ``logging_callback`` gets its ``params``."""

    method: Literal["notifications/message"] = "notifications/message"
    params: LoggingMessageNotificationParams


class ProgressNotification(WireModel):
    """A progress report (``notifications/progress``); ``progress_callback`` gets its values."""

    method: Literal["notifications/progress"] = "notifications/progress"
    params: ProgressNotificationParams


class ToolListChangedNotification(WireModel):
    """The server's tools changed: list them again if you show them."""

    method: Literal["notifications/tools/list_changed"] = "notifications/tools/list_changed"
    params: dict[str, Any] | None = None


class PromptListChangedNotification(WireModel):
    """The server's prompts changed."""

    method: Literal["notifications/prompts/list_changed"] = "notifications/prompts/list_changed"
    params: dict[str, Any] | None = None


class ResourceListChangedNotification(WireModel):
    """The server's resources changed."""

    method: Literal["notifications/resources/list_changed"] = "notifications/resources/list_changed"
    params: dict[str, Any] | None = None


class ResourceUpdatedNotification(WireModel):
    """A subscribed resource changed: ``params.uri`` says which."""

    method: Literal["notifications/resources/updated"] = "notifications/resources/updated"
    params: ResourceUpdatedNotificationParams


class UnknownNotification(WireModel):
    """A notification this client has no model for, kept as the server sent it."""

    method: str
    params: dict[str, Any] | None = None


ServerNotification = (
    ToolListChangedNotification
    | PromptListChangedNotification
    | ResourceListChangedNotification
    | ResourceUpdatedNotification
    | TaskStatusNotification
    | LoggingMessageNotification
    | ProgressNotification
    | UnknownNotification
)
"""What ``message_handler`` and ``listen()`` hand to the app: a typed model where one exists."""
