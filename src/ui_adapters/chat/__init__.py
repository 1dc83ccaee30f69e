"""Questions answered inside a chat conversation: a form becomes messages, quick replies and free text.

::

    from ui_adapters.chat import chat_callback

    async with Client(url, elicitation_callback=chat_callback(send, receive)) as client:
        ...

* ``ChatForm``: one question as a conversation, independent of any chat platform (``next_message()``,
  ``reply(text)``, ``done``, ``result()``, ``to_json()`` / ``ChatForm.restore()`` for bots that keep the
  conversation in a store between messages).
* ``ChatMessage``: what to post: text, quick replies as ``(label, value)``, a link with its real host.
* ``chat_callback(send, receive)``: an ``elicitation_callback`` for apps that can await the next message.
* ``ChatForm.for_approval(request, context)`` (a ``ChatApproval``) and ``chat_approval(send, receive)``:
  the app's own "may this tool call run?" (``mcp_client.ToolPolicy``) as a conversation (kept between
  messages with ``to_json()`` / ``ChatApproval.restore()``, as a form is), and the
  ``approval_callback`` that holds it.

Free text is read per field: numbers with separators and units, yes/no words, a choice by its label,
number or the start of its name, dates in words ("24 Dec", "next friday") through ``dateparser``
(``pip install 'mcp-elicit-client[chat]'``; without it only ISO dates are read, and only those are offered).
"""

from ui_adapters.chat._approval import ChatApproval
from ui_adapters.chat._callback import chat_approval, chat_callback
from ui_adapters.chat._form import ChatForm
from ui_adapters.chat._message import ChatMessage

__all__ = ["ChatApproval", "ChatForm", "ChatMessage", "chat_approval", "chat_callback"]
