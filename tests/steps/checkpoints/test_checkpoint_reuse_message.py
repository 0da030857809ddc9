"""A user's checkpoint asked for with new words over an unchanged tree keeps those
words: checkpoints are never rewritten, so it is a new checkpoint of the same tree
(the list shows what was said last, and the earlier one still says what it said),
while a request with no words, or the same words, reuses the last one as before, and
an agent turn's own words never make a new one. Real git repositories."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import init_repo, make_store, write

from vibflow.steps.checkpoints.models import REF_PREFIX


def test_new_words_over_an_unchanged_tree_make_a_new_checkpoint(tmp_path: Path) -> None:
    """'one' then 'two' with nothing changed: two checkpoints of the same tree, listed
    oldest first with their own words; the second names the first as holding the same
    files; the first's commit (its stored words) is untouched."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "u.txt", "u\n")
    first = store.create("one")
    first_commit = gtext(root, "rev-parse", REF_PREFIX + first.checkpoint_id).strip()
    second = store.create("two")
    assert second.checkpoint_id != first.checkpoint_id
    assert not second.reused
    assert second.message == "two"
    assert second.same_tree_as == first.checkpoint_id
    assert second.tree == first.tree
    assert second.file_count == first.file_count
    assert [(m.checkpoint_id, m.message) for m in store.all()] == [
        (first.checkpoint_id, "one"),
        (second.checkpoint_id, "two"),
    ]
    assert gtext(root, "rev-parse", REF_PREFIX + first.checkpoint_id).strip() == first_commit
    assert store.get(first.checkpoint_id).message == "one"


def test_no_words_or_the_same_words_reuse_the_last(tmp_path: Path) -> None:
    """After 'two', asking again with 'two' or with no message reuses it (no new ref);
    a change to a file makes a new checkpoint, which names no earlier tree."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create("one")
    two = store.create("two")
    for words in ("two", ""):
        again = store.create(words)
        assert again.checkpoint_id == two.checkpoint_id
        assert again.reused
        assert again.message == "two"
    assert len(store.all()) == 2
    write(root, "f.txt", "2\n")
    changed = store.create("three")
    assert changed.same_tree_as is None
    assert len(store.all()) == 3


def test_an_agent_turns_words_never_make_a_new_checkpoint(tmp_path: Path) -> None:
    """Agent-turn checkpoints with new words each turn and nothing changed reuse one
    checkpoint: a turn's no-change reuse stays as cheap as it was."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    first = store.create("turn 1", reason="agent_turn")
    second = store.create("turn 2", reason="agent_turn")
    assert second.checkpoint_id == first.checkpoint_id
    assert second.reused


def test_the_words_are_stored_redacted_and_compared_redacted(tmp_path: Path) -> None:
    """A secret in the new words never reaches the stored message; asking again with
    a different secret in the same place says nothing new (the same redacted words)."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create("one")
    token = "ghp_" + "Zq7Lm2Xv9Rt4Wp8Kd3Nf6Hb1Jc5Gs0Ya2Ue"
    made = store.create(f"deploy with {token}")
    assert token not in made.message
    assert "[REDACTED" in made.message
    other = "ghp_" + "Ab3Cd4Ef5Gh6Ij7Kl8Mn9Op0Qr1St2Uv3Wx"
    again = store.create(f"deploy with {other}")
    assert again.checkpoint_id == made.checkpoint_id
    body = run_git(root, "log", "-1", "--format=%B", REF_PREFIX + made.checkpoint_id)
    assert token.encode() not in body
