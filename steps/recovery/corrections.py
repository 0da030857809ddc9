"""The user's corrections of recovery labels, remembered per intent.

``vibflow recover feedback`` says whether a label of the latest preview was
right — a drift candidate, or a changed file placed in scope. Every verdict
feeds the circuit breaker (count-only, see ``breaker``); a *wrong* label is
also remembered here, for the active intent, so the next plans of that intent
label the path the way the user said (``zone.correction``), with a reason
saying so. A confirmed label needs no memory: the inference that made it
still holds.

The file (``.vibflow/recovery/corrections.json``) keys intents by a hash of
their text, so it never repeats what the intent says; it keeps the paths,
which are what a correction is about. It is bounded: the newest
``KEEP_INTENTS`` intents, ``KEEP_PATHS`` paths each.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.controls import one_line
from vibflow.engine.errors import ErrorCode, VibflowError

Label = Literal["in_scope", "drift"]
KEEP_INTENTS = 20
KEEP_PATHS = 5000
SCHEMA_VERSION = 1


def intent_key(intent: str) -> str:
    """The same intent (up to case, spacing and Unicode form) gives the same key."""
    text = " ".join(unicodedata.normalize("NFC", intent).casefold().split())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class Verdict:
    """One path the user judged: what the plan said, and whether that was right."""

    path: str
    labelled: Label
    correct: bool

    @property
    def correction(self) -> Label | None:
        """What to remember: the other label, when this one was wrong."""
        if self.correct:
            return None
        return "in_scope" if self.labelled == "drift" else "drift"


def judge(plan: Mapping[str, Any], correct: Sequence[str], wrong: Sequence[str]) -> list[Verdict]:
    """The verdicts the user gave on ``plan`` (the latest preview, redacted).

    A path may be any changed file the plan labelled: a drift candidate (what
    drift labelling said, even while the breaker is degraded) or a changed
    file it kept in scope. A rename may be named by either of its names.
    Explicit relevant files are never drift, so saying one is drift is refused
    with what to do instead.
    """
    if not correct and not wrong:
        raise VibflowError(ErrorCode.BAD_INPUT, "give at least one --correct or --wrong path")
    if set(correct) & set(wrong):
        raise VibflowError(ErrorCode.BAD_INPUT, "a path cannot be both --correct and --wrong")
    drift = set(plan.get("feedback_paths") or [])
    names: dict[str, str] = {}  # either name of a change → its path in the plan
    for c in plan.get("changed") or []:
        if isinstance(c, dict) and not c.get("generated") and isinstance(c.get("path"), str):
            names[c["path"]] = c["path"]
            if isinstance(c.get("old_path"), str):
                names.setdefault(c["old_path"], c["path"])
    for path in drift:
        names.setdefault(path, path)
    explicit = {
        z.get("path")
        for z in plan.get("intent_zone") or []
        if isinstance(z, dict) and z.get("source") == "explicit"
    }
    unknown = [p for p in [*correct, *wrong] if p not in names]
    if unknown:
        shown = ", ".join(f"'{one_line(p)}'" for p in unknown[:3])
        shown += " …" if len(unknown) > 3 else ""
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{len(unknown)} of the given paths were not changed files in that plan: {shown}",
            hint="Give paths the preview listed, in scope or outside it "
            "(`vibflow recover --preview --all` lists them all).",
        )
    out: list[Verdict] = []
    for given, ok in [(p, True) for p in correct] + [(p, False) for p in wrong]:
        path = names[given]
        labelled: Label = "drift" if path in drift else "in_scope"
        if labelled == "in_scope" and not ok and path in explicit:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"'{path}' is one of your explicit relevant files, which are never drift",
                hint="Remove it from the relevant files in memory first, then give feedback.",
            )
        out.append(Verdict(path, labelled, ok))
    return list({v.path: v for v in out}.values())


class CorrectionStore:
    """Corrections per intent, in one small JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        intents = data.get("intents") if isinstance(data, dict) else None
        return intents if isinstance(intents, dict) else {}

    def for_intent(self, intent: str | None) -> dict[str, str]:
        """path → ``"in_scope"`` or ``"drift"``, as the user last said for ``intent``."""
        if not intent:
            return {}
        entry = self._read().get(intent_key(intent))
        paths = entry.get("paths") if isinstance(entry, dict) else None
        if not isinstance(paths, dict):
            return {}
        return {
            p: v["label"]
            for p, v in paths.items()
            if isinstance(v, dict) and v.get("label") in ("in_scope", "drift")
        }

    def remember(self, intent: str, labels: Mapping[str, Label], at: str) -> None:
        """Record ``labels`` for ``intent``; a later word on a path replaces the earlier."""
        if not labels:
            return
        from filelock import FileLock

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(self.path.with_suffix(".lock")), timeout=30):
            intents = self._read()
            key = intent_key(intent)
            entry = intents.get(key) if isinstance(intents.get(key), dict) else {}
            paths = dict(entry.get("paths") or {}) if isinstance(entry, dict) else {}
            for path, label in labels.items():
                paths.pop(path, None)  # re-inserted last: the newest words are kept
                paths[path] = {"label": label, "at": at}
            kept = dict(list(paths.items())[-KEEP_PATHS:])
            intents.pop(key, None)
            intents[key] = {"updated_at": at, "paths": kept}
            newest = dict(list(intents.items())[-KEEP_INTENTS:])
            body = {"schema_version": SCHEMA_VERSION, "intents": newest}
            atomic_write(self.path, json.dumps(body, indent=1) + "\n")
