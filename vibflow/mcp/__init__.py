"""``vibflow mcp serve``: vibflow's tools for AI agents over MCP (stdio)."""
