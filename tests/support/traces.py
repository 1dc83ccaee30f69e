"""Where the captured protocol traces live: ``tests/fixtures/traces`` inside this repository.

They are copies (see the README there), so a fresh clone runs its tests with nothing beside it.
"""

from pathlib import Path

TRACES = Path(__file__).resolve().parents[1] / "fixtures" / "traces"
