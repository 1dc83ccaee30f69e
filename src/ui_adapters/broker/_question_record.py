"""A ``PendingQuestion`` as the JSON a store keeps, and back: what another worker needs to show and check it.

The record holds the UI's view (``to_json()``), the question as the server sent it (the wire
``elicitation/create`` request, so the answer is validated with the same form model on any worker), and
who asked (server, its name, era, place in the round, the tool whose call asks). Never a client, a
header or a token; the server URL loses any ``user:password@``, in ``server`` and wherever it stands
for the server's name (``server_name`` of a server that gave none). Records written before a key was kept
load with it unset.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from mcp_client import ClientRequestContext
from mcp_client.types import ElicitRequest, ElicitResult, Implementation
from ui_adapters.broker._pending_item import apply_stored
from ui_adapters.broker.pending import PendingQuestion
from ui_adapters.broker.stores import redact_server
from ui_adapters.text import sanitize


def context_record(context: ClientRequestContext) -> dict[str, Any]:
    """Who asked, as JSON a store keeps: the server URL without ``user:password@``, never a token."""
    return {
        "server": redact_server(context.server),
        "server_info": context.server_info.model_dump_wire() if context.server_info is not None else None,
        "protocol_version": context.protocol_version,
        "era": context.era,
        "input_key": context.input_key,
        "question_index": context.question_index,
        "question_count": context.question_count,
        "task_id": context.task_id,
        "config_name": context.config_name,
        "tool_name": context.tool_name,
    }


def context_from_record(stored: Mapping[str, Any]) -> ClientRequestContext:
    """The ``ClientRequestContext`` that ``context_record`` described."""
    info = stored.get("server_info")
    return ClientRequestContext(
        server=str(stored["server"]),
        server_info=Implementation.model_validate(info) if info is not None else None,
        protocol_version=str(stored["protocol_version"]),
        era=stored["era"],
        input_key=stored.get("input_key"),
        question_index=int(stored.get("question_index", 1)),
        question_count=int(stored.get("question_count", 1)),
        task_id=stored.get("task_id"),
        config_name=stored.get("config_name"),  # records stored before these were kept have neither
        tool_name=stored.get("tool_name"),
    )


def question_record(question: PendingQuestion, timeout: float | None) -> dict[str, Any]:
    context = question.context
    view = question.to_json()
    view["server"] = redact_server(view["server"])
    # A server with no name is named by its URL: the name shown loses the credentials too.
    cleaned = dataclasses.replace(context, server=view["server"])
    view["server_name"] = sanitize(cleaned.server_name, single_line=True)
    return {
        "id": question.id,
        "call_id": question.call_id,
        "created_at": question.created_at.isoformat(),
        "timeout": timeout,
        "view": view,
        "request": ElicitRequest(params=question.params).model_dump_wire(),
        "context": context_record(context),
    }


def question_from_entry(entry: Mapping[str, Any]) -> PendingQuestion:
    """The question a store entry describes, with its status and answer as stored."""
    record = entry["record"]
    stored = record["context"]
    context = context_from_record(stored)
    question = PendingQuestion(
        context,
        ElicitRequest.model_validate(record["request"]).params,
        timeout=record.get("timeout"),
        call_id=record.get("call_id"),
        question_id=str(record["id"]),
        created_at=datetime.fromisoformat(record["created_at"]),
    )
    apply_entry(question, entry)
    return question


def apply_entry(question: PendingQuestion, entry: Mapping[str, Any] | None) -> None:
    """Give ``question`` the outcome the store has for it (an expired entry: withdrawn)."""
    apply_stored(question, entry, ElicitResult.model_validate, ElicitResult(action="cancel"))


def result_wire(result: ElicitResult | None) -> dict[str, Any] | None:
    return result.model_dump_wire() if result is not None else None
