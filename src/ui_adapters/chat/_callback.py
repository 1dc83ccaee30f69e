"""``chat_callback``: an ``elicitation_callback`` for apps that can await the user's next message.

A websocket, a Discord or Slack bot, a terminal chat: anything with "post this" (``send``) and "wait
for what the user says next" (``receive``). Questions are asked one at a time, in the order they come
(two questions interleaved in one conversation would be unreadable); a question whose call goes away
while it is asked is withdrawn with a last message saying so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import anyio

from mcp_client import (
    ApprovalCallback,
    ApprovalRequest,
    ApprovalResult,
    ClientRequestContext,
    ElicitationCallback,
)
from mcp_client.types import ElicitRequestParams, ElicitResult
from ui_adapters.chat._approval import ChatApproval
from ui_adapters.chat._form import ChatForm, Clock
from ui_adapters.chat._message import ChatMessage

__all__ = ["chat_approval", "chat_callback"]

_WITHDRAWN_SEND_SECONDS = 2.0


def chat_callback(
    send: Callable[[ChatMessage], Awaitable[None]],
    receive: Callable[[], Awaitable[str]],
    *,
    now: Clock | None = None,
) -> ElicitationCallback:
    """An ``elicitation_callback`` that holds each question as a conversation through a ``ChatForm``.

    ``send`` posts a ``ChatMessage`` (its text, and its ``choices`` as buttons where the platform has
    them); ``receive`` returns the user's next message (or a tapped button's value). After the user sends,
    declines or cancels, one closing message is posted and the answer goes back to the server. If the
    call that asked is cancelled meanwhile, a closing "withdrawn" message is posted (bounded to two
    seconds) and the cancellation goes on.
    """
    turn = anyio.Lock()

    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        async with turn:
            form = ChatForm(params, context, now=now)
            try:
                message = form.next_message()
                while not form.done:
                    await send(message)
                    message = form.reply(await receive())
                await send(message)
            except anyio.get_cancelled_exc_class():
                with anyio.move_on_after(_WITHDRAWN_SEND_SECONDS, shield=True):
                    await send(_withdrawn(form))
                raise
            return form.result()

    return callback


def chat_approval(
    send: Callable[[ChatMessage], Awaitable[None]], receive: Callable[[], Awaitable[str]]
) -> ApprovalCallback:
    """An ``approval_callback`` that asks in the chat through ``ChatForm.for_approval``.

    ``send`` and ``receive`` as for ``chat_callback``. The app asks (the first message says so, and
    lists the call); after the answer one closing message is posted. If the call is cancelled
    meanwhile, a closing "withdrawn" message is posted (bounded to two seconds) and the cancellation
    goes on. Approvals are asked one at a time.
    """
    turn = anyio.Lock()

    async def callback(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        async with turn:
            approval = ChatForm.for_approval(request, context)
            try:
                message = approval.next_message()
                while not approval.done:
                    await send(message)
                    message = approval.reply(await receive())
                await send(message)
            except anyio.get_cancelled_exc_class():
                with anyio.move_on_after(_WITHDRAWN_SEND_SECONDS, shield=True):
                    await send(_approval_withdrawn(approval))
                raise
            return approval.result()

    return callback


def _approval_withdrawn(approval: ChatApproval) -> ChatMessage:
    text = "This app no longer needs your answer: the tool call was cancelled. Nothing was run."
    return ChatMessage(text=text, server_name=approval.server_name, step="done")


def _withdrawn(form: ChatForm) -> ChatMessage:
    text = f"{form.server_name} · This question was withdrawn: the call that asked it has ended."
    return ChatMessage(text=text, server_name=form.server_name, step="done")
