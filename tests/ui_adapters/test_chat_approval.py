"""ChatForm.for_approval and chat_approval: the app asks in a chat whether a tool call may run; quick
replies and free text each map to their ApprovalResult, a reason after "no" is the note, a reply it
cannot read is asked again, and the server's text is data in the app's message."""

from __future__ import annotations

import anyio
import pytest

from mcp_client import ApprovalResult
from tests.ui_adapters._approval_helpers import BIG, CONTEXT, DELETE, hostile
from ui_adapters import chat_approval
from ui_adapters.chat import ChatApproval, ChatForm, ChatMessage

pytestmark = pytest.mark.anyio

TIMEOUT = 30


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
