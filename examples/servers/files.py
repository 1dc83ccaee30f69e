"""A file-store MCP server whose ``delete_folder`` asks for a confirmation with a ``Resolve(...)`` resolver.

A resolver declares the question next to the tool's parameters; the SDK asks it in whichever protocol
era the client speaks: pushed over the open call in 2025-11-25 (legacy), returned as "input required"
in 2026-07-28 (the client answers and calls again). Nothing is ever deleted: this is an example.

Built with the official MCP Python SDK (``pip install "mcp==2.3.0"``, or ``pip install -e ".[examples]"``)::

    python examples/servers/files.py                         # stdio
    python examples/servers/files.py --http --port 8000      # http://127.0.0.1:8000/mcp

    mcp-client call examples/servers/files.py delete_folder path=/tmp/old-drafts

The tool and its resolver are written once, in ``src/ui_adapters/cli/_demo_server.py``
(``delete_folder``, ``confirm_delete``): the server ``mcp-client demo`` runs is the same code.
"""

from ui_adapters.cli._demo_server import files, run_example

mcp = files()

if __name__ == "__main__":
    run_example(mcp, "files")
