"""Recovery: read-only planning (signals → intent zone → drift → options) and,
behind every guard, the limited apply."""
