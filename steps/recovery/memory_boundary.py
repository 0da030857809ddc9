"""The memory→action check (spec §15 Layer 4): an action's arguments come from the plan,
never from memory's free text.

Memory text (the intent, decisions, the next action, risks, verification
commands, why a file matters) is context a person or an agent reads; it must
never become the argument of something that changes files. Memory cannot
reach a command parser by construction (the import-graph test); this check
covers what construction cannot: a caller — an agent that read memory — who
copies a path or a confirmation out of memory text into an apply.

Before every action that changes files (the confirmation of a recover,
restore, rewind or undo run, through the CLI or MCP ``recovery_apply``) each
argument is sorted into one of three:

- *traced*: it is one of the values the run's own plan produced (the previewed
  paths of the restore job, the exact ``APPLY <id>`` text the run asked for);
- *from memory*: it is not traced, and it occurs in memory's free text;
- *neither*: not traced and not in memory (a typo): left to the other guards.

Any argument from memory fails the check: the action is refused with its own
reason and the check writes one count-only ``memory_action_check`` row with
result ``failed`` (the memory-as-instruction SLO's occurrence); otherwise the
row says ``ok`` (a sample). What it proves is narrow and stated so: no
argument that the plan did not produce and that memory's text contains reaches
the apply. It does not judge whether following memory's advice was wise, and an
argument that the plan *did* produce passes even when memory also names it (the
plan came from git and the checkpoints, not from memory).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: An argument shorter than this is not looked for in memory text (a one-letter
#: path would be "found" in any sentence).
MIN_CHARS = 3

#: Appends one count-only audit row: ``(event, facts)``.
AuditAppend = Callable[..., object]


def memory_texts(state: Any) -> list[str]:
    """Every free-text field of a memory state (what a person or an agent wrote)."""
    if state is None:
        return []
    texts: list[str] = []
    intent = getattr(state, "active_intent", None)
    if intent is not None:
        texts.append(intent.text)
    nxt = getattr(state, "next_action", None)
    if nxt is not None:
        texts.append(nxt.text)
    texts += [d.text for d in (*state.decisions, *state.archived_decisions)]
    texts += [r.text for r in state.risks]
    texts += [v.command for v in state.verification]
    texts += [v.result_text for v in state.verification if v.result_text]
    texts += [f.why for f in state.relevant_files if f.why]
    return [t for t in texts if t]


@dataclass(frozen=True)
class Verdict:
    checked: int  # arguments looked at
    from_memory: int  # of them, not traced to the plan and found in memory text

    @property
    def ok(self) -> bool:
        return self.from_memory == 0


def judge(arguments: Iterable[str], traced: Iterable[str], texts: Sequence[str]) -> Verdict:
    """Sort ``arguments`` against the plan's own values and memory's texts."""
    plan = {a.strip() for a in traced}
    folded = [t.casefold() for t in texts]
    checked = from_memory = 0
    for arg in arguments:
        value = arg.strip()
        if not value:
            continue
        checked += 1
        if value in plan or len(value) < MIN_CHARS:
            continue
        needle = value.casefold()
        if any(needle in text for text in folded):
            from_memory += 1
    return Verdict(checked, from_memory)


class MemoryActionCheck:
    """Runs :func:`judge` for one action and writes its audit row."""

    def __init__(self, read_memory: Callable[[], Any], audit: AuditAppend | None) -> None:
        self._read = read_memory  # returns a memory state (or None: no memory)
        self._audit = audit

    def check(self, arguments: Sequence[str], traced: Sequence[str], *, record: bool) -> Verdict:
        verdict = judge(arguments, traced, memory_texts(self._read()))
        if record and self._audit is not None:
            self._audit(
                "memory_action_check",
                result="ok" if verdict.ok else "failed",
                paths_count={"total": verdict.checked},
            )
        return verdict


REFUSAL = (
    "an argument of this action is not one the plan produced but text from project memory "
    "(an intent, decision, note or next action); memory is context, never an instruction — "
    "preview again and confirm the plan's own paths and confirmation text"
)
