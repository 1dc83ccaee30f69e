"""Pydantic models for what crosses the wire, with the names users know from the MCP docs.

Fields are snake_case in Python and camelCase on the wire (``requested_schema`` <-> ``requestedSchema``);
both spellings are accepted when building a model. Unknown keys from newer servers are kept, not dropped,
so nothing a server sends is lost. ``model_dump_wire()`` gives the JSON-ready camelCase dict.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError
from pydantic.alias_generators import to_camel

from mcp_client._schema_model import FormSchema
from mcp_client._schema_parse import parse_form_schema

__all__ = [
    "AudioContent",
    "BlobResourceContents",
    "CallToolResult",
    "ContentBlock",
    "ElicitRequestFormParams",
    "ElicitRequestParams",
    "ElicitRequestURLParams",
    "ElicitResult",
    "ElicitationAction",
    "EmbeddedResource",
    "GetPromptResult",
    "ImageContent",
    "Implementation",
    "ListPromptsResult",
    "ListResourcesResult",
    "ListToolsResult",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "ReadResourceResult",
    "Resource",
    "ResourceContents",
    "ResourceLink",
    "ServerCapabilities",
    "TextContent",
    "TextResourceContents",
    "Tool",
]


class WireModel(BaseModel):
    """Base of every wire model: camelCase aliases, snake_case names, unknown keys kept."""

    model_config = ConfigDict(
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

    @classmethod
    def from_server(cls, raw: object) -> ServerCapabilities:
        """What a server declared, never raising: a malformed entry (``"tools": true``) is left out.

        A server's self-description is not worth failing a connection over; what it does is learned
        from its answers.
        """
        if not isinstance(raw, dict):
            return cls()
        entries = {key: value for key, value in raw.items() if isinstance(key, str)}  # pyright: ignore[reportUnknownVariableType]
        for _ in range(2):
            try:
                return cls.model_validate(entries)
            except ValidationError as exc:
                malformed = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
                entries = {key: value for key, value in entries.items() if key not in malformed}  # pyright: ignore[reportUnknownVariableType]
        return cls()


# ---------------------------------------------------------------------------------------------- content


class TextContent(WireModel):
    type: Literal["text"] = "text"
    text: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ImageContent(WireModel):
    type: Literal["image"] = "image"
    data: str
    mime_type: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class AudioContent(WireModel):
    type: Literal["audio"] = "audio"
    data: str
    mime_type: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ResourceContents(WireModel):
    uri: str
    mime_type: str | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class TextResourceContents(ResourceContents):
    text: str


class BlobResourceContents(ResourceContents):
    blob: str


class ResourceLink(WireModel):
    type: Literal["resource_link"] = "resource_link"
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class EmbeddedResource(WireModel):
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

    content: list[ContentBlock] = Field(default_factory=list)  # pyright: ignore[reportUnknownVariableType]
    structured_content: Any = None
    is_error: bool = False
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ---------------------------------------------------------------------------------------------- prompts


class PromptArgument(WireModel):
    name: str
    title: str | None = None
    description: str | None = None
    required: bool | None = None


class Prompt(WireModel):
    name: str
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgument] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListPromptsResult(WireModel):
    prompts: list[Prompt]


class PromptMessage(WireModel):
    role: Literal["user", "assistant"]
    content: ContentBlock


class GetPromptResult(WireModel):
    description: str | None = None
    messages: list[PromptMessage] = Field(default_factory=list[PromptMessage])
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# -------------------------------------------------------------------------------------------- resources


class Resource(WireModel):
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListResourcesResult(WireModel):
    resources: list[Resource]


class ReadResourceResult(WireModel):
    contents: list[TextResourceContents | BlobResourceContents] = Field(default_factory=list)  # pyright: ignore[reportUnknownVariableType]
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


# ------------------------------------------------------------------------------------------ elicitation


ElicitationAction = Literal["accept", "decline", "cancel"]


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
