"""Real MCP servers the client's tests run against (started as subprocesses, never imported by src/)."""
