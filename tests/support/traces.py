"""Where the captured protocol traces live: ``tests/fixtures/traces`` inside this repository.

They are copies (see the README there), so a fresh clone runs its tests with nothing beside it.
"""

from pathlib import Path
from typing import Any

TRACES = Path(__file__).resolve().parents[1] / "fixtures" / "traces"

SURVEY_ANSWER: dict[str, Any] = {
    "email": "ada@example.com",
    "age": 36,
    "rating": 4.5,
    "subscribe": True,
    "colour": "green",
    "toppings": ["cheese", "olives"],
}
"""The answer to the survey form of the ``*_survey`` traces (the trace's client sent it, with a null
nickname): what the schema tests validate and the terminal tests type in."""
