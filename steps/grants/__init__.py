"""Capability grants (spec §15 Layer 3): which MCP tools a client may use here."""
