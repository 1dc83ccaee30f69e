"""Interop tests: our client against third-party MCP servers (FastMCP, the TypeScript server-everything)."""
