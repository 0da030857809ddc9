"""The one git helper: its error carries what callers test, its environment is pinned."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.repo import init_repo

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.hooks.post_commit import hooks_dir
from vibflow.steps.workspace.git import Git, GitError, run_git
from vibflow.steps.workspace.repo_facts import GitRepoFacts
from vibflow.steps.workspace.root import find_root


def test_a_failing_command_names_its_subcommand_status_and_first_stderr_line(
    tmp_path: Path,
) -> None:
    """A non-zero exit is a GitError with subcommand, exit status, git's first line, STORE_ERROR."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    with pytest.raises(GitError) as err:
        Git(root).run("cat-file", "-p", "0" * 40)
    exc = err.value
    assert isinstance(exc, VibflowError)
    assert exc.code is ErrorCode.STORE_ERROR
    assert exc.subcommand == "cat-file"
    assert exc.returncode == 128
    assert exc.detail.startswith("fatal: ")
    assert "\n" not in exc.detail
    assert exc.message == f"git cat-file failed: {exc.detail}"


def test_an_accepted_status_is_not_an_error(tmp_path: Path) -> None:
    """Statuses listed in ``ok`` return git's output instead of raising."""
    root = init_repo(tmp_path / "r")
    assert run_git(root, "rev-parse", "--verify", "-q", "no-such-ref", ok=(0, 1)) == b""


def test_git_that_cannot_start_has_no_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without git on PATH the error has returncode None; find_root says git is missing."""
    root = init_repo(tmp_path / "r")
    empty = tmp_path / "no-tools"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(GitError) as err:
        run_git(root, "status")
    assert (err.value.subcommand, err.value.returncode, err.value.detail) == ("status", None, "")
    assert err.value.message == "could not run git status (FileNotFoundError)"
    with pytest.raises(VibflowError) as missing:
        find_root(root)
    assert missing.value.code is ErrorCode.NOT_A_PROJECT
    assert missing.value.message == "git is not installed or not on PATH"


def test_git_answers_in_c_locale_without_optional_locks(tmp_path: Path) -> None:
    """The pinned environment reaches git itself, whatever the caller's locale."""
    root = init_repo(tmp_path / "r")
    seen = Git(root).text("-c", "alias.envdump=!env", "envdump", env={"LC_ALL": "C"})
    pinned = dict(line.split("=", 1) for line in seen.splitlines() if "=" in line)
    assert pinned["LC_ALL"] == "C"
    assert pinned["GIT_OPTIONAL_LOCKS"] == "0"


def test_outside_a_repository_the_callers_keep_their_own_answers(tmp_path: Path) -> None:
    """find_root and hooks_dir keep NOT_A_PROJECT; repository facts become unknown (None)."""
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(VibflowError) as root_err:
        find_root(outside)
    assert root_err.value.code is ErrorCode.NOT_A_PROJECT
    assert root_err.value.message == "this folder is not inside a git work tree"
    with pytest.raises(VibflowError) as hooks_err:
        hooks_dir(outside)
    assert hooks_err.value.code is ErrorCode.NOT_A_PROJECT
    assert GitRepoFacts(outside).head() is None


def test_a_root_whose_name_ends_in_a_space_is_found_exactly(tmp_path: Path) -> None:
    """Only git's line end is stripped from --show-toplevel, not the folder's own spaces."""
    root = init_repo(tmp_path / "odd name ")
    (root / "sub").mkdir()
    assert find_root(root / "sub") == root.resolve()


def test_git_complaining_about_a_file_never_shows_its_absolute_path(tmp_path: Path) -> None:
    """git names the damaged index file it read by its absolute path: the error
    shows it relative to the project, and any path outside as <path>."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    damaged = root / ".vibflow" / "recovery" / "diff-x.index"
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"DIRC")  # git: "<file>: index file smaller than expected"
    with pytest.raises(GitError) as err:
        Git(root).run("diff", "HEAD", env={"GIT_INDEX_FILE": str(damaged)})
    assert str(tmp_path) not in err.value.message
    assert ".vibflow/recovery/diff-x.index" in err.value.detail
    outside = tmp_path / "elsewhere.index"
    outside.write_bytes(b"DIRC")
    with pytest.raises(GitError) as err:
        Git(root).run("diff", "HEAD", env={"GIT_INDEX_FILE": str(outside)})
    assert str(tmp_path) not in err.value.message
    assert "<path>" in err.value.detail


def test_an_index_copy_is_written_whole_whatever_the_users_config_adds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With GIT_INDEX_FILE, git runs with the split index off and never expires
    shared index files, after any configuration the user's environment passes."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "user.name")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "From The Environment")
    index = tmp_path / "copy.index"
    env = {"GIT_INDEX_FILE": str(index)}
    g = Git(root)
    assert g.text("config", "user.name", env=env) == "From The Environment"
    assert g.text("config", "core.splitIndex", env=env) == "false"
    assert g.text("config", "splitIndex.sharedIndexExpire", env=env) == "never"
    assert g.run("config", "core.splitIndex", ok=(0, 1)) == b""  # not without a copy
