"""The client and key file ``mcp-client login --client-id ID --private-key FILE`` used, per server.

A ``private_key_jwt`` client signs every token request, refreshes included; so the later ``tools``
and ``call`` runs, which refresh the saved tokens by themselves, need the same client and key. This
file (``client-keys.json`` beside the token file, mode 0600) remembers where the key is: the path
only, never the key itself, which stays in the file the user keeps (and ``chmod 600``-ed).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from mcp_client.auth import default_storage_path

__all__ = ["recall", "remember"]

_FILE_NAME = "client-keys.json"


def _path() -> Path:
    return default_storage_path().with_name(_FILE_NAME)


def _read() -> dict[str, dict[str, str]]:
    try:
        document = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return document if isinstance(document, dict) else {}


def remember(server: str, client_id: str, private_key: str) -> None:
    """Keep ``server`` -> (``client_id``, absolute path of the key file)."""
    entries = _read()
    entries[server] = {"client_id": client_id, "private_key": str(Path(private_key).expanduser().resolve())}
    path = _path()
    path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
    tmp = path.with_name(f".{_FILE_NAME}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(entries, file, indent=2, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def recall(server: str) -> tuple[str, str] | None:
    """The (client_id, key file) a login to ``server`` used, if it used one."""
    entry = _read().get(server)
    if not isinstance(entry, dict):
        return None
    client_id, key = entry.get("client_id"), entry.get("private_key")
    if isinstance(client_id, str) and isinstance(key, str) and client_id and key:
        return client_id, key
    return None
