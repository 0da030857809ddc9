"""Merging vibflow's hooks into an agent's settings file, and taking them out.

Both agents keep hooks in a project JSON file under ``"hooks"``, one list of
groups per event, each group a ``matcher`` and a list of ``{"type":
"command", "command": ..., "timeout": ...}`` (Claude Code:
``.claude/settings.json`` or ``settings.local.json``, timeout in seconds;
Gemini CLI: ``.gemini/settings.json``, timeout in milliseconds). vibflow adds
one group per event whose command is ``vibflow agent hook AGENT EVENT`` —
``vibflow`` resolved from PATH, so the file can be committed and work for
anyone who installed vibflow — and touches nothing else.

Install is idempotent (a group already there is not added twice) and keeps
every other key, hook and group in its place. Uninstall removes exactly the
commands vibflow added (a user's hook in the same group stays); when what is
left equals the file as it was before install, the original bytes are written
back (formatting, key order and all), and a file or folder install created is
removed. The original bytes are kept under ``.vibflow/agents/installed/``; a
teammate uninstalling from a committed file without them gets the same JSON
back, re-indented the way the file was.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.agents.payloads import EDIT_TOOLS

MARK = "vibflow agent hook"


@dataclass(frozen=True)
class AgentSpec:
    name: str
    display: str
    folder: str
    #: event -> (the agent's event name, matcher or None)
    events: dict[str, tuple[str, str | None]]
    timeout_unit: int  # multiplier from seconds
    docs: str

    def file(self, *, local: bool) -> str:
        return f"{self.folder}/settings.local.json" if local else f"{self.folder}/settings.json"


AGENTS: dict[str, AgentSpec] = {
    "claude-code": AgentSpec(
        name="claude-code",
        display="Claude Code",
        folder=".claude",
        events={
            "session-start": ("SessionStart", None),
            "turn-start": ("UserPromptSubmit", None),
            "tool-use": ("PostToolUse", "|".join(EDIT_TOOLS["claude-code"])),
            "turn-end": ("Stop", None),
            "session-end": ("SessionEnd", None),
        },
        timeout_unit=1,
        docs="https://code.claude.com/docs/en/hooks",
    ),
    "gemini": AgentSpec(
        name="gemini",
        display="Gemini CLI",
        folder=".gemini",
        events={
            "session-start": ("SessionStart", None),
            "turn-start": ("BeforeAgent", None),
            "tool-use": ("AfterTool", "|".join(EDIT_TOOLS["gemini"])),
            "turn-end": ("AfterAgent", None),
            "session-end": ("SessionEnd", None),
        },
        timeout_unit=1000,
        docs="https://geminicli.com/docs/hooks/reference",
    ),
}


def spec(agent: str) -> AgentSpec:
    found = AGENTS.get(agent)
    if found is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"vibflow has no hooks for '{agent[:40]}'",
            hint=f"Known agents: {', '.join(AGENTS)}; for any other, `vibflow agent run -- CMD`.",
        )
    return found


def command(agent: str, event: str) -> str:
    return f"{MARK} {agent} {event}"


def _ours(hook: object, agent: str) -> bool:
    return isinstance(hook, dict) and str(hook.get("command", "")).startswith(f"{MARK} {agent} ")


@dataclass(frozen=True)
class Change:
    file: str
    changed: bool
    events: list[str]


def _load(path: Path, shown: str) -> tuple[bytes | None, dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        raise VibflowError(
            ErrorCode.BAD_INPUT, f"{shown} cannot be read ({type(exc).__name__})"
        ) from exc
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (ValueError, UnicodeDecodeError) as exc:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{shown} is not valid JSON, so vibflow will not edit it",
            hint="Fix the file (or move it aside), then run the command again.",
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("hooks", {}), dict):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{shown} is not a settings object with a 'hooks' object, so vibflow will not edit it",
        )
    return raw, data


def _indent(raw: bytes | None) -> int | str:
    if raw:
        match = re.search(rb"\n([ \t]+)\S", raw)
        if match:
            unit = match.group(1).decode()
            return "\t" if unit.startswith("\t") else len(unit)
    return 2


def _dump(data: dict[str, Any], raw: bytes | None) -> bytes:
    text = json.dumps(data, indent=_indent(raw), ensure_ascii=False)
    return (text + ("\n" if raw is None or raw.endswith(b"\n") else "")).encode("utf-8")


class AgentSettings:
    """vibflow's hooks in one agent's project settings file."""

    def __init__(self, root: Path, state_dir: Path, agent: str, *, local: bool = False) -> None:
        self.spec = spec(agent)
        self.root = root
        self.shown = self.spec.file(local=local)
        self.path = root / self.shown
        self._saved = state_dir / "agents" / "installed" / (self.shown.replace("/", "__") + ".json")

    def installed_events(self) -> list[str]:
        try:
            _, data = _load(self.path, self.shown)
        except VibflowError:
            return []
        hooks = data.get("hooks", {})
        found = []
        for event, (name, _) in self.spec.events.items():
            groups = hooks.get(name, [])
            if isinstance(groups, list) and any(
                _ours(h, self.spec.name)
                for g in groups
                if isinstance(g, dict) and isinstance(g.get("hooks"), list)
                for h in g["hooks"]
            ):
                found.append(event)
        return found

    def install(self, timeout_seconds: float) -> Change:
        raw, data = _load(self.path, self.shown)
        hooks = data.setdefault("hooks", {})
        added = []
        for event, (name, matcher) in self.spec.events.items():
            groups = hooks.setdefault(name, [])
            if not isinstance(groups, list):
                raise VibflowError(
                    ErrorCode.BAD_INPUT, f"{self.shown}: hooks.{name} is not a list; fix it by hand"
                )
            if any(
                _ours(h, self.spec.name)
                for g in groups
                if isinstance(g, dict) and isinstance(g.get("hooks"), list)
                for h in g["hooks"]
            ):
                continue
            hook = {
                "type": "command",
                "command": command(self.spec.name, event),
                "timeout": int(timeout_seconds * self.spec.timeout_unit),
            }
            group: dict[str, Any] = {"matcher": matcher} if matcher else {}
            group["hooks"] = [hook]
            groups.append(group)
            added.append(event)
        if not added:
            return Change(self.shown, False, [])
        if not self._saved.exists():
            self._saved.parent.mkdir(parents=True, exist_ok=True)
            record = {
                "file": self.shown,
                "original": None if raw is None else base64.b64encode(raw).decode("ascii"),
                "folder_existed": self.path.parent.exists(),
            }
            atomic_write(self._saved, json.dumps(record))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, _dump(data, raw))
        return Change(self.shown, True, added)

    def uninstall(self) -> Change:
        raw, data = _load(self.path, self.shown)
        removed = self._remove_ours(data.get("hooks", {}))
        if not removed:
            return Change(self.shown, False, [])
        if not data.get("hooks"):
            data.pop("hooks", None)
        self._write_back(raw, data)
        self._saved.unlink(missing_ok=True)
        return Change(self.shown, True, sorted(set(removed)))

    def only_ours_changed(self) -> bool:
        """Whether install's record is here and the file, without vibflow's hooks, is
        still what install found (or, when install created it, is empty): its only
        change is ours. A file edited since — a setting added, a hook of the user's —
        is not."""
        saved = self._saved_record()
        if saved is None:
            return False
        try:
            raw, data = _load(self.path, self.shown)
        except VibflowError:
            return False
        if raw is None or not self._remove_ours(data.get("hooks", {})):
            return False
        if not data.get("hooks"):
            data.pop("hooks", None)
        original = saved.get("original")
        if original is None:
            return not _bare(data)
        try:
            return isinstance(original, str) and _same(base64.b64decode(original), data)
        except ValueError:  # a damaged record proves nothing
            return False

    def _remove_ours(self, hooks: dict[str, Any]) -> list[str]:
        """Take every command of ours out of ``hooks`` (in place); the events it was in."""
        removed = []
        for event, (name, _) in self.spec.events.items():
            groups = hooks.get(name)
            if not isinstance(groups, list):
                continue
            kept_groups = []
            for group in groups:
                inner = group.get("hooks") if isinstance(group, dict) else None
                if not isinstance(inner, list) or not any(_ours(h, self.spec.name) for h in inner):
                    kept_groups.append(group)
                    continue
                removed.append(event)
                rest = [h for h in inner if not _ours(h, self.spec.name)]
                if rest:
                    kept_groups.append({**group, "hooks": rest})
            if kept_groups:
                hooks[name] = kept_groups
            else:
                del hooks[name]
        return removed

    def _write_back(self, raw: bytes | None, data: dict[str, Any]) -> None:
        """The file without our hooks: its original bytes when nothing else changed
        since install, gone when install created it, else the JSON re-indented."""
        saved = self._saved_record()
        original = saved.get("original") if saved else None
        if saved is not None and original is None and not _bare(data):
            self.path.unlink()
            if not saved.get("folder_existed", True):
                with contextlib.suppress(OSError):  # something else lives there now
                    self.path.parent.rmdir()
        elif isinstance(original, str) and _same(base64.b64decode(original), data):
            atomic_write(self.path, base64.b64decode(original))
        else:
            atomic_write(self.path, _dump(data, raw))

    def _saved_record(self) -> dict[str, Any] | None:
        try:
            value = json.loads(self._saved.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) else None


def _same(original: bytes, data: dict[str, Any]) -> bool:
    try:
        before = json.loads(original.decode("utf-8")) if original.strip() else {}
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(before, dict) and _bare(before) == _bare(data)


def _bare(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without an empty ``hooks`` object (install may have added it)."""
    return {k: v for k, v in data.items() if not (k == "hooks" and v == {})}


def installed_only(root: Path, state_dir: Path) -> dict[str, str]:
    """The agents' settings files whose only change is vibflow's own hooks, each with
    why in words: what ``vibflow agent install`` wrote is vibflow's, not an agent's
    drift, and restoring the file would take the hooks out. Nothing is read unless
    install left its record."""
    if not (state_dir / "agents" / "installed").is_dir():
        return {}
    out = {}
    for name, agent in AGENTS.items():
        for local in (False, True) if name == "claude-code" else (False,):
            settings = AgentSettings(root, state_dir, name, local=local)
            if settings.only_ours_changed():
                out[settings.shown] = (
                    f"vibflow's own hooks for {agent.display} (`vibflow agent install {name}`;"
                    f" `vibflow agent uninstall {name}` takes them out)"
                )
    return out
