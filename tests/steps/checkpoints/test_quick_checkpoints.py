"""The agent hook's lean checkpoint path (``checkpoints.quick``) against the full store.

Two copies of one repository get the same changes, step by step: one takes each
checkpoint the hook's way (the lean path, falling back to the full store only when
it says it cannot vouch for the case), the other with the full store only. Every
step must give the same checkpoint — same tree, base, counts and left-out files,
reused exactly when the full store reuses — and the lean one must be readable by
the full store as its own. Real git, real files; nothing is mocked.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.git import dated, gtext, run_git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.agents.payloads import AGENT_EVENTS
from vibflow.steps.checkpoints import lean_retention, quick
from vibflow.steps.checkpoints import store as full
from vibflow.steps.checkpoints.lean_policy import LeanPolicy
from vibflow.steps.checkpoints.models import (
    META_MARKER,
    REF_PREFIX,
    CheckpointMeta,
    CheckpointPolicy,
    SecretFilesPolicy,
)
from vibflow.steps.checkpoints.quick import QuickCheckpoints, Unsupported
from vibflow.steps.checkpoints.report import redact_message
from vibflow.steps.checkpoints.store import CheckpointStore
from vibflow.steps.workspace.git import Git
from vibflow.steps.workspace.root import state_dir

#: A GitHub token shape the specific detectors always flag.
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_lean_constants_are_the_stores() -> None:
    """The lean path writes the store's ref prefix, marker and identity, and its default
    policy is the shipped one (size cap, retention, secret-file fingerprint)."""
    assert (quick.REF_PREFIX, quick.META_MARKER) == (REF_PREFIX, META_MARKER)
    assert quick.IDENTITY is full._IDENTITY  # one definition (snapshot_core)
    shipped = CheckpointPolicy()
    lean = LeanPolicy()
    assert lean.size_cap_bytes == shipped.size_cap_bytes
    assert (lean.keep_last, lean.keep_days, lean.protect_sandwiches) == (
        shipped.keep_last,
        shipped.keep_days,
        shipped.protect_sandwiches,
    )
    assert lean.fingerprint == shipped.secrets.fingerprint()
    custom = CheckpointPolicy(
        untracked_size_cap_mb=1,
        secrets=SecretFilesPolicy(extra_names=("*.secret",), scan_budget_mb=2, scan_max_kb=64),
    )
    for lean_custom in (
        LeanPolicy.from_policy(custom),
        LeanPolicy.from_dump(custom.model_dump(mode="json")),  # as the hook caches it
    ):
        assert lean_custom.fingerprint == custom.secrets.fingerprint()
        assert lean_custom.size_cap_bytes == custom.size_cap_bytes


def test_the_hooks_messages_are_stored_as_redaction_leaves_them(tmp_path: Path) -> None:
    """The messages the lean path stores unredacted are exactly what redaction returns."""
    for agent in AGENT_EVENTS:
        for text in (
            f"before {agent} turn next",
            f"before {agent} turn 7",
            f"after {agent} turn 12",
        ):
            assert quick.HOOK_MESSAGE.fullmatch(text)
            assert redact_message(text, tmp_path) == text


# -- the differential ---------------------------------------------------------------------


class Pair:
    """Two identical repositories: ``lean`` checkpoints the hook's way, ``ref`` the full way."""

    def __init__(self, tmp_path: Path) -> None:
        self.lean = init_repo(
            tmp_path / "lean",
            {"src/a.py": "a\n", "src/b.py": "b\n", "docs/c.md": "c\n", "keep.txt": "k\n"},
            old=True,
        )
        self.ref = tmp_path / "ref"
        shutil.copytree(self.lean, self.ref, symlinks=True)
        self.answered: list[bool] = []  # did the lean path answer (no fallback)?
        self.turn = 0

    def both(self, change: Callable[[Path], object]) -> None:
        for root in (self.lean, self.ref):
            change(root)

    def step(self, *, lean_answers: bool | None = None) -> tuple[CheckpointMeta, CheckpointMeta]:
        """One checkpoint in each; they must agree."""
        self.turn += 1
        message = f"before claude-code turn {self.turn}"
        try:
            cid, reused = QuickCheckpoints(self.lean, state_dir(self.lean)).create(message)
            answered = True
        except Unsupported:
            made = CheckpointStore(self.lean, state_dir(self.lean)).create(
                message, reason="agent_turn"
            )
            cid, reused, answered = made.checkpoint_id, made.reused, False
        if lean_answers is not None:
            assert answered is lean_answers, "the lean path did not take the case expected"
        lean = CheckpointStore(self.lean, state_dir(self.lean)).get(cid)
        ref = CheckpointStore(self.ref, state_dir(self.ref)).create(message, reason="agent_turn")
        assert lean.metadata_complete, "the store cannot read the lean checkpoint's metadata"
        assert reused == ref.reused
        assert _same(lean) == _same(ref)
        return lean, ref


