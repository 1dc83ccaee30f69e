"""One of several worker processes opening new ``SqliteStore`` files at the same moment (issue 33 §1.10).

    python tests/ui_adapters/sqlite_open_script.py FOLDER START ROUNDS

Round ``i`` starts at the wall-clock time ``START + i * 0.1`` (the same for every worker, so they open
within a fraction of a millisecond of each other): each worker opens ``FOLDER/store-i.db``, a file that
does not exist yet, and writes to it. One line per round is printed: ``ok`` or ``FAILED: <the error>``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import anyio

from ui_adapters import SqliteStore


def wait_until(moment: float) -> None:
    if moment - time.time() > 0.01:
        time.sleep(moment - time.time() - 0.01)
    while time.time() < moment:
        pass


async def open_once(path: Path) -> str:
    store = SqliteStore(path)
    try:
        await store.open()
        await store.heartbeat(f"worker-{os.getpid()}", 10)  # a first write, as a broker's start does
    except Exception as exc:
        return f"FAILED: {type(exc).__name__}: {exc}"
    finally:
        await store.close()
    return "ok"


def main() -> None:
    folder, start, rounds = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    for round_ in range(rounds):
        wait_until(start + round_ * 0.1)
        print(anyio.run(open_once, folder / f"store-{round_}.db"), flush=True)


if __name__ == "__main__":
    main()
