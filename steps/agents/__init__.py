"""Agent sessions and turns: what an agent's hooks tell vibflow, kept so a turn
can be rewound.

A *session* is one agent conversation (the agent's own session id); a *turn*
is one prompt to it. The agent's hooks call ``vibflow agent hook AGENT
EVENT``: at a turn's start vibflow takes a checkpoint (reusing the last one
when nothing changed), after each edit tool it records the files the tool
reported, and at the turn's end it takes a second checkpoint, so what changed
during a turn that no tool reported (shell edits) and what changed *between*
turns (the user's own edits) can both be told apart later.

Modules: :mod:`.sessions` (what a session, a turn and a touched file are),
:mod:`.records` (the SQLite file the records live in),
:mod:`.payloads` (each agent's hook JSON, read into one event shape),
:mod:`.hook` (handling one event, never failing the agent), :mod:`.problems`
(what went wrong in a hook, for ``vibflow agent status``), :mod:`.settings`
(merging vibflow's hooks into an agent's settings file and taking them out),
:mod:`.ledger` (what each turn changed, reported or not, and who changed a
file after a turn), :mod:`.retention` (which turn checkpoints are kept),
:mod:`.rewind_steps` (the ``rewind`` flow's first step).

Hooks must start fast (the agent waits on the turn-start hook), so the
modules the hook path imports use the standard library only — no pydantic,
no typer — and say so in their docstrings.
"""
