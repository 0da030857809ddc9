"""Retention: which checkpoints prune keeps (last n, days, sandwiches) and that pruning
shrinks the store. Real git repositories for the store tests."""

from __future__ import annotations

import os
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import init_repo, make_store, write

from vibflow.steps.checkpoints.models import REF_PREFIX, CheckpointMeta, CheckpointPolicy
from vibflow.steps.checkpoints.retention import to_prune

# -- 7. retention ---------------------------------------------------------------------------

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


Reason = Literal["manual", "sandwich", "flow_stage"]


def _meta(n: int, age_days: float, reason: Reason = "manual") -> CheckpointMeta:
    when = (NOW - timedelta(days=age_days)).isoformat().replace("+00:00", "Z")
    return CheckpointMeta(checkpoint_id=f"ckpt_{n:032x}", created_at=when, reason=reason)


def test_keep_last_keeps_the_newest_n() -> None:
    """With nothing young enough for keep_days, only the newest keep_last survive."""
    metas = [_meta(i, age_days=100 + i) for i in range(6)]
    policy = CheckpointPolicy(keep_last=2, keep_days=0, protect_sandwiches=0)
    assert sorted(to_prune(metas, policy, now=NOW)) == [f"ckpt_{i:032x}" for i in range(2, 6)]


def test_keep_days_keeps_everything_younger() -> None:
    """Everything younger than keep_days is kept however many there are."""
    metas = [_meta(i, age_days=d) for i, d in enumerate([0.1, 1, 6.9, 7.1, 30])]
    policy = CheckpointPolicy(keep_last=1, keep_days=7, protect_sandwiches=0)
    assert sorted(to_prune(metas, policy, now=NOW)) == [f"ckpt_{i:032x}" for i in (3, 4)]


def test_the_last_m_sandwiches_are_never_pruned() -> None:
    """The newest protect_sandwiches sandwich checkpoints survive whatever their age."""
    metas = [
        _meta(0, 1),
        _meta(1, 200, "sandwich"),
        _meta(2, 300, "sandwich"),
        _meta(3, 400, "sandwich"),
        _meta(4, 500, "manual"),
    ]
    policy = CheckpointPolicy(keep_last=1, keep_days=0, protect_sandwiches=2)
    assert sorted(to_prune(metas, policy, now=NOW)) == [f"ckpt_{i:032x}" for i in (3, 4)]


def test_unparseable_dates_are_pruned_first() -> None:
    """A checkpoint with a damaged date counts as the oldest."""
    metas = [
        _meta(0, 50),
        _meta(1, 60),
        CheckpointMeta(checkpoint_id=f"ckpt_{2:032x}", created_at="?"),
    ]
    policy = CheckpointPolicy(keep_last=2, keep_days=0, protect_sandwiches=0)
    assert to_prune(metas, policy, now=NOW) == [f"ckpt_{2:032x}"]


def test_prune_deletes_only_refs_outside_policy_and_shrinks_the_store(tmp_path: Path) -> None:
    """prune deletes exactly what policy names (dry run: nothing); kept ones stay readable."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    # Created under the default policy (retention also runs after each create),
    # then pruned through a store with the strict one.
    roomy = make_store(root)
    store = make_store(root, keep_last=2, keep_days=0, protect_sandwiches=1)
    metas = []
    for i in range(5):
        write(root, f"data{i}.bin", os.urandom(64 * 1024))
        metas.append(roomy.create(f"c{i}", reason="sandwich" if i == 0 else "manual"))
        time.sleep(0.01)
    size_before = store.size_bytes()
    assert size_before > 5 * 64 * 1024
    later = datetime.now(UTC) + timedelta(seconds=1)
    dry = store.prune(dry_run=True, now=later)
    assert len(store.all()) == 5
    pruned = store.prune(now=later)
    assert pruned == dry
    assert sorted(pruned) == sorted(m.checkpoint_id for m in metas[1:3])
    kept = {m.checkpoint_id for m in store.all()}
    assert kept == {metas[0].checkpoint_id, metas[3].checkpoint_id, metas[4].checkpoint_id}
    for cid in kept:
        run_git(root, "cat-file", "-e", REF_PREFIX + cid)
    for cid in pruned:
        with pytest.raises(subprocess.CalledProcessError):
            run_git(root, "rev-parse", "--verify", "-q", REF_PREFIX + cid)
    run_git(root, "gc", "-q", "--prune=now")
    assert store.size_bytes() > 0


def test_size_shrinks_when_unique_content_is_pruned(tmp_path: Path) -> None:
    """Pruning the only holder of a big blob shrinks size_bytes and, after gc, the packs."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    roomy = make_store(root)  # creates keep both; the strict store prunes below
    store = make_store(root, keep_last=1, keep_days=0, protect_sandwiches=0)
    write(root, "big.bin", os.urandom(512 * 1024))
    roomy.create("big")
    (root / "big.bin").unlink()
    time.sleep(0.01)
    roomy.create("small")
    run_git(root, "gc", "-q", "--prune=now")
    size_before = store.size_bytes()
    pack_before = _pack_bytes(root)
    assert size_before > 512 * 1024
    store.prune(now=datetime.now(UTC) + timedelta(seconds=1))
    run_git(root, "gc", "-q", "--prune=now")
    assert store.size_bytes() < size_before - 400 * 1024
    assert _pack_bytes(root) < pack_before - 400 * 1024


def _pack_bytes(root: Path) -> int:
    out = gtext(root, "count-objects", "-v")
    fields = dict(line.split(": ") for line in out.splitlines())
    return (int(fields["size"]) + int(fields["size-pack"])) * 1024
