"""The broker family moved into ``ui_adapters.broker`` (issue 33 §5); the old module paths still work.

For one release ``ui_adapters.pending``, ``paused``, ``store``, ``store_sqlite``, ``store_redis`` and
``stored_tasks`` re-export the same objects and warn (``DeprecationWarning``) naming the new path;
``from ui_adapters import ...`` is unchanged.
"""

from __future__ import annotations

import json
import subprocess
import sys

import ui_adapters

MOVED = {
    "ui_adapters.pending": "ui_adapters.broker.pending",
    "ui_adapters.paused": "ui_adapters.broker.paused",
    "ui_adapters.store": "ui_adapters.broker.stores",
    "ui_adapters.store_sqlite": "ui_adapters.broker.stores.sqlite",
    "ui_adapters.store_redis": "ui_adapters.broker.stores.redis",
    "ui_adapters.stored_tasks": "ui_adapters.broker.tasks",
}

PROBE = """
import importlib, json, sys, warnings
found = {}
for old, new in json.loads(sys.argv[1]).items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    target = importlib.import_module(new)
    found[old] = {
        "names": list(module.__all__),
        "same": all(getattr(module, name) is getattr(target, name) for name in module.__all__),
        "warnings": [(w.category.__name__, str(w.message), w.filename) for w in caught],
    }
print(json.dumps(found))
"""


def test_each_old_path_re_exports_the_same_objects_and_warns_naming_the_new_one() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(MOVED)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for old, new in MOVED.items():
        assert found[old]["names"] and found[old]["same"], old
        ((category, message, filename),) = found[old]["warnings"]
        assert category == "DeprecationWarning"
        assert f"{old} is deprecated" in message and new in message
        assert "ui_adapters" not in filename  # the warning points at the importer, not at the shim


def test_the_public_names_are_importable_from_ui_adapters_as_before() -> None:
    from ui_adapters.broker import QuestionBroker, QuestionNotPendingError
    from ui_adapters.broker.paused import PausedCall, PausedCallNotReadyError
    from ui_adapters.broker.pending import PendingQuestion
    from ui_adapters.broker.stores import MemoryStore, QuestionStore
    from ui_adapters.broker.stores.redis import RedisStore
    from ui_adapters.broker.stores.sqlite import SqliteStore
    from ui_adapters.broker.tasks import StoredTask, TaskOutcome

    moved = [
        QuestionBroker, QuestionNotPendingError, PausedCall, PausedCallNotReadyError, PendingQuestion,
        MemoryStore, QuestionStore, RedisStore, SqliteStore, StoredTask, TaskOutcome,
    ]  # fmt: skip
    for member in moved:
        assert getattr(ui_adapters, member.__name__) is member
        assert member.__name__ in ui_adapters.__all__
    assert repr(QuestionBroker) == "<class 'ui_adapters.broker.QuestionBroker'>"


def test_importing_one_record_module_does_not_load_the_broker() -> None:
    """The browser form imports ``broker.pending``: the package's names load on first use only."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, ui_adapters.broker.pending; print(sorted(sys.modules))"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.strip().strip("[]").replace("'", "").split(", "))
    assert "ui_adapters.broker.pending" in loaded
    assert not loaded & {"ui_adapters.broker._broker", "ui_adapters.broker.stores", "sqlite3"}
