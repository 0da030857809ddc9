"""vibflow: guided, audited recovery and project memory for AI-assisted coding.

This package is the front door (CLI, MCP server); the engine lives in
``vibflow.engine`` and the domain in ``vibflow.steps``.
"""

__version__ = "0.1.0"
