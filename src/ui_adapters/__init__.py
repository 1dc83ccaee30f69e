"""Ready-made elicitation callbacks for ``mcp_client``: terminal forms, URL consent, policies, canned answers.

::

    from ui_adapters import terminal_callback

    ui = terminal_callback()            # forms in the terminal, links after consent
    async with Client(url, elicitation_callback=ui,
                      elicitation_complete_callback=ui.elicitation_complete_callback) as client:
        ...

Names are imported on first use (module ``__getattr__``), so ``import ui_adapters`` stays cheap and
rich / prompt_toolkit are only loaded when a terminal adapter is actually used.

* ``TerminalFormAdapter`` (``ui_adapters.terminal``): asks form questions field by field.
* ``UrlAdapter`` (``ui_adapters.url``): shows a link with its real host and warnings, opens it on consent.
* ``ElicitationRouter``, ``terminal_callback`` (``ui_adapters.routing``): one callback from two adapters.
* ``always_decline``, ``always_cancel``, ``StopAskingPolicy`` (``ui_adapters.policies``).
* ``CannedAnswers`` (``ui_adapters.canned``): prepared answers for tests; pytest fixture in
  ``ui_adapters.pytest_plugin``. ``CannedSampling`` (``ui_adapters.canned_sampling``): the same for
  sampling requests.
* Approving tool calls (``mcp_client.ToolPolicy``): ``terminal_approval`` (``ui_adapters.terminal``),
  ``browser_approval`` (``ui_adapters.browser``), ``chat_approval`` (``ui_adapters.chat``),
  ``textual_approval`` (``ui_adapters.textual``) and, for
  tests, ``canned_approvals`` (``ui_adapters.canned_approval``): each a ready ``approval_callback``.
* ``SamplingReview`` (``ui_adapters.sampling``): a person sees, edits or refuses a server's sampling
  request before the app's model answers it, and sees the answer before it goes back.
* ``QuestionBroker`` (the package ``ui_adapters.broker``): hands questions to an app's own UI (web,
  chat) as ``PendingQuestion`` s (``broker.pending``) and waits for the app's answer, or (2026-07-28)
  releases the call as a ``PausedCall`` (``broker.paused``) to resume later. ``SqliteStore``
  (``broker.stores.sqlite``) and ``RedisStore`` (``broker.stores.redis``) share its questions, paused
  calls and tool tasks (``broker.tasks``) between worker processes (``broker.stores``: the seam,
  ``MemoryStore``).
* ``BrowserFormAdapter`` (``ui_adapters.browser``): each form question as a page in the system browser,
  served on loopback.
* ``BrowserLogin``, ``browser_login`` (``ui_adapters.login``): the browser step of an OAuth login
  (``mcp_client.auth.OAuth(authorize=...)``): the link shown, the browser opened on consent, the
  loopback redirect caught, or the address pasted back on a headless machine.
* ``sanitize`` (``ui_adapters.text``): server text made safe to print in a terminal.
* ``ui_adapters.cli``: the ``mcp-client`` command, built on the names above.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ui_adapters._lazy import lazy_names

if TYPE_CHECKING:
    from ui_adapters.broker import QuestionBroker, QuestionNotPendingError
    from ui_adapters.broker.approval import PendingApproval
    from ui_adapters.broker.paused import PausedCall, PausedCallNotReadyError
    from ui_adapters.broker.pending import PendingQuestion
    from ui_adapters.broker.stores import MemoryStore, QuestionStore
    from ui_adapters.broker.stores.redis import RedisStore
    from ui_adapters.broker.stores.sqlite import SqliteStore
    from ui_adapters.broker.tasks import StoredTask, TaskOutcome
    from ui_adapters.browser import BrowserApproval, BrowserFormAdapter, browser_approval
    from ui_adapters.canned import CannedAnswers, CannedQuestion, UnansweredQuestionError
    from ui_adapters.canned_approval import CannedApprovals, UnansweredApprovalError, canned_approvals
    from ui_adapters.canned_sampling import CannedSampling, CannedSamplingRequest, UnansweredSamplingError
    from ui_adapters.chat import chat_approval
    from ui_adapters.login import BrowserLogin, browser_login
    from ui_adapters.policies import StopAskingPolicy, always_cancel, always_decline, terminal_ask_to_stop
    from ui_adapters.routing import ElicitationRouter, terminal_callback
    from ui_adapters.sampling import SamplingReview
    from ui_adapters.terminal import TerminalFormAdapter, terminal_approval
    from ui_adapters.text import sanitize
    from ui_adapters.textual import textual_approval
    from ui_adapters.url import UrlAdapter

__all__ = [
    "BrowserApproval",
    "BrowserFormAdapter",
    "BrowserLogin",
    "CannedAnswers",
    "CannedApprovals",
    "CannedQuestion",
    "CannedSampling",
    "CannedSamplingRequest",
    "ElicitationRouter",
    "MemoryStore",
    "PausedCall",
    "PausedCallNotReadyError",
    "PendingApproval",
    "PendingQuestion",
    "QuestionBroker",
    "QuestionNotPendingError",
    "QuestionStore",
    "RedisStore",
    "SamplingReview",
    "SqliteStore",
    "StopAskingPolicy",
    "StoredTask",
    "TaskOutcome",
    "TerminalFormAdapter",
    "UnansweredApprovalError",
    "UnansweredQuestionError",
    "UnansweredSamplingError",
    "UrlAdapter",
    "always_cancel",
    "always_decline",
    "browser_approval",
    "browser_login",
    "canned_approvals",
    "chat_approval",
    "sanitize",
    "terminal_approval",
    "terminal_ask_to_stop",
    "terminal_callback",
    "textual_approval",
]

_WHERE = {
    "BrowserApproval": "ui_adapters.browser",
    "BrowserFormAdapter": "ui_adapters.browser",
    "browser_approval": "ui_adapters.browser",
    "PausedCall": "ui_adapters.broker.paused",
    "PausedCallNotReadyError": "ui_adapters.broker.paused",
    "PendingApproval": "ui_adapters.broker.approval",
    "PendingQuestion": "ui_adapters.broker.pending",
    "QuestionBroker": "ui_adapters.broker",
    "QuestionNotPendingError": "ui_adapters.broker",
    "QuestionStore": "ui_adapters.broker.stores",
    "MemoryStore": "ui_adapters.broker.stores",
    "SqliteStore": "ui_adapters.broker.stores.sqlite",
    "RedisStore": "ui_adapters.broker.stores.redis",
    "StoredTask": "ui_adapters.broker.tasks",
    "TaskOutcome": "ui_adapters.broker.tasks",
    "BrowserLogin": "ui_adapters.login",
    "browser_login": "ui_adapters.login",
    "CannedAnswers": "ui_adapters.canned",
    "CannedQuestion": "ui_adapters.canned",
    "UnansweredQuestionError": "ui_adapters.canned",
    "CannedApprovals": "ui_adapters.canned_approval",
    "UnansweredApprovalError": "ui_adapters.canned_approval",
    "canned_approvals": "ui_adapters.canned_approval",
    "terminal_approval": "ui_adapters.terminal",
    "chat_approval": "ui_adapters.chat",
    "textual_approval": "ui_adapters.textual",
    "CannedSampling": "ui_adapters.canned_sampling",
    "CannedSamplingRequest": "ui_adapters.canned_sampling",
    "UnansweredSamplingError": "ui_adapters.canned_sampling",
    "SamplingReview": "ui_adapters.sampling",
    "ElicitationRouter": "ui_adapters.routing",
    "terminal_callback": "ui_adapters.routing",
    "StopAskingPolicy": "ui_adapters.policies",
    "always_cancel": "ui_adapters.policies",
    "always_decline": "ui_adapters.policies",
    "terminal_ask_to_stop": "ui_adapters.policies",
    "TerminalFormAdapter": "ui_adapters.terminal",
    "UrlAdapter": "ui_adapters.url",
    "sanitize": "ui_adapters.text",
}


__getattr__: Callable[[str], Any]
__dir__: Callable[[], list[str]]
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
