"""The generic workflow engine: verified YAML state machines run as durable,
audited, resumable runs.

It knows nothing of git, memory or recovery: it loads and verifies flows
against a :class:`~vibflow.engine.registry.Registry` of steps and guards that
the front door assembles, and journals every transition in SQLite.
"""
