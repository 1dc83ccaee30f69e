"""Tasks: long-running tool calls the server runs as tasks, polled or streamed."""
