"""The ``terminal`` fixture: a fake terminal for the prompts that draw with rich alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prompt_toolkit.input import create_pipe_input

from tests.ui_adapters._terminal_helpers import PipeTerminal


@pytest.fixture
def terminal() -> Iterator[PipeTerminal]:
    with create_pipe_input() as keys:
        yield PipeTerminal(keys)
