"""Questions answered inside a Textual app: a modal form built with Textual's own widgets.

::

    from ui_adapters.textual import textual_callback

    class MyApp(App):
        async def on_mount(self) -> None:
            self.run_worker(self.talk_to_the_server())

        async def talk_to_the_server(self) -> None:
            async with Client(url, elicitation_callback=textual_callback(self)) as client:
                ...

* ``ElicitationScreen(params, context)``: a ``ModalScreen`` drawn from the question's form (``Input``
  validated as you type, ``Select``, ``Switch``, ``SelectionList``, dates read in words) or its link;
  it dismisses with the ``ElicitResult``. Keys: tab between fields, ctrl+s or Send sends, ctrl+n
  declines, escape cancels.
* ``textual_callback(app)``: an ``elicitation_callback`` that pushes the screen and waits for it.
* ``ApprovalScreen(request, context)`` and ``textual_approval(app)``: the app's own "may this tool
  call run?" (``mcp_client.ToolPolicy``) as a modal dialog (Allow once, Allow for this session, Always
  allow, Deny, a note; Deny focused unless the tool is marked read-only; escape denies), and the
  ``approval_callback`` that shows it.
* ``AppOfferScreen`` / ``textual_app_offer(app, open_view)``: a tool's view (MCP Apps) offered with its
  text and link, opened in the browser only when the person asks (an ``on_app`` for ``ToolBridge``).

Textual is the optional ``textual`` extra (``pip install 'mcp-elicit-client[textual]'``), imported when this
module is.
"""

try:
    import textual as _textual  # noqa: F401  # pyright: ignore[reportUnusedImport]
except ImportError as _missing:  # pragma: no cover - depends on what is installed
    raise ImportError(
        "ui_adapters.textual needs Textual, which is not installed: pip install 'mcp-elicit-client[textual]'"
    ) from _missing

from ui_adapters.textual._app_offer import AppOfferScreen, textual_app_offer
from ui_adapters.textual._approval import ApprovalScreen, textual_approval
from ui_adapters.textual._callback import textual_callback
from ui_adapters.textual._screen import ElicitationScreen

__all__ = [
    "AppOfferScreen",
    "ApprovalScreen",
    "ElicitationScreen",
    "textual_app_offer",
    "textual_approval",
    "textual_callback",
]
