"""Your own edits by the agent turn records (``evidence_yours``), on real git
repositories and real checkpoints: which changed files the user changed last, and
every case where the records cannot prove it (a running turn, a turn without its
checkpoints, two turns at once, a file a checkpoint left out) — there the file is
not called yours, so the zone judges it as before."""

from __future__ import annotations

import os
from pathlib import Path

from vibflow_testing.git import run_git
from vibflow_testing.recovery_inputs import CATEGORIES, changed, ckpt, mem
from vibflow_testing.repo import init_repo, make_store, write

from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.evidence_yours import (
    AFTER_LAST,
    RecordedTurn,
    Turns,
    diff_all,
    find,
    stretches,
)
from vibflow.steps.recovery.models import ChangedFile, IntentZoneEntry
from vibflow.steps.recovery.zone import infer_zone
from vibflow.steps.workspace.git import Git


def _turn(
    number: int,
    start: CheckpointMeta | None,
    end: CheckpointMeta | None,
    *,
    started: str = "",
    ended: str | None = "",
    reported: tuple[str, ...] = (),
) -> RecordedTurn:
    return RecordedTurn(
        agent="claude-code",
        number=number,
        started_at=started or (start.created_at if start else f"2024-01-01T00:00:0{number}Z"),
        ended_at=(end.created_at if end else f"2024-01-01T00:00:0{number}Z")
        if ended == ""
        else ended,
        start=start.checkpoint_id if start else None,
        end=end.checkpoint_id if end else None,
        reported=reported,
    )


def _mtimes(root: Path, files: list[ChangedFile]) -> dict[str, float]:
    out = {}
    for c in files:
        try:
            out[c.path] = os.lstat(root / c.path).st_mtime
        except FileNotFoundError:
            continue
    return out


def _repo(tmp_path: Path) -> Path:
    return init_repo(
        tmp_path / "p",
        {"util.py": "u = 1\n", "app.py": "a = 1\n", "notes.md": "n\n"},
        old=True,
    )


def test_a_running_turn_proves_nothing_is_yours() -> None:
    """While a turn has no end, its shell may be writing anything: no stretches."""
    a, b = ckpt(1, "2024-01-01T00:00:01Z"), ckpt(2, "2024-01-01T00:00:02Z")
    done = _turn(1, a, b)
    running = _turn(2, b, None, ended=None)
    assert stretches([done, running], [a, b]) is None
    assert stretches([done], [a, b]) is not None


def test_a_gap_another_turn_overlapped_is_no_ones() -> None:
    """Two agents at once: the gap after the turn that ended first is not a time when
    no turn ran, so it is left unknown (no trees to compare)."""
    metas = [
        ckpt(i, f"2024-01-01T00:00:0{i}Z").model_copy(update={"tree": f"{i:040x}"})
        for i in range(1, 7)
    ]
    long_one = _turn(1, metas[0], metas[5])  # 01 → 06
    short = _turn(2, metas[1], metas[2])  # 02 → 03
    later = _turn(3, metas[3], metas[4])  # 04 → 05, while the first still runs
    spans = stretches([long_one, short, later], metas)
    assert spans is not None
    gaps = [s for s in spans if not s.agent]
    assert [g.pair for g in gaps] == [None, None]
    assert all(s.pair is not None for s in spans if s.agent)


def test_one_git_call_names_what_each_pair_of_trees_differs_in(tmp_path: Path) -> None:
    """`diff-tree --stdin` answers every pair at once: names with spaces and newlines,
    a pair that differs in nothing, both names of a rename."""
    root = _repo(tmp_path)
    git = Git(root)
    first = git.text("rev-parse", "HEAD^{tree}")
    write(root, "my notes.md", "x\n")
    write(root, "odd\nname.txt", "y\n")
    run_git(root, "mv", "app.py", "main.py")
    run_git(root, "add", "-A")
    second = git.text("write-tree")
    found = diff_all(git, [(first, second), (second, second), (second, first)])
    assert found == [
        {"my notes.md", "odd\nname.txt", "app.py", "main.py"},
        set(),
        {"my notes.md", "odd\nname.txt", "app.py", "main.py"},
    ]


