"""Each agent's hook JSON, read into one event shape.

Claude Code and Gemini CLI both hand a command hook one JSON object on stdin
with ``session_id``, ``cwd`` and ``hook_event_name``; the edit tools carry
the file in ``tool_input`` (``file_path``, or ``notebook_path`` for Claude's
NotebookEdit). The recorded samples and where each field is documented are
in ``tests/agents/payloads/README.md``. Only what vibflow records is read:
the event, the session id, the tool's name and the file paths it reported.
The prompt, the tool's content and its response are never read.

Parsed by hand rather than with pydantic: this runs in the turn-start hook,
whose whole budget (~150 ms) pydantic's import alone would take most of.
Anything malformed becomes a :class:`PayloadError` naming the field, never a
traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

EventKind = Literal["session_start", "turn_start", "tool_use", "turn_end", "session_end"]

#: The command-line event names (``vibflow agent hook AGENT EVENT``).
EVENT_ARGS: dict[str, EventKind] = {
    "session-start": "session_start",
    "turn-start": "turn_start",
    "tool-use": "tool_use",
    "turn-end": "turn_end",
    "session-end": "session_end",
}

#: Each agent's own event names (``hook_event_name``) for the same events.
AGENT_EVENTS: dict[str, dict[str, EventKind]] = {
    "claude-code": {
        "SessionStart": "session_start",
        "UserPromptSubmit": "turn_start",
        "PostToolUse": "tool_use",
        "Stop": "turn_end",
        "SessionEnd": "session_end",
    },
    "gemini": {
        "SessionStart": "session_start",
        "BeforeAgent": "turn_start",
        "AfterTool": "tool_use",
        "AfterAgent": "turn_end",
        "SessionEnd": "session_end",
    },
}

#: The tools whose ``tool_input`` names the file they wrote, and under which keys.
EDIT_TOOLS: dict[str, dict[str, tuple[str, ...]]] = {
    "claude-code": {
        "Write": ("file_path",),
        "Edit": ("file_path",),
        "MultiEdit": ("file_path",),
        "NotebookEdit": ("notebook_path",),
    },
    "gemini": {
        "write_file": ("file_path",),
        "replace": ("file_path",),
    },
}
#: Keys an unknown tool (an MCP server's, a newer agent's) may name its file with.
GENERIC_KEYS = ("file_path", "notebook_path")
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024
MAX_PATHS = 1000
_TOOL = re.compile(r"[A-Za-z0-9_.:-]{1,80}")


class PayloadError(Exception):
    """The hook's input could not be read as the agent's documented JSON."""


class HookEvent(NamedTuple):
    # A NamedTuple, as every value the hook path defines: a dataclass costs about a
    # millisecond to build, and ``dataclasses`` itself (with ``inspect``) several.
    agent: str
    kind: EventKind
    session: object  # the agent's session id as given (reduced to a safe shape when stored)
    tool: str | None = None
    paths: Sequence[str] = ()
    cwd: str | None = None


def parse(agent: str, event_arg: str | None, raw: bytes) -> HookEvent:
    """The event ``raw`` (the hook's stdin) describes for ``agent``."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"the hook input is over {MAX_PAYLOAD_BYTES // (1024 * 1024)} MB")
    try:
        data = json.loads(raw.decode("utf-8", "surrogatepass")) if raw.strip() else {}
    except (ValueError, UnicodeDecodeError) as exc:
        raise PayloadError("the hook input is not JSON") from exc
    if not isinstance(data, dict):
        raise PayloadError("the hook input is not a JSON object")
    kind = _kind(agent, event_arg, data.get("hook_event_name"))
    cwd = data.get("cwd")
    event = HookEvent(
        agent=agent,
        kind=kind,
        session=data.get("session_id"),
        paths=[],
        cwd=cwd if isinstance(cwd, str) else None,
    )
    if kind != "tool_use":
        return event
    tool = data.get("tool_name")
    if not isinstance(tool, str) or not _TOOL.fullmatch(tool):
        raise PayloadError("the tool event has no usable 'tool_name'")
    tool_input = data.get("tool_input")
    paths = _paths(agent, tool, tool_input if isinstance(tool_input, dict) else {})
    return HookEvent(agent, kind, event.session, tool, paths[:MAX_PATHS], event.cwd)


def _kind(agent: str, event_arg: str | None, named: object) -> EventKind:
    if event_arg is not None:
        if event_arg not in EVENT_ARGS:
            raise PayloadError(f"unknown hook event '{event_arg[:40]}'")
        return EVENT_ARGS[event_arg]
    found = AGENT_EVENTS.get(agent, {}).get(named) if isinstance(named, str) else None
    if found is None:
        raise PayloadError("the hook input names no event vibflow records ('hook_event_name')")
    return found


def _paths(agent: str, tool: str, tool_input: dict[str, Any]) -> list[str]:
    keys = EDIT_TOOLS.get(agent, {}).get(tool, GENERIC_KEYS)
    out: list[str] = []
    for key in keys:
        value = tool_input.get(key)
        if isinstance(value, str):
            out.append(value)
    edits = tool_input.get("edits")
    if isinstance(edits, list):  # a multi-file edit tool may list its files per edit
        out += [
            e[k] for e in edits if isinstance(e, dict) for k in keys if isinstance(e.get(k), str)
        ]
    return list(dict.fromkeys(out))
