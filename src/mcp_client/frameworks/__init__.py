"""MCP tools inside agent frameworks, with the questions still reaching the app's callback.

One thin module per framework, each built on ``mcp_client.llm.ToolBridge`` and importing its
framework only when the module itself is imported (``import mcp_client.frameworks`` loads none):

* ``mcp_client.frameworks.pydantic_ai.MCPToolset(client_or_group)``: a PydanticAI ``AbstractToolset``
  (extra ``pydantic-ai``);
* ``await mcp_client.frameworks.langchain.load_tools(client_or_group)``: LangChain ``StructuredTool``s
  (extra ``langchain``);
* ``await mcp_client.frameworks.openai_agents.function_tools(client_or_group)``: OpenAI Agents SDK
  ``FunctionTool``s (extra ``openai-agents``).

Every call goes through the server's ``Client.call_tool``: a tool that asks a question reaches the
``elicitation_callback`` (terminal form, broker, canned answers) mid-run, and the framework gets the
tool's final result. With ``pause_with=broker`` (a ``QuestionBroker``), a 2026-07-28 server's question
pauses the call instead and the run stops with the framework's signal (PydanticAI's ``CallDeferred``;
``mcp_client.llm.ToolCallPaused`` for LangChain and the Agents SDK), naming the paused call to resume.
"""
