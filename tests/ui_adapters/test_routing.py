"""ElicitationRouter: form questions to one adapter, URL questions to another, modes declared exactly."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from dataclasses import dataclass, field

import anyio
import pytest

from mcp_client import ClientRequestContext
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from ui_adapters import ElicitationRouter, TerminalFormAdapter, UrlAdapter, terminal_callback
from ui_adapters.routing import DEFAULT

CONTEXT = ClientRequestContext(
    server="http://127.0.0.1:8000/mcp", server_info=None, protocol_version="2025-11-25", era="legacy"
)
FORM = ElicitRequestFormParams(
    message="Really delete /srv/photos?",
    requested_schema={
        "type": "object",
        "properties": {"confirm": {"type": "boolean"}},
        "required": ["confirm"],
    },
)
URL = ElicitRequestURLParams(
    message="Pay the deposit.", url="https://pay.example.com/deposit?booking=B42", elicitation_id="pay-B42"
)


@dataclass
class Recorder:
    """An adapter that answers ``answer`` and writes down what it was asked."""

    answer: ElicitResult
    elicitation_modes: frozenset[str] | None = None
    asked: list[str] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.asked.append(params.message)
        return self.answer

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        self.completed.append(elicitation_id)


ACCEPT_FORM = ElicitResult(action="accept", content={"confirm": True})
ACCEPT = ElicitResult(action="accept")


@pytest.mark.anyio
async def test_form_goes_to_form_adapter_and_url_to_url_adapter() -> None:
    form, url = Recorder(ACCEPT_FORM), Recorder(ACCEPT)
    router = ElicitationRouter(form=form, url=url)
    assert await router(CONTEXT, FORM) == ACCEPT_FORM
    assert await router(CONTEXT, URL) == ACCEPT
    assert form.asked == [FORM.message]
    assert url.asked == [URL.message]


def test_declared_modes_are_the_filled_slots() -> None:
    assert ElicitationRouter().elicitation_modes == {"form", "url"}
    assert ElicitationRouter(url=None).elicitation_modes == {"form"}
    assert ElicitationRouter(form=None).elicitation_modes == {"url"}
    assert ElicitationRouter(form=None, url=None).elicitation_modes == frozenset()
    # An adapter that says it cannot do the slot's mode does not get it declared.
    assert (
        ElicitationRouter(form=Recorder(ACCEPT, frozenset({"url"})), url=None).elicitation_modes
        == frozenset()
    )
    assert ElicitationRouter(form=Recorder(ACCEPT_FORM), url=Recorder(ACCEPT)).elicitation_modes == {
        "form",
        "url",
    }


@pytest.mark.anyio
async def test_a_question_of_an_undeclared_mode_is_declined() -> None:
    form = Recorder(ACCEPT_FORM)
    router = ElicitationRouter(form=form, url=None)
    assert await router(CONTEXT, URL) == ElicitResult(action="decline")
    assert form.asked == []


@pytest.mark.anyio
async def test_completion_is_forwarded_to_the_url_adapter() -> None:
    form, url = Recorder(ACCEPT_FORM), Recorder(ACCEPT)
    router = ElicitationRouter(form=form, url=url)
    await router.elicitation_complete_callback("pay-B42")
    assert url.completed == ["pay-B42"]
    assert form.completed == []


@pytest.mark.anyio
async def test_completion_before_any_url_question_builds_nothing() -> None:
    router = ElicitationRouter(form=Recorder(ACCEPT_FORM))
    await router.on_elicitation_complete("pay-B42")  # ignored: no link was ever shown
    await ElicitationRouter(url=None).on_elicitation_complete("pay-B42")


def test_defaults_are_the_terminal_adapters_built_lazily() -> None:
    router = terminal_callback()
    assert isinstance(router, ElicitationRouter)
    assert router.elicitation_modes == {"form", "url"}
    assert isinstance(router.form_adapter, TerminalFormAdapter)
    assert isinstance(router.url_adapter, UrlAdapter)
    assert router.url_adapter is router.url_adapter  # built once
    assert ElicitationRouter(url=DEFAULT, form=None).form_adapter is None


@pytest.mark.anyio
async def test_questions_are_asked_one_at_a_time() -> None:
    inside = 0
    most = 0

    async def slow(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        await anyio.sleep(0.01)
        inside -= 1
        return ACCEPT

    router = ElicitationRouter(form=slow, url=slow)
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            for params in (FORM, URL, FORM):
                tg.start_soon(router, CONTEXT, params)
    assert most == 1


def test_importing_ui_adapters_loads_no_terminal_library() -> None:
    """Nor Textual: ``ui_adapters.textual`` loads it, and only that module does (the chat adapter not)."""
    code = (
        "import sys, mcp_client\n"
        "before = set(sys.modules)\n"
        "import ui_adapters, ui_adapters.routing, ui_adapters.policies, ui_adapters.canned\n"
        "import ui_adapters.chat\n"
        "from ui_adapters import CannedAnswers, ElicitationRouter, StopAskingPolicy, always_decline\n"
        "router = ui_adapters.terminal_callback()\n"
        "assert router.elicitation_modes == {'form', 'url'}\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "assert not new & {'rich', 'prompt_toolkit', 'textual'}, new\n"
        "assert 'prompt_toolkit' not in sys.modules\n"
        "from ui_adapters import UrlAdapter\n"
        "assert 'prompt_toolkit' in sys.modules and 'textual' not in sys.modules\n"
    )
    if importlib.util.find_spec("textual") is not None:  # the textual extra (not in the floor venv)
        code += "from ui_adapters.textual import textual_callback\nassert 'textual' in sys.modules\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_unknown_name_is_an_attribute_error() -> None:
    import ui_adapters

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        ui_adapters.Nope  # noqa: B018
    assert "UrlAdapter" in dir(ui_adapters)
