"""Git hooks vibflow installs: they only *append* observed context."""
