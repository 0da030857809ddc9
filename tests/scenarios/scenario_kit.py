"""The scenario kit: build a small real repository, its history, memory and an
agent's edits, and write down what a careful user would call each change.

A scenario is a function ``build(scene)``. It commits a project (with a dated
history when co-change matters), sets memory (intent, explicit files, observed
patches, corrections), takes checkpoints, lets "the agent" edit the work tree,
and records the truth:

* ``drift``     — changes the user did not ask for (must be flagged for review);
* ``fine``      — changes that belong to the intent (must not be flagged);
* ``excluded``  — generated, vendored and build output (never in the zone, never
  drift, never in a restore);
* ``safe``      — the safe point a restore should read from.

The truth is written to ``truth.json`` next to the repository, so a run can be
inspected afterwards. Nothing is downloaded; every file is made here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from vibflow_testing.git import dated, run_git
from vibflow_testing.repo import init_repo, write

#: The first bytes of a Linux executable, as ``go build`` / ``cargo build`` leave them.
ELF = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 56 + b"compiled program\x00\x01\x02"
#: A small PNG (header and some bytes): a real binary asset, not a build output.
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(40))
#: A compiled Java class / .NET assembly, as build tools leave them.
CLASS = b"\xca\xfe\xba\xbe\x00\x00\x00\x41" + b"\x00" * 32
DLL = b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 56 + b"PE\x00\x00"


@dataclass
class Scene:
    """One scenario being built: the repository and its truth."""

    base: Path
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    drift_paths: set[str] = field(default_factory=set)
    fine_paths: set[str] = field(default_factory=set)
    excluded_paths: set[str] = field(default_factory=set)
    explicit: dict[str, str] = field(default_factory=dict)
    safe: dict[str, Any] | None = None
    note: str = ""
    #: Each ``agent()`` call is one agent turn the hooks record (``vibflow agent run``'s
    #: wrapping: a checkpoint before and after it), as with the agent hooks installed.
    hooks: bool = False
    _committed: bool = False

    def __post_init__(self) -> None:
        self.root = init_repo(self.base / "repo")
        write(self.root, ".vibflow/.gitignore", "*\n")

    # -- history ------------------------------------------------------------------------

    def commit(
        self,
        message: str,
        files: Mapping[str, str | bytes] | None = None,
        *,
        delete: Iterable[str] = (),
        days_ago: float = 30,
    ) -> None:
        """Commit ``files`` (and deletions) dated ``days_ago`` days back."""
        for rel, text in (files or {}).items():
            write(self.root, rel, text)
        for rel in delete:
            (self.root / rel).unlink()
        run_git(self.root, "add", "-A")
        when = self.now - timedelta(days=days_ago)
        run_git(self.root, "commit", "-q", "--allow-empty", "-m", message, **dated(when))
        self._committed = True

    # -- memory ---------------------------------------------------------------------------

    def intent(
        self,
        text: str | None,
        explicit: Mapping[str, str] | Iterable[str] = (),
        *,
        patches: Iterable[str] = (),
        hours_ago: float = 0.0,
    ) -> None:
        """Write memory as the CLI keeps it: the intent, explicit relevant files,
        observed patch targets."""
        when = self.now - timedelta(hours=hours_ago)
        stamp = when.isoformat(timespec="seconds").replace("+00:00", "Z")
        files = dict(explicit) if isinstance(explicit, Mapping) else dict.fromkeys(explicit, "")
        self.explicit = files
        data: dict[str, Any] = {"schema_version": 1}
        if text is not None:
            head = run_git(self.root, "rev-parse", "HEAD").decode().strip()
            data["active_intent"] = {
                "text": text,
                "last_updated": stamp,
                "updated_by": "cli",
                "head_at_update": head,
            }
        data["relevant_files"] = [
            {
                "path": p,
                "why": why,
                "source": "explicit",
                "last_updated": stamp,
                "updated_by": "cli",
            }
            for p, why in files.items()
        ]
        found = list(patches)
        if found:
            data["observed_context"] = [
                {"kind": "patch_apply", "at": stamp, "source": "hook", "detail": {"paths": found}}
            ]
        target = self.root / ".vibflow" / "memory.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    def corrections(self, intent: str, labels: Mapping[str, str]) -> None:
        """What the user said through ``recover feedback`` earlier, for ``intent``."""
        from vibflow.steps.recovery.corrections import CorrectionStore

        store = CorrectionStore(self.root / ".vibflow" / "recovery" / "corrections.json")
        store.remember(intent, dict(labels), self.now.isoformat())  # type: ignore[arg-type]

    def checkpoint(self, message: str) -> str:
        """A checkpoint of the work tree as it is now (the real store)."""
        from vibflow.wiring import Project

        made = Project(self.root.resolve()).checkpoints.create(message)
        time.sleep(0.02)  # what the agent does next comes strictly after it
        return made.checkpoint_id

    # -- the agent --------------------------------------------------------------------------

    def agent(
        self,
        files: Mapping[str, str | bytes] | None = None,
        *,
        delete: Iterable[str] = (),
        rename: Mapping[str, str] | None = None,
    ) -> None:
        """The agent's edits in the work tree (uncommitted)."""
        if self.hooks:
            self._turn(files, delete, rename)
        else:
            self._edit(files, delete, rename)

    def _turn(
        self,
        files: Mapping[str, str | bytes] | None,
        delete: Iterable[str],
        rename: Mapping[str, str] | None,
    ) -> None:
        """The edits as one agent turn through the real hook handler (what the installed
        hooks run): turn start, the edits with each file its tools wrote reported,
        turn end — one session per turn, as ``vibflow agent run`` records one."""
        from vibflow.agent_hook import recorded_session

        root = self.root.resolve()
        written = [*(rename or {}).keys(), *(rename or {}).values(), *(files or {}), *delete]
        with recorded_session(root, "claude-code", "scenario") as send:
            send("turn_start")
            self._edit(files, delete, rename)
            send("tool_use", "Edit", [str(root / p) for p in written])
            send("turn_end")
        time.sleep(0.02)  # what follows comes strictly after the turn's end

    def _edit(
        self,
        files: Mapping[str, str | bytes] | None,
        delete: Iterable[str],
        rename: Mapping[str, str] | None,
    ) -> None:
        for old, new in (rename or {}).items():
            target = self.root / new
            target.parent.mkdir(parents=True, exist_ok=True)
            (self.root / old).replace(target)
        for rel, text in (files or {}).items():
            write(self.root, rel, text)
        for rel in delete:
            (self.root / rel).unlink()

    # -- truth ------------------------------------------------------------------------------

    def drift(self, *paths: str) -> None:
        self.drift_paths.update(paths)

    def fine(self, *paths: str) -> None:
        self.fine_paths.update(paths)

    def excluded(self, *paths: str) -> None:
        self.excluded_paths.update(paths)

    def safe_checkpoint(self, checkpoint_id: str) -> None:
        self.safe = {"kind": "checkpoint", "checkpoint_id": checkpoint_id}

    def safe_commit(self) -> None:
        self.safe = {"kind": "commit"}

    def truth(self) -> dict[str, Any]:
        if self.safe is None and self._committed:
            self.safe_commit()
        return {
            "drift": sorted(self.drift_paths),
            "fine": sorted(self.fine_paths),
            "excluded": sorted(self.excluded_paths),
            "explicit": sorted(self.explicit),
            "safe": self.safe,
            "note": self.note,
        }


Builder = Callable[[Scene], None]


@dataclass(frozen=True)
class Scenario:
    name: str
    build: Builder
    held_out: bool
    about: str
    #: Written after the tuning (reported apart, not part of the test's thresholds).
    fresh: bool = False
    #: Which batch of fresh scenarios (each written before the rules were tuned again).
    batch: int = 1


def build(scenario: Scenario, base: Path, *, hooks: bool = False) -> tuple[Path, dict[str, Any]]:
    """Build ``scenario`` under ``base``; the repository and its truth (also written
    to ``base/truth.json``). ``hooks``: the agent's edits are recorded turns."""
    base.mkdir(parents=True, exist_ok=True)
    scene = Scene(base, hooks=hooks)
    scenario.build(scene)
    truth = scene.truth()
    (base / "truth.json").write_text(
        json.dumps(truth, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return scene.root, truth


def lines(*items: str) -> str:
    return "\n".join(items) + "\n"
