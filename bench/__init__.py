"""Client benchmarks: our client against a hand-written floor, the official `mcp` client and fastmcp.

Run ``python -m bench`` from the repository root; see bench/README.md.
"""
