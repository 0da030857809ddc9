"""What went wrong in a hook, kept for ``vibflow agent status``.

A hook never fails the agent, so a problem cannot be reported by an exit
status or an error on the agent's screen; it is appended here instead, one
JSON line each (time, agent, event, a plain sentence — never a payload, a
prompt or an absolute path), and the file is trimmed to its newest
:data:`KEEP` lines. When ``.vibflow/`` itself is what is broken (a file where
the folder should be, no permission), the line goes to a fallback file in the
repository's git folder, which ``agent status`` reads too. Standard library
only (the hook imports it); a problem log that cannot be written is dropped
silently — the hook's own exit status is never at stake.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

KEEP = 100
FILE = "problems.jsonl"
FALLBACK = "vibflow-agent-problems.jsonl"


class Problem:
    """One noted problem. A plain class (its ``__dict__`` is the JSON line): the hook
    imports this, and ``dataclasses`` costs it several milliseconds."""

    def __init__(self, at: str, agent: str, event: str, problem: str) -> None:
        self.at = at
        self.agent = agent
        self.event = event
        self.problem = problem

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((self.at, self.agent, self.event, self.problem))

    def __repr__(self) -> str:
        return f"Problem({self.at!r}, {self.agent!r}, {self.event!r}, {self.problem!r})"


def find_git_dir(start: Path) -> Path | None:
    """The ``.git`` folder above ``start`` (found without running git: git may be missing)."""
    here = start
    for _ in range(64):
        candidate = here / ".git"
        if candidate.is_dir():
            return candidate
        if candidate.is_file():  # a linked worktree: "gitdir: <path>"
            try:
                text = candidate.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            if text.startswith("gitdir:"):
                target = Path(text.removeprefix("gitdir:").strip())
                return target if target.is_absolute() else (here / target).resolve()
            return None
        if here.parent == here:
            return None
        here = here.parent
    return None


class ProblemLog:
    """``<state>/agents/problems.jsonl``, with ``<git dir>/vibflow-agent-problems.jsonl``
    as the place of last resort."""

    def __init__(self, state_dir: Path | None, git_dir: Path | None) -> None:
        self.primary = state_dir / "agents" / FILE if state_dir is not None else None
        self.fallback = git_dir / FALLBACK if git_dir is not None else None

    def add(self, problem: Problem) -> None:
        line = json.dumps(problem.__dict__, ensure_ascii=False) + "\n"
        for target in (self.primary, self.fallback):
            if target is not None and _append(target, line):
                return

    def recent(self, limit: int = 10) -> list[Problem]:
        found: list[Problem] = []
        for source in (self.primary, self.fallback):
            if source is not None:
                found += _read(source)
        found.sort(key=lambda p: p.at)
        return found[-limit:]


def _append(target: Path, line: str) -> bool:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # O_APPEND: two hooks at once each add whole lines (short writes are atomic).
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
        try:
            os.write(fd, line.encode("utf-8", "replace"))
        finally:
            os.close(fd)
        if target.stat().st_size > KEEP * 400:
            _trim(target)
    except OSError:
        return False
    return True


def _trim(target: Path) -> None:
    lines = target.read_bytes().splitlines(keepends=True)[-KEEP:]
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_bytes(b"".join(lines))
    tmp.replace(target)


def _read(source: Path) -> list[Problem]:
    try:
        raw = source.read_bytes()
    except OSError:
        return []
    out = []
    for line in raw.splitlines()[-KEEP:]:
        try:
            data = json.loads(line)
            out.append(
                Problem(
                    str(data["at"]), str(data["agent"]), str(data["event"]), str(data["problem"])
                )
            )
        except (ValueError, KeyError, TypeError):
            continue
    return out
