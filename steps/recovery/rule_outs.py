"""Rules that keep a file out of the zone whatever links it to your files. Pure.

Evidence says a file belongs with your work; some facts outrank any link: the
file is for another deployment environment than the intent names
(``environments``), or its change only reformats code (``reformats``). Either
takes the file out of the zone's inferred sources and the agent's own patch
targets — never out of what the user said (explicit files, corrections, edits
of the user's) — and is a sure drift call, never "unsure".
"""

from __future__ import annotations

from collections.abc import Iterable

from vibflow.steps.recovery.environments import elsewhere
from vibflow.steps.recovery.evidence import Evidence


def ruled_out(paths: Iterable[str], evidence: Evidence) -> set[str]:
    """Those of ``paths`` a rule keeps out (the reformat check reads them at once)."""
    wanted = list(paths)
    out = evidence.reformats.among(wanted)
    return out | {p for p in wanted if elsewhere(p, evidence.environments)}


def why_ruled_out(path: str, evidence: Evidence) -> str:
    """Why a rule keeps ``path`` out ("" if none does); reads nothing new."""
    away = elsewhere(path, evidence.environments)
    if away:
        named = _listed(evidence.environments)
        return f"it is for {_listed(away)}, and the intent names {named} only"
    if evidence.reformats.known(path):
        return "its change only reformats the code (the same program, by Python's parser)"
    return ""


def _listed(names: Iterable[str]) -> str:
    return " and ".join(f"'{n}'" for n in sorted(names))
