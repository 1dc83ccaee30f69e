"""Where the captured protocol traces live: ../shared/protocol/traces beside the checkout.

CI clones the repo into a fresh folder with a copy of shared/ beside it, so the path is found
relative to this file, never as an absolute path.
"""

from pathlib import Path

TRACES = Path(__file__).resolve().parents[3] / "shared" / "protocol" / "traces"
