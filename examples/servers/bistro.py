"""A bistro MCP server whose ``book_table`` asks a question (form elicitation) when the date is full.

Built with the official MCP Python SDK (``pip install "mcp==2.3.0"``, or ``pip install -e ".[examples]"``
in this repository)::

    python examples/servers/bistro.py                        # stdio
    python examples/servers/bistro.py --http --port 8000     # http://127.0.0.1:8000/mcp

``book_table`` asks through a resolver (``Resolve(ask_other_date)``), so it works in both protocol
eras: pushed over the open call in the legacy one (as ``ctx.elicit`` would), returned in the call's
result ("input required") in 2026-07-28, which ``mcp-client`` speaks by default with a server that
offers it. A tool that calls ``ctx.elicit`` itself works only in the legacy era (``mode="legacy"``)::

    mcp-client call examples/servers/bistro.py book_table date=2025-12-25 party_size=2

The tool is written once, in ``src/ui_adapters/cli/_demo_server.py`` (``ask_other_date`` and
``book_table``): the server ``mcp-client demo`` runs is the same code, so the example and the demo cannot
drift apart.
"""

from ui_adapters.cli._demo_server import bistro, run_example

mcp = bistro()

if __name__ == "__main__":
    run_example(mcp, "bistro")