def _same(meta: CheckpointMeta) -> dict[str, Any]:
    return meta.model_dump(include={"tree", "base_head", "file_count", "untracked_count",
                                    "skipped", "unscanned_count", "reason"})  # fmt: skip


def _old(root: Path, rel: str, text: str | bytes) -> None:
    write(root, rel, text, old=True)


def test_the_lean_path_takes_the_same_checkpoints_as_the_store(tmp_path: Path) -> None:
    """Step by step (tracked edits, deletions and their return, new and secret and large
    untracked files, a nested repository, an ignore rule, the user's own git add and
    commit), the lean path's checkpoint equals the full store's, reuse included."""
    pair = Pair(tmp_path)
    pair.step(lean_answers=False)  # the first checkpoint: the store's own
    pair.step(lean_answers=True)  # nothing changed: reused
    pair.both(lambda r: write(r, "src/a.py", "a edited\n"))
    pair.both(lambda r: write(r, "docs/c.md", "c edited\n"))
    pair.step(lean_answers=True)
    pair.both(lambda r: (r / "src" / "b.py").unlink())
    pair.step(lean_answers=True)
    pair.both(lambda r: write(r, "src/b.py", "b is back\n"))
    pair.step(lean_answers=True)
    _untracked_files(pair)
    # An included untracked file becomes ignored (outside the tree), then one is deleted.
    pair.both(lambda r: (r / ".git" / "info").mkdir(exist_ok=True))
    pair.both(lambda r: (r / ".git" / "info" / "exclude").write_text("notes/todo.txt\n"))
    pair.step(lean_answers=True)
    pair.both(lambda r: (r / ".git" / "info" / "exclude").write_text(""))
    pair.step(lean_answers=True)  # back again, unchanged: its cached verdict holds
    pair.both(lambda r: (r / "notes" / "todo.txt").unlink())
    pair.step(lean_answers=True)
    # The user's own git add (the private index is seeded again), then a commit.
    pair.both(lambda r: write(r, "keep.txt", "k staged\n"))
    pair.both(lambda r: run_git(r, "add", "keep.txt"))
    pair.step(lean_answers=True)
    when = dated(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))  # the same commit in both
    pair.both(lambda r: run_git(r, "commit", "-q", "-m", "mine", **when))
    pair.step(lean_answers=True)
    pair.step(lean_answers=True)
    # A file turned into a folder, and a symlink in place of a file.
    pair.both(lambda r: (r / "docs" / "c.md").unlink())
    pair.both(lambda r: write(r, "docs/c.md/inner.md", "inner\n"))
    pair.both(lambda r: (r / "src" / "a.py").unlink())
    pair.both(lambda r: (r / "src" / "a.py").symlink_to("b.py"))
    pair.step()
    pair.step(lean_answers=True)


def _untracked_files(pair: Pair) -> None:
    """New, secret, just-written, large and nested untracked files, step by step."""
    # New untracked files: scanned for secrets the store's way (its scanner and cache).
    pair.both(lambda r: _old(r, "notes/todo.txt", "write tests\n"))
    pair.step(lean_answers=True)
    pair.step(lean_answers=True)
    pair.both(lambda r: _old(r, "notes/token.txt", f"token = {TOKEN}\n"))
    lean, _ = pair.step(lean_answers=True)
    assert [s.reason for s in lean.skipped] == ["secret_content"]
    pair.step(lean_answers=True)
    # Just written (its verdict is not cached, too recent to trust) and then edited: an
    # included file that comes to hold a secret is taken out again.
    pair.both(lambda r: write(r, "notes/fresh.txt", "fresh\n"))
    pair.step(lean_answers=True)
    pair.both(lambda r: write(r, "notes/fresh.txt", f"now a secret: {TOKEN}\n"))
    lean, _ = pair.step(lean_answers=True)
    assert ("notes/fresh.txt", "secret_content") in [(s.path, s.reason) for s in lean.skipped]
    pair.both(lambda r: (r / "notes" / "fresh.txt").unlink())
    pair.step(lean_answers=True)
    # Left out by name, by size, as a nested repository: judged without a scan.
    pair.both(lambda r: write(r, "config/.env", "PASSWORD=hunter2\n"))
    pair.both(lambda r: write(r, "big.bin", b"\0" * (6 * 1024 * 1024)))
    pair.both(lambda r: init_repo(r / "vendor" / "lib", {"x.py": "x\n"}))
    lean, _ = pair.step(lean_answers=True)
    assert sorted((s.path, s.reason) for s in lean.skipped) == [
        ("big.bin", "too_large"),
        ("config/.env", "secret_name"),
        ("notes/token.txt", "secret_content"),
        ("vendor/lib", "nested_repo"),
    ]
    pair.step(lean_answers=True)


