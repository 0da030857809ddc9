"""Handoff: a context pack for the next agent or human, assembled from memory
and the journal under a character budget (seed 004 §4, spec §9)."""
