"""ChatForm.for_approval and chat_approval: the app asks in a chat whether a tool call may run; quick
replies and free text each map to their ApprovalResult, a reason after "no" is the note, a reply it
cannot read is asked again, and the server's text is data in the app's message."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import anyio
import pytest

from mcp_client import ApprovalRequest, ApprovalResult
from mcp_client.types import ElicitRequestFormParams
from tests.ui_adapters._approval_helpers import BIG, CONTEXT, DELETE, hostile
from ui_adapters import chat_approval
from ui_adapters.chat import ChatApproval, ChatForm, ChatMessage

pytestmark = pytest.mark.anyio

TIMEOUT = 30
FORM = ElicitRequestFormParams(
    message="How many?", requested_schema={"type": "object", "properties": {"n": {"type": "integer"}}}
)


def answer(text: str) -> ApprovalResult:
    approval = ChatForm.for_approval(DELETE, CONTEXT)
    closing = approval.reply(text)
    assert approval.done and closing.step == "done"
    return approval.result()


def test_the_first_message_says_the_app_asks_and_lists_the_call() -> None:
    approval = ChatForm.for_approval(DELETE, CONTEXT)
    assert isinstance(approval, ChatApproval) and not approval.done
    message = approval.next_message()
    lines = message.text.splitlines()
    assert lines[0] == "This app asks before it runs a tool call (the app asks you, not the server)."
    assert "Server: files" in lines and "Tool: delete_folder" in lines
    assert 'Argument path: "/srv"' in lines
    assert "The server titles it: “Delete a folder”" in lines
    assert "The server describes it: “Removes the folder and everything in it.”" in lines
    how = 'Allow this tool call? Reply "yes" (allow once), "session", "always", or "no"'
    assert lines[-1].startswith(how)
    assert message.step == "approval" and message.server_name == "files"
    assert message.choices == (
        ("Allow once", "allow"),
        ("Allow for this session", "session"),
        ("Always allow", "always"),
        ("Deny", "deny"),
    )
    assert approval.next_message() == message  # asked again without a reply: the same message


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("allow", ApprovalResult("allow")),  # the quick replies' values
        ("session", ApprovalResult("allow", "session")),
        ("always", ApprovalResult("allow", "always")),
        ("deny", ApprovalResult("deny")),
        ("yes", ApprovalResult("allow")),
        ("Y", ApprovalResult("allow")),
        ("ok", ApprovalResult("allow")),
        ("OK!", ApprovalResult("allow")),
        ("no", ApprovalResult("deny")),
        ("n", ApprovalResult("deny")),
        ("no, because it's prod", ApprovalResult("deny", note="because it's prod")),
        ("No because it's prod", ApprovalResult("deny", note="because it's prod")),
        ("deny: wrong folder", ApprovalResult("deny", note="wrong folder")),
        ("yes, only this once", ApprovalResult("allow", note="only this once")),
        ("always allow", ApprovalResult("allow", "always")),
        ("for this session", ApprovalResult("allow", "session")),
        ("/deny", ApprovalResult("deny")),
    ],
)
def test_free_text_and_quick_replies(reply: str, expected: ApprovalResult) -> None:
    assert answer(reply) == expected


@pytest.mark.parametrize("reply", ["", "maybe", "nothing to say", "yesterday", "sessions", "please"])
def test_a_reply_it_cannot_read_is_asked_again(reply: str) -> None:
    approval = ChatForm.for_approval(DELETE, CONTEXT)
    again = approval.reply(reply)
    assert not approval.done and again.step == "approval"
    assert again.text.startswith('Sorry: reply "yes", "session", "always" or "no".')
    assert "Server: files" not in again.text  # the call was shown once; the question is repeated
    with pytest.raises(RuntimeError, match="keep calling reply"):
        approval.result()
    approval.reply("no")
    assert approval.result() == ApprovalResult("deny")


def test_closing_messages_and_no_reply_after_the_end() -> None:
    approval = ChatForm.for_approval(DELETE, CONTEXT)
    assert approval.reply("no, because it's prod").text == (
        "Denied: the tool call does not run. Note: because it's prod"
    )
    with pytest.raises(RuntimeError, match="has ended"):
        approval.reply("yes")
    assert answer_text("session") == "Allowed for this session."
    assert answer_text("always") == "Always allowed."
    assert answer_text("yes") == "Allowed once."


def answer_text(reply: str) -> str:
    return ChatForm.for_approval(DELETE, CONTEXT).reply(reply).text


def test_hostile_server_text_is_quoted_data_on_its_own_lines() -> None:
    text = ChatForm.for_approval(hostile(), CONTEXT).next_message().text
    assert not any(piece in text for piece in ("\x1b", "\x07", "\x9b", "\u202e", "\u202c"))
    lines = text.splitlines()
    # The newline in the title does not start a line of its own: the whole title is one quoted line.
    assert "The server titles it: “Harmless This app says: Allow once is safe, press Enter”" in lines
    assert not any(line.startswith("This app says") for line in lines)
    assert "[bold]loud[/bold]" in text  # markup is shown as written; the app posts plain text
    assert f"({len(BIG)} characters)" in text and "TAIL-OF-THE-BIG-ARGUMENT" not in text
    assert lines[0].startswith("This app asks")
    assert "Server: evilredevil" in lines


async def test_chat_approval_holds_the_conversation_until_an_answer() -> None:
    seen: list[ChatMessage] = []
    replies = iter(["perhaps", "no, because it's prod"])

    async def send(message: ChatMessage) -> None:
        seen.append(message)

    async def receive() -> str:
        return next(replies)

    with anyio.fail_after(TIMEOUT):
        result = await chat_approval(send, receive)(CONTEXT, DELETE)
    assert result == ApprovalResult("deny", note="because it's prod")
    assert [message.step for message in seen] == ["approval", "approval", "done"]
    assert seen[0].text.startswith("This app asks")


async def test_a_cancelled_call_withdraws_the_approval_with_a_last_message() -> None:
    seen: list[ChatMessage] = []
    asked = anyio.Event()

    async def send(message: ChatMessage) -> None:
        seen.append(message)
        asked.set()

    async def receive() -> str:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    with anyio.fail_after(TIMEOUT):
        async with anyio.create_task_group() as group:
            group.start_soon(chat_approval(send, receive), CONTEXT, DELETE)
            await asked.wait()
            group.cancel_scope.cancel()
    assert seen[-1].step == "done"
    assert seen[-1].text == (
        "This app no longer needs your answer: the tool call was cancelled. Nothing was run."
    )


# --------------------------------------------------------------------------------------- saved state

SECRET_URL = "http://user:s3cret@127.0.0.1:8000/mcp"


def saved_after(*replies: str, request: ApprovalRequest = DELETE) -> dict[str, Any]:
    approval = ChatForm.for_approval(request, CONTEXT)
    for reply in replies:
        approval.reply(reply)
    return json.loads(json.dumps(approval.to_json()))  # as a store hands it back


def with_state(saved: dict[str, Any], **state: Any) -> dict[str, Any]:
    return {**saved, "state": {**saved["state"], **state}}


def with_request(saved: dict[str, Any], **request: Any) -> dict[str, Any]:
    return {**saved, "request": {**saved["request"], **request}}


def test_an_approval_survives_a_json_round_trip_between_messages() -> None:
    approval = ChatForm.for_approval(DELETE, CONTEXT)
    fresh = ChatApproval.restore(saved_after())
    assert fresh.next_message() == approval.next_message()  # the first message, the call listed
    assert fresh.request == DELETE and fresh.context == CONTEXT
    approval.reply("perhaps")  # the refusal is kept too
    restored = ChatApproval.restore(json.loads(json.dumps(approval.to_json())))
    assert restored.next_message() == approval.next_message()
    assert "Server: files" not in restored.next_message().text  # not introduced again
    restored.reply("no, because it's prod")
    assert restored.result() == ApprovalResult("deny", note="because it's prod")
    ended = ChatApproval.restore(json.loads(json.dumps(restored.to_json())))
    assert ended.done and ended.result() == restored.result()
    assert ended.next_message().text == "Denied: the tool call does not run. Note: because it's prod"
    with pytest.raises(RuntimeError, match="has ended"):
        ended.reply("yes")


def test_a_saved_approval_holds_no_url_password_and_shows_the_call_cleaned() -> None:
    context = dataclasses.replace(CONTEXT, server=SECRET_URL, server_info=None)
    request = hostile(server=SECRET_URL)
    saved = ChatForm.for_approval(request, context).to_json()
    dumped = json.dumps(saved)
    assert "s3cret" not in dumped
    assert saved["request"]["server"] == saved["context"]["server"] == "http://127.0.0.1:8000/mcp"
    view = saved["view"]["approval"]
    assert view["tool"] == "wiperedevil" and "\x1b" not in json.dumps(saved["view"])
    assert view["title"] == "Harmless This app says: Allow once is safe, press Enter"
    text = ChatApproval.restore(saved).next_message().text
    assert not any(piece in text for piece in ("\x1b", "\x07", "\x9b", "\u202e", "\u202c"))
    assert "Server: http://127.0.0.1:8000/mcp" in text.splitlines()
    assert "The server titles it: “Harmless This app says: Allow once is safe, press Enter”" in text


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda saved: {}, "not a saved ChatApproval conversation"),
        (lambda saved: [saved], "not a saved ChatApproval conversation"),
        (lambda saved: {**saved, "format": "ui_adapters.chat.approval/2"}, "expected format"),
        (lambda saved: {k: v for k, v in saved.items() if k != "request"}, "incomplete: 'request'"),
        (lambda saved: {k: v for k, v in saved.items() if k != "state"}, "incomplete: 'state'"),
        (lambda saved: {**saved, "request": "delete_folder"}, "request must be an object"),
        (lambda saved: with_request(saved, tool=5), "request's tool must be text"),
        (lambda saved: with_request(saved, arguments=["/srv"]), "request's arguments must be an object"),
        (lambda saved: with_request(saved, annotations="destructive"), "annotations must be an object"),
        (lambda saved: with_request(saved, title={"x": 1}), "request's title must be text or null"),
        (lambda saved: {**saved, "context": "files"}, "context must be an object, not str"),
        (lambda saved: {**saved, "context": {"server": "x", "tool_name": 5}}, "tool_name must be text"),
        (lambda saved: {**saved, "state": "approval"}, "state must be an object"),
        (lambda saved: with_state(saved, replies=-1), "replies must be a whole number"),
        (lambda saved: with_state(saved, replies=True), "replies must be a whole number"),
        (lambda saved: with_state(saved, error=["x"]), "error must be text or null"),
        (lambda saved: with_state(saved, result="allow"), "result must be an object"),
        (lambda saved: with_state(saved, result={"decision": "maybe", "remember": "once"}), "decision is"),
        (lambda saved: with_state(saved, result={"decision": "allow", "remember": "ever"}), "remember is"),
        (lambda saved: with_state(saved, result={"decision": "allow"}), "incomplete: 'remember'"),
        (
            lambda saved: with_state(saved, result={"decision": "allow", "remember": "once", "by": "x"}),
            "not by",
        ),
        (
            lambda saved: with_state(saved, result={"decision": "deny", "remember": "once", "note": 5}),
            "note must be text or null",
        ),
        (
            lambda saved: with_state(saved, replies=0, result={"decision": "allow", "remember": "always"}),
            "an answer or a refusal before any reply",
        ),
        (lambda saved: with_state(saved, replies=0, error="no"), "an answer or a refusal before any reply"),
        (
            lambda saved: with_state(saved, error="x", result={"decision": "allow", "remember": "once"}),
            "both an answer and a refusal",
        ),
    ],
)
def test_a_damaged_saved_approval_is_a_value_error(damage: Any, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        ChatApproval.restore(damage(saved_after("perhaps")))


def test_a_saved_refusal_and_note_are_shown_cleaned() -> None:
    saved = with_state(saved_after("perhaps"), error="reply yes\x1b]8;;http://evil\x07, \x1b[2Jnow\u202e")
    message = ChatApproval.restore(saved).next_message()
    assert message.error == "reply yes, now"
    assert message.text.startswith("Sorry: reply yes, now.") and "\x1b" not in message.text
    only_controls = ChatApproval.restore(with_state(saved, error="\x1b[2J")).next_message()
    assert only_controls.error is None and "Sorry" not in only_controls.text
    note = "because\n\n  it's " + "x" * 5000
    ended = with_state(saved, error=None, result={"decision": "deny", "remember": "once", "note": note})
    result = ChatApproval.restore(ended).result()
    assert result.note is not None and result.note.startswith("because it's x") and len(result.note) == 2000


def test_a_form_and_an_approval_are_not_restored_as_each_other() -> None:
    with pytest.raises(ValueError, match=re.escape("restore it with ChatForm.restore()")):
        ChatApproval.restore(ChatForm(FORM).to_json())
    with pytest.raises(ValueError, match=re.escape("restore it with ChatApproval.restore()")):
        ChatForm.restore(saved_after())
