"""A full-length git object id that names an object of the repository leaves the
contract readable (an agent must be able to use the commit id it was given); a hex
secret of the same shape, beside it or alone, is still masked, and so is every id
when git cannot answer."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from pathlib import Path

from vibflow_testing.git import git

from vibflow.steps.redaction.contract import redact_payload, redact_text
from vibflow.steps.redaction.objects import KnownObjects
from vibflow.steps.redaction.scans import ScanMemo
from vibflow.steps.workspace.git import Git

#: A 40-hex secret (a SHA-1 of something private): the shape of a commit id.
HEX_SECRET = hashlib.sha1(b"the staging db password", usedforsecurity=False).hexdigest()
HEX64_SECRET = hashlib.sha256(b"the deploy key").hexdigest()


def _objects(repo: Path) -> tuple[KnownObjects, list[Collection[str]]]:
    """The repository's lookup, with a record of what each call asked."""
    asked: list[Collection[str]] = []
    real = Git(repo)

    def lookup(names: Collection[str]) -> frozenset[str]:
        asked.append(list(names))
        return real.existing_objects(names)

    return KnownObjects(lookup), asked


def test_a_commit_id_is_readable_and_a_hex_secret_beside_it_is_not(repo: Path) -> None:
    """In one text, the HEAD commit's id stays and the 40-hex secret after it is masked;
    a text of the secret alone is masked too, and only the secret is counted."""
    head = git(repo, "rev-parse", "HEAD").strip()
    objects, _ = _objects(repo)
    red = redact_text(f"restored from {head} using key {HEX_SECRET}", objects=objects)
    assert head in red.value
    assert HEX_SECRET not in red.value
    assert "[REDACTED:high_entropy_hex]" in red.value
    assert red.counts.secret_hits == 1
    alone = redact_text(HEX_SECRET, objects=objects)
    assert alone.value == "[REDACTED:high_entropy_hex]"
    assert redact_text(HEX64_SECRET, objects=objects).value == "[REDACTED:high_entropy_hex]"


def test_the_ids_of_a_whole_answer_are_looked_up_once(repo: Path) -> None:
    """A payload naming the commit, its tree and a secret in several fields asks git
    once; the commit and the tree come back as they were, the secret masked."""
    head = git(repo, "rev-parse", "HEAD").strip()
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    objects, asked = _objects(repo)
    for memo in (None, ScanMemo()):
        data = {
            "commit": head,
            "tree": tree,
            "headline": f"recover restored 2 files from {head}",
            "note": f"key {HEX_SECRET}",
        }
        red = redact_payload(data, root=repo, memo=memo, objects=objects)
        assert red.value["commit"] == head
        assert red.value["tree"] == tree
        assert red.value["headline"] == data["headline"]
        assert red.value["note"] == "key [REDACTED:high_entropy_hex]"
        assert red.counts.secret_hits == 1
    assert len(asked) == 1
    assert sorted(asked[0]) == sorted({head, tree, HEX_SECRET})


def test_without_the_repository_every_id_stays_masked(repo: Path, tmp_path: Path) -> None:
    """With no lookup, a lookup that fails, or another repository's lookup, the commit
    id is masked as before: fail closed."""
    head = git(repo, "rev-parse", "HEAD").strip()
    masked = "[REDACTED:high_entropy_hex]"
    assert redact_text(head).value == masked

    def broken(_names: Collection[str]) -> frozenset[str]:
        raise OSError("git is gone")

    assert redact_text(head, objects=KnownObjects(broken)).value == masked
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    assert redact_text(head, objects=KnownObjects(Git(other).existing_objects)).value == masked


def test_a_keyword_secret_is_masked_whatever_it_names(repo: Path) -> None:
    """``token=<id>`` is a credential finding, not a hex one: masked even when the value
    happens to name an object (only the entropy detector's findings are looked up)."""
    head = git(repo, "rev-parse", "HEAD").strip()
    objects, _ = _objects(repo)
    red = redact_text(f"export API_TOKEN={head}", objects=objects)
    assert head not in red.value


def test_git_is_asked_only_about_full_length_hex_names(repo: Path) -> None:
    """Revision expressions and abbreviated ids never reach git as names: an abbreviated
    HEAD id, ``HEAD`` and ``HEAD:README.md`` are not objects by this lookup."""
    head = git(repo, "rev-parse", "HEAD").strip()
    lookup = Git(repo).existing_objects
    assert lookup([head, head[:12], "HEAD", "HEAD:README.md", HEX_SECRET]) == {head}
    assert lookup([head.upper()]) == frozenset()


def test_operation_ids_pass_and_a_lookalike_prefix_does_not() -> None:
    """A restore's operation id (``op_`` and 32 hex digits, minted by vibflow) is
    readable; the same digits after a longer word (``shop_``) are still masked."""
    body = hashlib.md5(b"op", usedforsecurity=False).hexdigest()
    assert redact_text(f"busy: op_{body}").value == f"busy: op_{body}"
    assert body not in redact_text(f"shop_{body}").value
