"""Form questions answered in the system browser: ``BrowserFormAdapter``.

::

    from ui_adapters import BrowserFormAdapter, ElicitationRouter, UrlAdapter

    ui = ElicitationRouter(form=BrowserFormAdapter(), url=UrlAdapter())
    async with Client(url, elicitation_callback=ui) as client:
        ...

``browser_approval()`` (``_approval``, ``_approval_page``) asks in the same kind of page whether a tool
call may run (an ``approval_callback``).

The modules, one job each: ``_adapter`` (the callback: page server lifetime, opening the browser,
timeout, closed tabs), ``_site`` (the routes of one question and the checks on every request),
``_page`` (the HTML), ``_submission`` (a post turned into an answer or per-field errors), ``_http``
(the few bytes of HTTP/1.1 a local browser needs).
"""

from ui_adapters.browser._adapter import BrowserFormAdapter
from ui_adapters.browser._approval import BrowserApproval, browser_approval

__all__ = ["BrowserApproval", "BrowserFormAdapter", "browser_approval"]
