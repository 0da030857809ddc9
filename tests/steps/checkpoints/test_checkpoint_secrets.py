"""Checkpoints leave out untracked files that likely hold a secret (by name, or by what
the redaction detectors find in them), list them with the reason, keep tracked files,
re-judge a file only when it changed, and store their message redacted. Real git
repositories, no mocks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.git import git, git_proc
from vibflow_testing.redaction import GHP
from vibflow_testing.repo import init_repo, make_store, write
from vibflow_testing.reuse import create
from vibflow_testing.snapshots import content, oracle_tree, tree_of

from vibflow.engine.policy import PolicySet
from vibflow.steps.checkpoints.models import (
    DEFAULT_SECRET_ALLOW,
    DEFAULT_SECRET_NAMES,
    SecretFilesPolicy,
)
from vibflow.steps.recovery.policy import RecoveryPolicy

TOKEN = GHP
ENV = f"API_KEY={TOKEN}\nDEBUG=1\n"


def secrets(**settings: object) -> dict[str, object]:
    return {"secrets": SecretFilesPolicy.model_validate(settings)}


def reasons(meta: object) -> dict[str, tuple[str, str | None]]:
    return {s.path: (s.reason, s.detail) for s in meta.skipped}  # type: ignore[attr-defined]


def test_an_untracked_env_is_not_in_the_checkpoint(tmp_path: Path) -> None:
    """A repo whose .gitignore lacks .env: `git show <ckpt>:.env` fails after a checkpoint,
    and the checkpoint lists .env as left out by its name (the content is stored nowhere)."""
    root = init_repo(tmp_path / "r", {"app.py": "x = 1\n", ".gitignore": "*.log\n"})
    write(root, ".env", ENV)
    meta = make_store(root).create("before the agent")
    shown = git_proc(root, "show", f"{meta.commit}:.env", check=False)
    assert shown.returncode != 0
    assert b"exists on disk, but not in" in shown.stderr
    assert reasons(meta) == {".env": ("secret_name", ".env")}
    assert meta.untracked_count == 0
    listed = git(root, "cat-file", "-p", meta.commit)
    assert TOKEN not in listed


@pytest.mark.parametrize(
    "rel",
    [
        ".env.local",
        "config/prod.env",
        "services/api/.env",
        "certs/server.pem",
        "deploy.KEY",
        "keys/id_rsa",
        "keys/id_ed25519.pub",
        "client.p12",
        "credentials.json",
        ".aws/credentials",
        ".netrc",
        ".npmrc",
        "infra/terraform.tfvars",
    ],
)
def test_secret_shaped_names_are_left_out(tmp_path: Path, rel: str) -> None:
    """Every file the default list names is left out, at any depth and in any case."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, rel, "harmless text\n")
    meta = make_store(root).create()
    assert rel not in tree_of(root, meta.commit)
    assert reasons(meta)[rel][0] == "secret_name"


@pytest.mark.parametrize(
    "rel", [".env.example", "environment.py", "keys.txt", "monkey.py", "docs/credentials.md"]
)
def test_ordinary_names_are_kept(tmp_path: Path, rel: str) -> None:
    """Names that only look close (and the shared .env templates) are stored as usual."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, rel, "API_URL=https://example.invalid\n")
    meta = make_store(root).create()
    assert content(root, meta, rel) == b"API_URL=https://example.invalid\n"
    assert meta.skipped == []


def test_a_tracked_secret_file_is_the_users_choice_and_is_kept(tmp_path: Path) -> None:
    """A committed .env (and a tracked file holding a token) is checkpointed with its edits."""
    root = init_repo(tmp_path / "r", {".env": "A=1\n", "settings.py": f"T = '{TOKEN}'\n"})
    write(root, ".env", ENV)
    meta = make_store(root).create()
    assert content(root, meta, ".env") == ENV.encode()
    assert content(root, meta, "settings.py") == f"T = '{TOKEN}'\n".encode()
    assert meta.skipped == []


def test_an_untracked_file_holding_a_token_is_left_out_by_content(tmp_path: Path) -> None:
    """A small untracked text file in which the detectors find a vendor token is left out,
    with the kind of secret named (never its value); its neighbours are stored."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "src/settings.py", f"GITHUB = '{TOKEN}'\n")
    write(root, "src/plain.py", "def f():\n    return 1\n")
    meta = make_store(root).create()
    tree = tree_of(root, meta.commit)
    assert "src/settings.py" not in tree
    assert "src/plain.py" in tree
    assert reasons(meta) == {"src/settings.py": ("secret_content", "github_token")}
    assert TOKEN not in json.dumps(meta.model_dump(mode="json"))


