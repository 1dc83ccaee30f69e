"""The error for a framework adapter whose framework is not installed: it names the extra to install."""

from __future__ import annotations


def missing_extra(framework: str, extra: str, module: str) -> ImportError:
    return ImportError(
        f"mcp_client.frameworks.{module} needs {framework}, which is not installed: "
        f'pip install "mcp-elicit-client[{extra}]"'
    )
