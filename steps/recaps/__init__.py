"""Project and agent-session recaps (seed 004 §6): what happened in a stretch of
work and how to pick it up, built from memory, the journal, git and the agent
turns as plain facts."""
