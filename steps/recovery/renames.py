"""A rename is one change: choosing either of its names takes both.

A rename — ``git mv``, or a tracked file deleted beside an untracked copy of it,
which ``diffs.pair_moves`` pairs — touches two paths in a restore: the old name
is put back and the new one deleted. Restoring one of them alone splits the
change: the new name alone deletes the module and brings nothing back, the old
name alone leaves two copies. So a chosen file subset is completed with the
other name of every rename it touches, and each name added is reported, for the
confirmation (and the result) to say so in words.

Pure: it reads the plan as it is stored beside the run (JSON, as previewed) and
writes nothing. A pair counts only when the option restores both of its names
(a name the option leaves out — one the checkpoint could not hold — takes the
other with it when the options are built, see ``options.build_options``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Partner:
    """A name added to a subset because the other name of its rename was chosen."""

    path: str
    chosen: str
    #: ``path`` is the rename's old name (else its new one).
    old: bool
    #: The restore deletes ``path`` (it did not exist at the safe point).
    deleted: bool

    def words(self) -> str:
        """``helpers_v2.py — and its old name legacy_utils.py, restored with it``."""
        side = "old" if self.old else "new"
        fate = "deleted" if self.deleted else "restored"
        return f"{self.chosen} — and its {side} name {self.path}, {fate} with it"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "chosen": self.chosen,
            "side": "old" if self.old else "new",
            "action": "delete" if self.deleted else "restore",
            "why": self.words(),
        }


def other_names(plan: Mapping[str, Any]) -> dict[str, tuple[str, bool]]:
    """Each name of each rename in the plan → (its other name, whether that one is
    the old name)."""
    out: dict[str, tuple[str, bool]] = {}
    for change in plan.get("changed") or []:
        if not isinstance(change, Mapping) or change.get("status") != "renamed":
            continue
        new, old = change.get("path"), change.get("old_path")
        if isinstance(new, str) and isinstance(old, str) and new != old:
            out[new] = (old, True)
            out[old] = (new, False)
    return out


def complete(
    chosen: Sequence[str], plan: Mapping[str, Any], option: Mapping[str, Any]
) -> tuple[list[str], list[Partner]]:
    """``chosen`` with the other name of every rename it touches (right after the name
    chosen, once), and the names so added."""
    names = other_names(plan)
    if not names:
        return list(chosen), []
    restores = set(option.get("affected_paths") or [])
    deletes = set(option.get("deletes") or [])
    picked = set(chosen)
    out: list[str] = []
    added: list[Partner] = []
    for path in dict.fromkeys(chosen):
        out.append(path)
        other = names.get(path)
        if other is None or path not in restores:
            continue
        name, is_old = other
        if name in picked or name not in restores:
            continue
        picked.add(name)
        out.append(name)
        added.append(Partner(name, path, is_old, name in deletes))
    return out, added
