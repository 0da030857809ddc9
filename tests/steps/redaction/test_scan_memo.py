"""A long-lived process's memo of the contract's verdicts (``scans.ScanMemo``) changes
nothing: every payload redacts to the same value, counts and marks as with no memo,
whether its texts are new (judged in one batch, or one by one when few), already
judged, or judged under another privacy context."""

from __future__ import annotations

import getpass
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing import PATHS_CORPUS, REDACTION_CORPUS
from vibflow_testing.redaction import PLANTED

from vibflow.steps.redaction import redact_payload
from vibflow.steps.redaction.contract import _ALONE_MAX
from vibflow.steps.redaction.scans import ScanMemo

MARK = re.compile(r"⟦([a-z0-9_]+)\|(.*?)⟧", re.DOTALL)


def corpus_lines() -> list[str]:
    lines: list[str] = []
    for folder in ("secrets", "near_misses"):
        for path in sorted((REDACTION_CORPUS / folder).iterdir()):
            text = MARK.sub(lambda m: m.group(2), path.read_text(encoding="utf-8"))
            lines += [line for line in text.splitlines() if line.strip()]
    return lines


def hostile_paths() -> list[str]:
    out: list[str] = []
    for name in ("hostile.jsonl", "benign.jsonl"):
        for line in (PATHS_CORPUS / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                row = json.loads(line)
                out += [v for v in row.values() if isinstance(v, str)]
    return out


LINES = corpus_lines()
HOSTILE = hostile_paths()
PATHS = [f"src/ui/pkg{i:04d}/mod_{i:06d}.py" for i in range(60)]


def plan_like(root: Path, strings: list[str], n: int = 0) -> dict[str, Any]:
    """A recovery plan's shape: files with reasons, a fresh id, memory text, keys
    that are themselves paths (and may hold a secret)."""
    private = [f"{root}/src/app.py", f"{Path.home()}/.ssh/id_ed25519", getpass.getuser()]
    return {
        "plan_id": f"pln_{n:032x}",
        "changed": [
            {"path": s, "status": "modified", "category": None, "why": f"touched {s}"}
            for s in strings
        ],
        "drift": {s: {"reason": s, "n": i} for i, s in enumerate(strings[:20])},
        "memory": [*PLANTED, *private],
        "nested": [[s, (s, None, 1.5, True)] for s in strings[:10]],
        "long": "x" * 9000 + " " * 100 + PLANTED[0],
    }


def same(data: Any, memo: ScanMemo, root: Path, **kw: Any) -> None:
    want = redact_payload(data, root=root, **kw)
    got = redact_payload(data, root=root, memo=memo, **kw)
    assert got.value == want.value
    assert got.counts == want.counts
    assert got.marks == want.marks


def test_a_warm_memo_redacts_plans_exactly_as_no_memo(tmp_path: Path) -> None:
    """First request (many new texts: the batch), then warm repeats with a few new
    texts each (judged one by one), planted secrets and hostile names throughout."""
    memo = ScanMemo()
    strings = [*PATHS, *HOSTILE, *LINES]
    same(plan_like(tmp_path, strings), memo, tmp_path)
    for n in range(1, 4):
        edited = [*strings, f"src/new_{n}.py", f"password = hunter{n}hunter{n}"]
        same(plan_like(tmp_path, edited, n), memo, tmp_path)
        same(plan_like(tmp_path, edited, n), memo, tmp_path, max_field_chars=200)
    assert memo.under(_ctx(tmp_path)).seen >= set(PATHS)


def test_just_past_the_one_by_one_budget_falls_back_to_the_batch(tmp_path: Path) -> None:
    """One text more than the warm walk judges alone: it starts again and judges all
    together, with the same answer."""
    memo = ScanMemo()
    same(PATHS, memo, tmp_path)
    fresh = [f"{line} #{i}" for i, line in enumerate(LINES)][: _ALONE_MAX + 1]
    same([*PATHS, *fresh], memo, tmp_path)
    same([*PATHS, *fresh, *PLANTED], memo, tmp_path)


def test_another_root_starts_the_memo_afresh(tmp_path: Path) -> None:
    """A text quiet under one root is private under another: verdicts never cross."""
    memo = ScanMemo()
    one, two = tmp_path / "one", tmp_path / "two"
    texts = [f"{two}/src/a.py", f"{one}/src/a.py", *PATHS]
    same(texts, memo, one)
    same(texts, memo, two)
    same(texts, memo, one)
    assert memo.resets == 2


def test_the_memo_is_bounded(tmp_path: Path) -> None:
    """Past its bound the memo starts again, and answers stay the same."""
    memo = ScanMemo(max_texts=50)
    for n in range(3):
        same([f"src/f{n}_{i}.py" for i in range(40)] + PLANTED, memo, tmp_path)
    assert memo.resets >= 1


def _ctx(root: Path) -> Any:
    from vibflow.steps.redaction.privacy import PrivacyContext

    return PrivacyContext.for_root(root)


TOKENS = st.sampled_from([*LINES[:80], *PATHS[:10], *HOSTILE[:40], *PLANTED, "", " ", "x" * 700])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.lists(TOKENS, max_size=3).map(" ".join), max_size=12), max_size=4))
def test_generated_request_sequences_redact_as_with_no_memo(requests: list[list[str]]) -> None:
    """Any sequence of payloads through one memo: each as it would be alone."""
    root = Path("/nonexistent-vibflow-root/project")
    memo = ScanMemo()
    for strings in requests:
        same({"items": strings, "keys": dict.fromkeys(strings, 1)}, memo, root, max_field_chars=300)
