"""``import mcp_client`` loads nothing heavy; each public name loads its module on first touch (issue 26).

Import *time* is measured by the benchmark (``python -m bench``: ``import mcp_client`` against
``import httpx2`` in the same run); these tests pin what makes it cheap, which does not drift with the
machine: the modules a bare import loads, and that the lazy names behave like eager ones.
"""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import mcp_client


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_bare_import_loads_no_pydantic_httpx_or_anyio() -> None:
    out = _run(
        "import sys, mcp_client\n"
        "heavy = {'pydantic', 'pydantic_core', 'httpx2', 'httpx', 'anyio', 'mcp_client.types',\n"
        "         'mcp_client._client'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
        "print(mcp_client.__version__, len(mcp_client.MODERN_VERSIONS) > 0)\n"
    )
    assert out.splitlines() == ["[]", f"{mcp_client.__version__} True"]


def test_the_client_sends_with_httpx2_and_never_loads_httpx() -> None:
    """httpx2 replaced httpx (docs/performance.md); an app that never imports httpx does not pay for it."""
    out = _run(
        "import sys\n"
        "from mcp_client import Client\n"
        "from mcp_client.auth import OAuth\n"
        "Client('http://127.0.0.1:9/mcp', auth=OAuth('app'))\n"
        "print(sorted(m for m in ('httpx', 'httpcore', 'httpx2', 'httpcore2') if m in sys.modules))\n"
    )
    assert out.splitlines() == ["['httpx2']"]  # httpcore2 too, once a request goes out


def test_touching_client_loads_it_and_the_names_say_they_are_public() -> None:
    out = _run(
        "import sys, mcp_client\n"
        "client = mcp_client.Client\n"
        "print('mcp_client._client' in sys.modules, client.__module__, repr(client))\n"
        # ClientGroup is another module: not yet loaded
        "print('mcp_client._group.client_group' in sys.modules)\n"
    )
    assert out.splitlines() == [
        "True mcp_client <class 'mcp_client.Client'>",
        "False",
    ]


def test_every_public_name_resolves_to_its_object_and_star_import_works() -> None:
    namespace: dict[str, object] = {}
    exec("from mcp_client import *", namespace)
    for name in mcp_client.__all__:
        member = getattr(mcp_client, name)
        assert namespace[name] is member
        if isinstance(member, type):
            assert member.__module__ == "mcp_client", name
    assert set(mcp_client.__all__) <= set(dir(mcp_client))


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="module 'mcp_client' has no attribute 'Clinet'"):
        _ = mcp_client.Clinet  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    with pytest.raises(ImportError, match="Clinet"):
        exec("from mcp_client import Clinet", {})


def test_an_error_raised_before_the_app_touched_its_name_still_says_mcp_client() -> None:
    # Errors are raised from inside the package, often before ``mcp_client.ServerError`` was touched.
    out = _run(
        "import traceback, mcp_client.types\n"
        "from mcp_client import _errors\n"
        "try:\n"
        "    raise _errors.ServerError(-32601, 'Method not found')\n"
        "except Exception as exc:\n"
        "    print(traceback.format_exception_only(exc)[-1].strip())\n"
    )
    assert out.startswith("mcp_client.ServerError: "), out


def test_public_errors_pickle_through_the_lazy_names() -> None:
    # Errors cross process boundaries in apps with several workers: each comes back whole.
    errors: list[Exception] = [
        mcp_client.ServerError(-32601, "Method not found", {"method": "x/y"}),
        mcp_client.ServerExitedError("the server exited", returncode=3, stderr_tail="boom"),
        mcp_client.TaskLostError("the task is gone", "task-1"),
    ]
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error)
        assert str(again) == str(error)
        assert vars(again) == vars(error)
        assert traceback.format_exception_only(again)[-1].startswith(f"mcp_client.{type(error).__name__}: ")


def test_the_lazy_table_and_the_type_checking_imports_name_the_same_modules() -> None:
    # Type checkers read the TYPE_CHECKING imports, the runtime reads _LAZY: they must never disagree.
    tree = ast.parse(Path(mcp_client.__file__).read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    typed[alias.name] = statement.module.removeprefix("mcp_client.")
    lazy: dict[str, str] = vars(mcp_client)["_LAZY"]
    assert typed == lazy
    assert set(lazy) | {"__version__", "LEGACY_VERSIONS", "MODERN_VERSIONS"} == set(mcp_client.__all__)


PROVIDERS_AND_FRAMEWORKS = (
    "openai",
    "anthropic",
    "google.genai",
    "agents",
    "pydantic_ai",
    "langchain_core",
)  # httpx2 was here as the Anthropic SDK's stack; it is the client's own now


def test_no_provider_sdk_or_framework_loads_with_the_client_or_the_bridge() -> None:
    """``mcp_client``, ``Client`` and even ``mcp_client.llm.ToolBridge`` import no provider SDK and no
    agent framework: the SDKs are the app's, the frameworks load only in ``mcp_client.frameworks``."""
    out = _run(
        "import sys\n"
        f"optional = {PROVIDERS_AND_FRAMEWORKS!r}\n"
        "def loaded():\n"
        "    return sorted(n for n in optional if n in sys.modules)\n"
        "import mcp_client\n"
        "from mcp_client import Client, ClientGroup\n"
        "print(loaded())\n"
        "from mcp_client.llm import ToolBridge, OpenAISampling, AnthropicSampling, GeminiSampling\n"
        "print(loaded(), ToolBridge.__module__)\n"
        "import mcp_client.frameworks\n"
        "print(loaded())\n"
    )
    assert out.splitlines() == ["[]", "[] mcp_client.llm", "[]"]