def test_after_the_last_turn_yours_between_turns_yours_unless_touched_again(
    tmp_path: Path,
) -> None:
    """Edited after the last turn: yours; deleted after it: yours; edited between the
    turns and left alone by the next one: yours (named by turn); edited between the
    turns and then by the agent: not yours."""
    root = _repo(tmp_path)
    store = make_store(root)
    s1 = store.create("s1", reason="agent_turn")
    write(root, "util.py", "u = 2\n")  # turn 1
    e1 = store.create("e1", reason="agent_turn")
    write(root, "notes.md", "mine, between\n")  # you
    write(root, "extra.md", "mine too\n")  # you, then the agent in turn 2
    s2 = store.create("s2", reason="agent_turn")
    write(root, "extra.md", "the agent's now\n")  # turn 2 (its shell: unreported)
    write(root, "app.py", "a = 'drift'\n")  # turn 2
    e2 = store.create("e2", reason="agent_turn")
    write(root, "util.py", "u = 3  # mine, after\n")  # you, after the last turn
    files = [
        changed("util.py"),
        changed("notes.md"),
        changed("extra.md", "untracked"),
        changed("app.py"),
    ]
    turns = [_turn(1, s1, e1), _turn(2, s2, e2, reported=("app.py",))]
    yours = find(root, Git(root), Turns(turns, store.all()), files, _mtimes(root, files))
    assert set(yours) == {"util.py", "notes.md"}
    assert yours["util.py"].startswith(AFTER_LAST)
    assert "the agent's turn 1 changed it before you did" in yours["util.py"]
    assert yours["notes.md"].startswith("you changed it after the agent's turn 1 ended")


def test_a_deletion_after_the_last_turn_is_yours(tmp_path: Path) -> None:
    """You delete a file after the agent's turn: a restore would bring it back, so it is
    yours as much as an edit."""
    root = _repo(tmp_path)
    store = make_store(root)
    s1 = store.create("s1", reason="agent_turn")
    write(root, "util.py", "u = 2\n")
    e1 = store.create("e1", reason="agent_turn")
    (root / "notes.md").unlink()
    files = [changed("util.py"), changed("notes.md", "deleted")]
    turns = [_turn(1, s1, e1)]
    yours = find(root, Git(root), Turns(turns, store.all()), files, _mtimes(root, files))
    assert yours == {"notes.md": AFTER_LAST}


def test_a_file_the_end_checkpoint_left_out_is_never_yours(tmp_path: Path) -> None:
    """The agent writes `.env` during its turn; the end checkpoint leaves it out (a
    likely secret), so it cannot tell when it changed: not yours."""
    root = _repo(tmp_path)
    store = make_store(root)
    s1 = store.create("s1", reason="agent_turn")
    write(root, ".env", "TOKEN=agent\n")
    e1 = store.create("e1", reason="agent_turn")
    assert [s.path for s in e1.skipped] == [".env"]
    files = [changed(".env", "untracked")]
    turns = [_turn(1, s1, e1)]
    assert find(root, Git(root), Turns(turns, store.all()), files, _mtimes(root, files)) == {}


def test_a_turn_without_its_checkpoints_hides_the_gaps_before_it(tmp_path: Path) -> None:
    """Turn 2 has no end checkpoint (the restore lease was held): what it changed is
    unknown, so neither the gap after turn 1 nor the tree now proves anything yours."""
    root = _repo(tmp_path)
    store = make_store(root)
    s1 = store.create("s1", reason="agent_turn")
    write(root, "util.py", "u = 2\n")
    e1 = store.create("e1", reason="agent_turn")
    write(root, "notes.md", "mine, between\n")
    s2 = store.create("s2", reason="agent_turn")
    write(root, "app.py", "a = 'drift'\n")
    files = [changed("util.py"), changed("notes.md"), changed("app.py")]
    turns = [
        _turn(1, s1, e1),
        _turn(2, s2, None, ended="9999-01-01T00:00:00Z"),
    ]
    assert find(root, Git(root), Turns(turns, store.all()), files, _mtimes(root, files)) == {}


def test_your_word_outranks_the_records_and_yours_alone_never_narrows() -> None:
    """A file you marked as drift stays drift even when the records call it yours; and
    with nothing of the intent's in the zone, the diff is the zone (no user_edit)."""
    files = [changed("notes.md"), changed("src/app.py")]
    yours = {"notes.md": AFTER_LAST, "src/app.py": AFTER_LAST}
    memory = mem({"src/util.py": "why"})
    marked = type(memory)(
        memory.explicit, [], True, corrections={"notes.md": "drift"}, user_edits=yours
    )
    zone = {z.path: z for z in infer_zone(files, marked, CATEGORIES)}
    assert "notes.md" not in zone
    assert zone["src/app.py"] == IntentZoneEntry(
        path="src/app.py", source="user_edit", reason=AFTER_LAST
    )
    bare = type(memory)({}, [], True, user_edits=yours)
    assert {z.source for z in infer_zone(files, bare, CATEGORIES)} == {"diff_fallback"}