def test_generic_findings_count_only_when_the_policy_says(tmp_path: Path) -> None:
    """A `password = ...` line is a generic finding: kept by default (generic detectors also
    flag hashes and fixtures), left out with scan_generic."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "notes.txt", 'db_password = "Tr0ub4dor&3xq"\n')
    kept = make_store(root).create()
    assert "notes.txt" in tree_of(root, kept.commit)
    strict = make_store(root, **secrets(scan_generic=True)).create()
    assert "notes.txt" not in tree_of(root, strict.commit)
    assert reasons(strict)["notes.txt"][0] == "secret_content"


def test_the_scan_is_bounded_by_size_and_skips_binary_files(tmp_path: Path) -> None:
    """Files over scan_max_kb and binary files are not scanned (and so are stored)."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "big.txt", "x" * 2048 + f"\nT={TOKEN}\n")
    write(root, "blob.bin", b"\0\1\2" + TOKEN.encode())
    write(root, "small.txt", f"T={TOKEN}\n")
    meta = make_store(root, **secrets(scan_max_kb=1)).create()
    tree = tree_of(root, meta.commit)
    assert "big.txt" in tree
    assert "blob.bin" in tree
    assert "small.txt" not in tree


def test_policy_can_add_allow_and_turn_off_the_scan(tmp_path: Path) -> None:
    """extra_names adds patterns (anchored ones with '/'), allow takes names out, and
    scan_content false keeps files whatever they hold."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "config/prod/db.yaml", "x: 1\n")
    write(root, "other/prod/db.yaml", "x: 1\n")
    write(root, ".env", "A=1\n")
    write(root, "token.txt", f"T={TOKEN}\n")
    store = make_store(
        root,
        **secrets(extra_names=["config/prod/*.yaml"], allow=[".env"], scan_content=False),
    )
    meta = store.create()
    tree = tree_of(root, meta.commit)
    assert "config/prod/db.yaml" not in tree
    assert {"other/prod/db.yaml", ".env", "token.txt"} <= set(tree)
    assert reasons(meta) == {"config/prod/db.yaml": ("secret_name", "config/prod/*.yaml")}


def test_a_file_is_judged_again_when_it_changes(tmp_path: Path) -> None:
    """A stored file that gains a token leaves the next checkpoint; when the token is gone
    it comes back; each tree equals what git itself would snapshot of the kept files."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "conf.py", "A = 1\n", old=True)
    store = make_store(root)
    first = store.create()
    assert "conf.py" in tree_of(root, first.commit)
    write(root, "conf.py", f"A = '{TOKEN}'\n")
    second = store.create()
    assert "conf.py" not in tree_of(root, second.commit)
    assert reasons(second) == {"conf.py": ("secret_content", "github_token")}
    write(root, "conf.py", "A = 2\n")
    third = store.create()
    assert content(root, third, "conf.py") == b"A = 2\n"
    assert third.skipped == []
    assert third.tree == oracle_tree(root)


def test_only_new_or_changed_files_are_scanned_again(tmp_path: Path) -> None:
    """The scan's verdicts are kept by stat data for files older than the racy window: an
    unchanged file is not read again (its cached verdict stands), a fresh one is; a
    no-change checkpoint keeps every verdict, and a deleted file's goes."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "old.py", f"T = '{TOKEN}'\n", old=True)
    write(root, "other.py", "x = 1\n", old=True)
    write(root, "fresh.py", "x = 1\n")
    store = make_store(root)
    cache_file = root / ".vibflow" / "checkpoints" / "secret_scan.json"

    def cached() -> dict[str, list[object]]:
        return json.loads(cache_file.read_text(encoding="utf-8"))["files"]  # type: ignore[no-any-return]

    store.create()
    assert set(cached()) == {"old.py", "other.py"}
    assert "github_token" in cached()["old.py"][1]  # type: ignore[operator]
    assert store.create().reused
    assert set(cached()) == {"old.py", "other.py"}
    (root / "other.py").unlink()
    store.create()
    assert set(cached()) == {"old.py"}


def test_the_scan_budget_stores_the_rest_unscanned_and_a_later_checkpoint_scans_it(
    tmp_path: Path,
) -> None:
    """Over the per-checkpoint scan budget, new files are stored unscanned and counted
    (configuration-like names are scanned first); the next checkpoint scans them and a
    file holding a token then leaves it."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    settings = f"# deploy settings\ntoken: {TOKEN}\n"
    write(root, "deploy.yaml", settings)
    write(root, "tiny.py", f"T='{TOKEN}'\n")
    budget = (len(settings) + 1) / (1024 * 1024)
    first = make_store(root, **secrets(scan_budget_mb=budget)).create()
    assert reasons(first) == {"deploy.yaml": ("secret_content", "github_token")}
    assert "tiny.py" in tree_of(root, first.commit)
    assert first.unscanned_count == 1
    second = make_store(root).create()
    assert "tiny.py" not in tree_of(root, second.commit)
    assert second.unscanned_count == 0
    assert set(reasons(second)) == {"deploy.yaml", "tiny.py"}


