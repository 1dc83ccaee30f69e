"""Many servers at once: ClientGroup, the keeper of its members, and the mcpServers config file's JSON."""
