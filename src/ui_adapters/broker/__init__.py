"""Questions for apps that answer them in their own UI: a web page, a chat, a notebook, later.

``QuestionBroker`` is an elicitation callback that asks nobody itself. Each question becomes a
``PendingQuestion`` the app can list (``pending()``) or receive as it arrives (``async for question in
broker``), show however it likes (``question.to_json()`` is ready for a browser), and answer from any
task (``answer``, ``decline``, ``cancel``). The tool call that asked waits meanwhile, and carries on
with the answer the moment it is given::

    broker = QuestionBroker(timeout=3600)
    async with Client(url, elicitation_callback=broker) as client:
        ...                                      # calls made here may ask questions
    # elsewhere, e.g. in a web handler:
    for question in broker.pending():
        show(question.to_json())
    await broker.answer(question_id, {"confirm": True})

Answers are validated with the same form model the client uses before sending, so a bad answer is
refused at ``answer`` (``InvalidElicitationContentError``) and the question stays open for a better one.
A question not answered within ``timeout`` seconds is cancelled. One broker may serve several clients.

In the 2026-07-28 era the call need not wait: ``broker.call_tool(client, ...)`` releases it as a
``PausedCall`` (``ui_adapters.broker.paused``) whose questions wait here like the others, survive a restart as
JSON, and are sent with ``broker.resume(call, client)`` once answered.

A tool the server runs as a task (``Client(..., tasks=True)``) asks its questions here too, each
``question.context.task_id`` naming the task; while ``await task.result()`` waits (in a background
task of the app), they sit in ``pending()`` like any other, and an answer goes back with
``tasks/update``::

    task = await client.call_tool("search_logs", {"query": "timeout"}, as_task=True)
    tg.start_soon(finish, task)                  # awaits task.result(), stores it
    # later, in a web handler:
    for question in broker.pending():            # the task's question, with question.context.task_id
        show(question.to_json())

Several workers (or a restart) share questions through a store (``ui_adapters.broker.stores``)::

    async with QuestionBroker(store=RedisStore(url)) as broker:   # or SqliteStore(path)
        ...

Then ``pending()`` and ``async for`` show every worker's questions, an answer given on any worker
reaches the call waiting on another, paused calls live in the store (any worker resumes them), and a
worker that dies has its waiting questions marked ``withdrawn`` once its lease (``lease`` seconds) ends.

Tool tasks live in the store too (``ui_adapters.broker.tasks``): ``broker.call_tool(client, name,
args, as_task=True)`` starts one and follows it in the background (its questions in ``pending()``);
``broker.adopt_tasks(client)`` lets this worker take over, exactly once, the tasks of a worker that
died; ``await broker.describe_task(task_id)`` gives any worker its status and, once it ended, its
result::

    async with QuestionBroker(store=RedisStore(url)) as broker, Client(url, tasks=True,
                                                                       elicitation_callback=broker) as c:
        broker.adopt_tasks(c)
        task = await broker.call_tool(c, "search_logs", {"query": "timeout"}, as_task=True)
        ...                                  # later, on any worker:
        await broker.describe_task(task.id)  # {"status": "completed", "result": {...}, ...}

The package: ``QuestionBroker`` (here), ``PendingQuestion`` (``ui_adapters.broker.pending``),
``PausedCall`` (``ui_adapters.broker.paused``), the stores (``ui_adapters.broker.stores``: the seam,
``MemoryStore``, ``stores.sqlite``, ``stores.redis``) and tool tasks kept in a store
(``ui_adapters.broker.tasks``). Every public name is importable from ``ui_adapters`` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ui_adapters._lazy import lazy_names

if TYPE_CHECKING:
    from ui_adapters.broker._broker import QuestionBroker
    from ui_adapters.broker.pending import QuestionNotPendingError

__all__ = ["QuestionBroker", "QuestionNotPendingError"]

_WHERE = {  # imported on first use: ``ui_adapters.broker.pending`` alone does not load the broker
    "QuestionBroker": "ui_adapters.broker._broker",
    "QuestionNotPendingError": "ui_adapters.broker.pending",
}


__getattr__: Callable[[str], Any]
__dir__: Callable[[], list[str]]
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