def test_a_checkpoint_with_only_left_out_secrets_changed_is_reused(tmp_path: Path) -> None:
    """Nothing changed but a secret file the last checkpoint left out: the next checkpoint
    is the same one, found on the fast path (no snapshot)."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"}, old=True)
    write(root, ".env", ENV, old=True)
    write(root, "conf.py", f"T = '{TOKEN}'\n", old=True)
    store = make_store(root)
    first = create(store)
    again = create(store)
    assert again.fast
    assert again.meta.reused
    assert again.meta.checkpoint_id == first.meta.checkpoint_id


def test_an_edited_left_out_file_is_judged_again_on_the_fast_path(tmp_path: Path) -> None:
    """A left-out file edited but still holding a token: the last checkpoint still holds
    everything and is reused; once the token is gone the file is stored in a new one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"}, old=True)
    write(root, "conf.py", f"T = '{TOKEN}'\n", old=True)
    store = make_store(root)
    first = create(store)
    write(root, "conf.py", f"T = '{TOKEN}'  # still here\n")
    again = create(store)
    assert again.fast
    assert again.meta.checkpoint_id == first.meta.checkpoint_id
    write(root, "conf.py", "T = None\n")
    third = create(store)
    assert not third.meta.reused
    assert content(root, third.meta, "conf.py") == b"T = None\n"


def test_a_changed_secret_rule_is_not_reused(tmp_path: Path) -> None:
    """A file stored under one policy is left out under a stricter one: a new checkpoint,
    not the last one reused, and the file is gone from it."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"}, old=True)
    write(root, "local.ini", "x=1\n", old=True)
    first = make_store(root).create()
    assert "local.ini" in tree_of(root, first.commit)
    second = make_store(root, **secrets(extra_names=["*.ini"])).create()
    assert not second.reused
    assert "local.ini" not in tree_of(root, second.commit)


def test_the_message_is_stored_redacted(tmp_path: Path) -> None:
    """A token and a private IP in a checkpoint message never reach the checkpoint commit."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    meta = make_store(root).create(f"before the agent, token {TOKEN} on 10.0.0.7")
    assert TOKEN not in meta.message
    assert "10.0.0.7" not in meta.message
    assert "before the agent" in meta.message
    body = git(root, "cat-file", "-p", meta.commit)
    assert TOKEN not in body
    assert "10.0.0.7" not in body


def test_the_shipped_list_equals_the_code_default() -> None:
    """policies/recovery.yaml's secret-file settings are the model's defaults."""
    from importlib.resources import files

    shipped = PolicySet(files("vibflow.policies"), None).section("recovery", RecoveryPolicy)
    assert shipped.checkpoints.secrets == SecretFilesPolicy()
    assert shipped.checkpoints.secrets.names == DEFAULT_SECRET_NAMES
    assert shipped.checkpoints.secrets.allow == DEFAULT_SECRET_ALLOW


@pytest.mark.parametrize("bad", ["", "/etc/*.pem", "keys\\\\*.pem"])
def test_a_bad_pattern_is_refused(tmp_path: Path, bad: str) -> None:
    """An empty, absolute or backslashed secret-file pattern is a policy error at its line."""
    user = tmp_path / "policy.yaml"
    user.write_text(
        "recovery:\n  checkpoints:\n    secrets:\n      extra_names:\n"
        f"        - {json.dumps(bad)}\n",
        encoding="utf-8",
    )
    from importlib.resources import files

    from vibflow.engine.errors import VibflowError

    with pytest.raises(VibflowError) as info:
        PolicySet(files("vibflow.policies"), user).section("recovery", RecoveryPolicy)
    assert "secret-file pattern" in info.value.message
    assert str(info.value.location).startswith(".vibflow/policy.yaml:5:")
