"""Form questions answered in the system browser: ``BrowserFormAdapter``.

::

    from ui_adapters import BrowserFormAdapter, ElicitationRouter, UrlAdapter

    ui = ElicitationRouter(form=BrowserFormAdapter(), url=UrlAdapter())
    async with Client(url, elicitation_callback=ui) as client:
        ...

The modules, one job each: ``_adapter`` (the callback: page server lifetime, opening the browser,
timeout, closed tabs), ``_site`` (the routes of one question and the checks on every request),
``_page`` (the HTML), ``_submission`` (a post turned into an answer or per-field errors), ``_http``
(the few bytes of HTTP/1.1 a local browser needs).
"""

from ui_adapters.browser._adapter import BrowserFormAdapter

__all__ = ["BrowserFormAdapter"]