def test_a_killed_snapshot_or_changed_rules_go_the_full_way(tmp_path: Path) -> None:
    """After a snapshot killed half-way (no tree recorded) or with other secret rules, the
    lean path refuses before writing anything, and the store takes the checkpoint."""
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"}, old=True)
    state = state_dir(root)
    CheckpointStore(root, state).create("first", reason="agent_turn")
    snapshot = state / "checkpoints" / "snapshot.json"
    data = json.loads(snapshot.read_text())
    write(root, "a.txt", "edited\n")
    snapshot.write_text(json.dumps({**data, "tree": None}))
    refs = run_git(root, "for-each-ref", REF_PREFIX)
    with pytest.raises(Unsupported):
        QuickCheckpoints(root, state).create("before claude-code turn 1")
    assert run_git(root, "for-each-ref", REF_PREFIX) == refs
    snapshot.write_text(json.dumps(data))
    other = LeanPolicy(extra_names=("*.txt",))
    with pytest.raises(Unsupported):
        QuickCheckpoints(root, state, other).create("before claude-code turn 1")
    with pytest.raises(Unsupported):
        QuickCheckpoints(root, state).create("a message of the user's own")
    QuickCheckpoints(root, state).create("before claude-code turn 1")


def test_lean_retention_removes_what_the_store_removes(tmp_path: Path) -> None:
    """Over the same refs (turn and manual checkpoints, a foreign ref, a damaged message)
    the lean retention picks exactly the store's, with and without turn pins."""
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"}, old=True)
    state = state_dir(root)
    store = CheckpointStore(root, state, CheckpointPolicy(keep_last=2, keep_days=0))
    made = []
    for n in range(5):
        write(root, "a.txt", f"{n}\n")
        made.append(store.create(f"m{n}", reason="agent_turn" if n % 2 else "manual"))
    head = gtext(root, "rev-parse", "HEAD")
    run_git(root, "update-ref", REF_PREFIX + "ckpt_" + "f" * 32, head)  # not vibflow's
    damaged = gtext(root, "commit-tree", made[0].tree, "-m", "x", "-m", "{not json")
    run_git(root, "update-ref", REF_PREFIX + "ckpt_" + "e" * 32, damaged)
    lean = LeanPolicy(keep_last=2, keep_days=0)
    later = datetime.now(UTC) + timedelta(hours=1)
    for pinned in (None, {made[1].checkpoint_id}):
        pins = None if pinned is None else (lambda p=pinned: p)
        expected = CheckpointStore(root, state, store.policy, pins=pins)
        got = lean_retention.to_remove(Git(root), lean, pins, now=later)
        assert sorted(got) == sorted(expected.prune(dry_run=True, now=later))
        assert got, "nothing to prune: the test proves nothing"


def test_a_lean_checkpoint_applies_retention_in_the_same_ref_transaction(tmp_path: Path) -> None:
    """Each lean checkpoint leaves exactly the refs the store's retention would keep
    (the new one among them): nothing left for the store to prune afterwards."""
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"}, old=True)
    state = state_dir(root)
    store = CheckpointStore(root, state, CheckpointPolicy(keep_last=2, keep_days=0))
    store.create("first", reason="agent_turn")
    made = []
    for n in range(4):
        write(root, "a.txt", f"{n}\n")
        lean = QuickCheckpoints(root, state, LeanPolicy(keep_last=2, keep_days=0))
        cid, reused = lean.create(f"before claude-code turn {n}")
        assert not reused
        made.append(cid)
        assert store.prune(dry_run=True) == []
        assert [m.checkpoint_id for m in store.all()][-1] == cid
    assert [m.checkpoint_id for m in store.all()] == made[-2:]


def test_a_tracked_file_back_from_being_a_folder_is_in_the_lean_checkpoint(tmp_path: Path) -> None:
    """A tracked file replaced by a folder, then by a file again: the folder's files are
    in the checkpoint while it is one, the file again once it is back."""
    root = init_repo(tmp_path / "r", {"docs/c.md": "c\n", "a.txt": "a\n"}, old=True)
    state = state_dir(root)
    CheckpointStore(root, state).create("first", reason="agent_turn")
    (root / "docs" / "c.md").unlink()
    write(root, "docs/c.md/inner.md", "inner\n", old=True)
    _old(root, "docs/c.md/inner.md", "inner\n")
    CheckpointStore(root, state).create("scan it", reason="agent_turn")  # caches its verdict
    cid, _ = QuickCheckpoints(root, state).create("before claude-code turn 1")
    tree = CheckpointStore(root, state).get(cid).tree
    assert gtext(root, "ls-tree", "-r", "--name-only", tree).split() == [
        "a.txt",
        "docs/c.md/inner.md",
    ]
    shutil.rmtree(root / "docs" / "c.md")
    write(root, "docs/c.md", "c is back\n")
    cid, _ = QuickCheckpoints(root, state).create("before claude-code turn 2")
    tree = CheckpointStore(root, state).get(cid).tree
    assert gtext(root, "ls-tree", "-r", "--name-only", tree).split() == ["a.txt", "docs/c.md"]
    assert gtext(root, "show", f"{tree}:docs/c.md") == "c is back"
