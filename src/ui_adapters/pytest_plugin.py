"""A pytest fixture for canned elicitation answers.

Enable it in a ``conftest.py``::

    pytest_plugins = ["ui_adapters.pytest_plugin"]

then, in a test::

    async def test_booking(canned_answers):
        answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
        async with Client(url, elicitation_callback=answers) as client:
            await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
        assert answers.questions[0].field_names == ("accept_alternative", "date")

At teardown the test fails if any ``CannedAnswers`` it made met a question it had no answer for, even
when the client turned that failure into an error the test did not look at. ``canned_sampling`` does
the same for ``CannedSampling`` (sampling requests)::

    async def test_haiku(canned_sampling):
        model = canned_sampling(default="old pond, a frog jumps")
        async with Client(url, sampling_callback=model) as client:
            await client.call_tool("haiku", {"topic": "rain"})
        assert model.prompts == ["Write a haiku about rain."]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ui_adapters.canned import CannedAnswers
from ui_adapters.canned_sampling import CannedSampling

__all__ = ["CannedAnswersFactory", "CannedSamplingFactory", "canned_answers", "canned_sampling"]


class CannedAnswersFactory:
    """Makes ``CannedAnswers`` for one test and remembers them, to check them at teardown."""

    def __init__(self) -> None:
        self.made: list[CannedAnswers] = []

    def __call__(self, **kwargs: Any) -> CannedAnswers:
        """``CannedAnswers(**kwargs)``, watched by the fixture."""
        answers = CannedAnswers(**kwargs)
        self.made.append(answers)
        return answers

    def accept_defaults(self, **kwargs: Any) -> CannedAnswers:
        """``CannedAnswers.accept_defaults(**kwargs)``, watched by the fixture."""
        answers = CannedAnswers.accept_defaults(**kwargs)
        self.made.append(answers)
        return answers

    def unanswered_report(self) -> str | None:
        """A description of every unanswered question, or ``None`` when there were none."""
        lines = [str(q.message) for answers in self.made for q in answers.unanswered]
        if not lines:
            return None
        shown = "\n".join(f"  - {message!r}" for message in lines)
        return f"{len(lines)} elicitation question(s) had no canned answer:\n{shown}"


@pytest.fixture
def canned_answers() -> Iterator[CannedAnswersFactory]:
    """A factory of ``CannedAnswers``; the test fails at teardown if a question went unanswered."""
    factory = CannedAnswersFactory()
    yield factory
    report = factory.unanswered_report()
    if report is not None:
        pytest.fail(report, pytrace=False)


class CannedSamplingFactory:
    """Makes ``CannedSampling`` for one test and remembers them, to check them at teardown."""

    def __init__(self) -> None:
        self.made: list[CannedSampling] = []

    def __call__(self, **kwargs: Any) -> CannedSampling:
        """``CannedSampling(**kwargs)``, watched by the fixture."""
        model = CannedSampling(**kwargs)
        self.made.append(model)
        return model

    def unanswered_report(self) -> str | None:
        prompts = [request.prompt for model in self.made for request in model.unanswered]
        if not prompts:
            return None
        shown = "\n".join(f"  - {prompt!r}" for prompt in prompts)
        return f"{len(prompts)} sampling request(s) had no canned answer:\n{shown}"


@pytest.fixture
def canned_sampling() -> Iterator[CannedSamplingFactory]:
    """A factory of ``CannedSampling``; the test fails at teardown if a request went unanswered."""
    factory = CannedSamplingFactory()
    yield factory
    report = factory.unanswered_report()
    if report is not None:
        pytest.fail(report, pytrace=False)
