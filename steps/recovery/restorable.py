"""Changed files no restore could ever write: names the path contract refuses.

A restore's paths pass the path contract at the confirmation (the
``paths_valid`` guard), and one refused name refuses the whole restore. A file
whose name has a tab, an invisible mark or a character Windows cannot store is
a perfectly good file on Linux, and git lists it as changed; offered in an
option, every confirmation would be refused and the user told to try again,
forever. So the plan leaves such files out of its restore options up front and
lists them in ``left_out`` with the reason in words: the rest can be restored,
and these the user restores by hand.

Only the contract's rules that need no filesystem are applied here
(``contract.refusal``), the cheap ones, so a plan of any size pays little; a
name that passes them is still checked in full at the confirmation. A name
with a backslash is left out too: the contract reads ``\\`` as a folder
separator, so the restore would write a different path. Both names of a
rename go together (a rename is one change): when one cannot be restored,
neither is offered.

Pure: paths in, reasons out.
"""

from __future__ import annotations

from collections.abc import Iterable

from vibflow.steps.paths.contract import DEFAULT_POLICY, PathPolicy, refusal
from vibflow.steps.paths.rules import PathRule
from vibflow.steps.recovery.models import ChangedFile

#: The end of every reason here; ``recover_render`` lists these apart by it.
_BY_HAND = "; restore it by hand"

#: What is wrong with the name, in words, per rule the contract refuses it by.
_WORDS = {
    PathRule.CONTROL_CHAR: "its name has a control character (a tab, a line break …) or an "
    "invisible text-direction mark",
    PathRule.INVALID_ENCODING: "its name is not valid UTF-8 text",
    PathRule.INVISIBLE_CHARACTER: "its name has an invisible character (a zero-width space "
    "or joiner …)",
    PathRule.RESERVED_NAME: "its name is one Windows reserves for a device (CON, NUL, COM1 …)",
    PathRule.TRAILING_DOT_OR_SPACE: "a name in its path ends with a dot or a space",
    PathRule.ALTERNATE_DATA_STREAM: "its name has a ':'",
    PathRule.INVALID_CHARACTER: 'its name has a character Windows cannot store (< > " | ? *)',
    PathRule.TOO_LONG: "its path, or a name in it, is too long",
    PathRule.EMPTY: "a name in its path is blank",
    PathRule.GENERATED: "it is a generated, cache or build output (policy paths.generated)",
    PathRule.VCS_DIR: "it is inside git's own .git folder",
    PathRule.VIBFLOW_DIR: "it is inside .vibflow, vibflow's own state",
}


def why_not(path: str, policy: PathPolicy = DEFAULT_POLICY) -> str | None:
    """Why a restore could not write ``path``, in words; None when nothing says so yet."""
    if "\\" in path:
        return "its name has a backslash, which vibflow reads as a folder separator" + _BY_HAND
    refused = refusal(path, policy=policy)
    if refused is None:
        return None
    words = _WORDS.get(refused.rule, f"its name breaks the path rule '{refused.rule.value}'")
    return words + _BY_HAND


def unrestorable(
    changed: Iterable[ChangedFile], policy: PathPolicy = DEFAULT_POLICY
) -> dict[str, str]:
    """Each name of ``changed`` a restore could not write → why, in words; with a
    rename's other name when one of its two is such a name."""
    out: dict[str, str] = {}
    for c in changed:
        if c.generated:
            continue  # never offered anyway
        why = why_not(c.path, policy)
        old_why = why_not(c.old_path, policy) if c.old_path else None
        if why is not None:
            out[c.path] = why
        if c.old_path is None or (why is None and old_why is None):
            continue
        if old_why is not None:
            out[c.old_path] = old_why
        else:
            out[c.old_path] = (
                f"renamed to a name vibflow cannot restore ({c.path}), and a rename is one "
                "change" + _BY_HAND
            )
        if why is None:
            out[c.path] = (
                f"renamed from a name vibflow cannot restore ({c.old_path}), and a rename is "
                "one change" + _BY_HAND
            )
    return out
