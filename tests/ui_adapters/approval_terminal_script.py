"""Ask one approval at a real terminal with ``terminal_approval()`` and print the decision.

    python tests/ui_adapters/approval_terminal_script.py [--request delete|read|hostile]

The tests drive it through a pty (pexpect, replayed on a pyte screen). The decision is printed as
``RESULT: <decision> <remember> <note as JSON>``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.ui_adapters._approval_helpers import CONTEXT, DELETE, READ, hostile
from ui_adapters import terminal_approval

REQUESTS = {"delete": lambda: DELETE, "read": lambda: READ, "hostile": hostile}


async def main(which: str) -> None:
    result = await terminal_approval()(CONTEXT, REQUESTS[which]())
    print(f"RESULT: {result.decision} {result.remember} {json.dumps(result.note)}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--request", choices=sorted(REQUESTS), default="delete")
    anyio.run(main, parser.parse_args().request)
