"""One process's use of a broker store as an ``ApprovalStore`` (issue 45: "always" kept across processes).

    python tests/ui_adapters/approval_store_script.py sqlite PATH set KEY DECISION
    python tests/ui_adapters/approval_store_script.py redis URL NAMESPACE get KEY

Prints what ``get_approval`` returned (``None``, ``allow``, ``deny``) or ``set``.
"""

from __future__ import annotations

import sys

import anyio

from ui_adapters import RedisStore, SqliteStore


async def main(argv: list[str]) -> None:
    if argv[0] == "sqlite":
        store: SqliteStore | RedisStore = SqliteStore(argv[1])
        rest = argv[2:]
    else:
        store = RedisStore(argv[1], namespace=argv[2])
        rest = argv[3:]
    try:
        if rest[0] == "set":
            await store.set_approval(rest[1], "allow" if rest[2] == "allow" else "deny")
            print("set")
        else:
            print(await store.get_approval(rest[1]))
    finally:
        await store.close()


if __name__ == "__main__":
    anyio.run(main, sys.argv[1:])
