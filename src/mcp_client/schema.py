"""The one normalized model of an elicitation form, shared by the answer validator and every UI adapter.

A server's ``requested_schema`` is raw JSON Schema restricted to a flat object of primitive properties
(MCP spec, "Elicitation", PrimitiveSchemaDefinition). ``parse_form_schema`` turns it into a
``FormSchema``: a list of ``FormField`` s, each with one ``FieldKind``, a label, help text, a default,
constraints and, for choices, labelled options. The client parses each question once and hands the
result to the callback as ``ElicitRequestFormParams.form``; adapters never read raw JSON Schema.

``FormSchema.fill_defaults`` fills the schema's defaults into an answer (SEP-1034) and
``FormSchema.validate_content`` checks an answer before it is sent. Both raise only the documented
errors: ``InvalidElicitationSchemaError`` and ``InvalidElicitationContentError``.

Policies for what the spec leaves open (callers may rely on them):

* **Unknown keywords are ignored, the field is still rendered.** A keyword outside the spec's vocabulary
  (``pattern``, ``exclusiveMinimum``, ``multipleOf``, ``examples``, ``x-...``; the official server lets
  some through) changes nothing; the server is expected to validate again. Keywords that change the
  *shape* of a property (``$ref``, ``anyOf``/``allOf``/``not``, ``properties``, ``items``, ``enum``,
  ``oneOf``, ``const``...) are refused wherever the subset does not use them, because ignoring them
  would render the wrong form.
* **Unknown ``format`` values are refused** (only ``email``, ``uri``, ``date``, ``date-time`` exist).
* **Constraints must be well typed and consistent**: lengths and item counts are non-negative integers,
  bounds are finite numbers, and a lower bound may not exceed its upper bound. A choice may not also
  carry ``minLength``/``maxLength``/``format``.
* **Labels:** a ``oneOf``/``anyOf`` option without ``title``, or an empty title or ``enumNames`` entry,
  is labelled with its value; ``enumNames`` is also read inside a multi choice's ``items``.
* **A default that does not fit its field is dropped** (``FormField.default`` is ``None``); it never
  makes the schema invalid. A ``null`` ``title``, ``description`` or ``default`` counts as absent.
* The envelope's ``title``, ``description``, ``$schema`` and ``$defs`` are ignored; a missing ``type``
  or ``properties`` is tolerated (an object with no properties: a confirm-only question).
"""

from mcp_client._schema.model import AnswerValue, FieldKind, FormField, FormSchema, Option
from mcp_client._schema.parse import parse_form_schema

__all__ = [
    "AnswerValue",
    "FieldKind",
    "FormField",
    "FormSchema",
    "Option",
    "parse_form_schema",
]
