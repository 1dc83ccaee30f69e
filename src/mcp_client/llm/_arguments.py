"""The model's arguments checked against the tool's own ``inputSchema``, where the export was looser.

A provider holds the model to the schema it was given, at most. Where that schema accepts more than the
tool's (``_schema.export_root`` merged a root union into one object, dropped a root ``not``; Gemini's
declaration cut a reference short), a model's call can break the tool's schema without the provider
noticing. The bridge then checks the arguments itself before the call: a mistake becomes an error
result that says what is wrong (the model can correct it), and the server is not called.

Tools whose export says all their schema says are not checked here (the server checks its arguments,
as it always did). The validator is ``jsonschema-rs``, as for output schemas (``_schema.output_schema``),
imported only when a loose tool is first called; a schema it cannot compile is left to the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_client._schema.output_schema import json_path
from mcp_client.llm._gemini import parameters_of
from mcp_client.llm._schema import printable, root_of
from mcp_client.llm._view import ExportedTool

if TYPE_CHECKING:
    from jsonschema_rs import Validator

_MAX_ERRORS = 3


def needs_check(tool: ExportedTool) -> bool:
    """Whether some export of ``tool`` accepts arguments its own schema refuses."""
    loose: bool = tool.converted(
        "arguments-loose",
        lambda t: root_of(t).loose or bool(parameters_of(t).cut),
    )
    return loose


def _validator(tool: ExportedTool) -> Validator | None:
    def build(t: ExportedTool) -> Validator | None:
        import jsonschema_rs  # a loose tool's first call: load the validator library now

        try:
            return jsonschema_rs.validator_for(dict(t.tool.input_schema), offline=True)
        except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError):
            return None  # not valid JSON Schema: the server decides

    made: Validator | None = tool.converted("arguments-validator", build)
    return made


def problem(tool: ExportedTool, arguments: dict[str, Any]) -> str | None:
    """Why ``arguments`` break the tool's own schema (for the model to read), or ``None``."""
    if not needs_check(tool):
        return None
    validator = _validator(tool)
    if validator is None or validator.is_valid(arguments):
        return None
    errors = sorted(validator.iter_errors(arguments), key=lambda e: -len(e.instance_path))
    found = "; ".join(
        f"at {json_path(e.instance_path)}: {printable(e.message)}" for e in errors[:_MAX_ERRORS]
    )
    more = f" (and {len(errors) - _MAX_ERRORS} more)" if len(errors) > _MAX_ERRORS else ""
    text = f"the arguments do not match the tool's input schema, {found}{more}."
    root = root_of(tool)
    if root.note:
        text += f" {printable(root.note, 700)}"
    if not root.takes_objects:
        return text + " Do not call this tool again: no arguments can satisfy its schema."
    return text + " Correct the arguments and call again."
