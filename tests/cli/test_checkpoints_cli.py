"""``vibflow checkpoint ...`` through the real CLI in a subprocess: JSON shapes,
messages and exit statuses, the user's state left alone, and a checkpoint
process killed with SIGKILL part-way through."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json, clean_env, harness_cmd
from vibflow_testing.git import gtext
from vibflow_testing.repo import write

CREATE_KEYS = {
    "checkpoint_id",
    "created_at",
    "message",
    "reason",
    "base_head",
    "file_count",
    "untracked_count",
    "skipped",
    "metadata_complete",
    "commit",
    "tree",
    "reused",
}
CHANGE_KEYS = {"path", "status", "old_path", "added_lines", "deleted_lines", "binary"}

# -- helpers ------------------------------------------------------------------------------


def tree_paths(root: Path, rev: str) -> set[str]:
    out = gtext(root, "ls-tree", "-r", "-z", "--name-only", "--full-tree", rev)
    return {p for p in out.split("\0") if p}


def oracle_tree(root: Path) -> str:
    """Raw plumbing: the user's index copied (mtime kept), ``add -A``, ``write-tree``."""
    tmp = root.parent / f"oracle-index-{os.getpid()}"
    shutil.copy2(root / ".git" / "index", tmp)
    try:
        gtext(root, "add", "-A", GIT_INDEX_FILE=str(tmp))
        return gtext(root, "write-tree", GIT_INDEX_FILE=str(tmp)).strip()
    finally:
        tmp.unlink(missing_ok=True)


def user_state(root: Path) -> dict[str, object]:
    """The user's work tree (``.vibflow/`` excepted), index bytes and mtime, HEAD,
    config, hooks, reflogs, refs outside ``refs/vibflow/`` and the stash."""
    state: dict[str, object] = {}
    for top, skip in ((root, {".git", ".vibflow"}), (root / ".git", {"objects", "refs"})):
        for dirpath, dirnames, filenames in os.walk(top):
            here = Path(dirpath)
            if here == top:
                dirnames[:] = [d for d in dirnames if d not in skip]
            for name in [*dirnames, *filenames]:
                path = here / name
                rel = path.relative_to(top).as_posix()
                if top.name == ".git" and (rel == "packed-refs" or "refs/vibflow" in rel):
                    continue
                st = path.lstat()
                if stat.S_ISLNK(st.st_mode):
                    state[f"{top.name}:{rel}"] = ("link", str(path.readlink()))
                elif stat.S_ISREG(st.st_mode):
                    digest = hashlib.sha256(path.read_bytes()).hexdigest()
                    state[f"{top.name}:{rel}"] = (st.st_mode, st.st_mtime_ns, digest)
    refs = gtext(root, "for-each-ref", "--format=%(refname) %(objectname)")
    state["refs"] = [ln for ln in refs.splitlines() if not ln.startswith("refs/vibflow/")]
    state["HEAD"] = gtext(root, "rev-parse", "HEAD")
    state["stash"] = gtext(root, "stash", "list")
    state["status"] = gtext(
        root, "status", "--porcelain=v2", "-z", "-uall", "--", ".", ":(exclude).vibflow"
    )
    return state


def assert_same_state(before: dict[str, object], after: dict[str, object]) -> None:
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"user state changed: {changed}"


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


def assert_clean_failure(proc: subprocess.CompletedProcess[str], status: int, *words: str) -> None:
    assert proc.returncode == status, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.startswith("vibflow: ")
    for word in words:
        assert word in proc.stderr


# -- create / list / show ------------------------------------------------------------------


def test_create_json_shape(repo: Path, cli: Cli) -> None:
    """create --json has id, time, message, reason, base HEAD, counts, skipped, completeness."""
    write(repo, "README.md", "changed\n")
    write(repo, "new/file.txt", "n\n")
    data = as_json(ok(cli("checkpoint", "create", "-m", "before the agent 🤖", "--json")))
    assert set(data) >= CREATE_KEYS
    assert data["checkpoint_id"].startswith("ckpt_")
    assert len(data["checkpoint_id"]) == 37
    assert data["created_at"].endswith("Z")
    assert data["message"] == "before the agent 🤖"
    assert data["reason"] == "manual"
    assert data["base_head"] == gtext(repo, "rev-parse", "HEAD").strip()
    assert (data["file_count"], data["untracked_count"]) == (2, 1)
    assert data["skipped"] == []
    assert data["metadata_complete"] is True
    assert data["reused"] is False
    assert tree_paths(repo, data["commit"]) == {"README.md", "new/file.txt"}
    assert gtext(repo, "rev-parse", data["commit"] + "^{tree}").strip() == data["tree"]


def test_create_text_and_reuse(cli: Cli) -> None:
    """Text create names id and count; unchanged says 'nothing changed since' the same id."""
    first = ok(cli("checkpoint", "create", "-m", "one"))
    assert first.stdout.startswith("created checkpoint ckpt_")
    assert "(1 files)" in first.stdout
    cid = first.stdout.split()[2]
    again = ok(cli("checkpoint", "create"))
    assert again.stdout.startswith(f"nothing changed since checkpoint {cid}")
    data = as_json(ok(cli("checkpoint", "create", "--json")))
    assert (data["checkpoint_id"], data["reused"]) == (cid, True)


def test_list_and_show(repo: Path, cli: Cli) -> None:
    """list --json is every checkpoint oldest first; show --json equals what create printed."""
    empty = ok(cli("checkpoint", "list"))
    assert "no checkpoints yet" in empty.stdout
    assert as_json(ok(cli("checkpoint", "list", "--json"))) == {"checkpoints": [], "store_bytes": 0}
    made = []
    for i in range(3):
        write(repo, "README.md", f"v{i}\n")
        made.append(as_json(ok(cli("checkpoint", "create", "-m", f"c{i}", "--json"))))
    listed = as_json(ok(cli("checkpoint", "list", "--json")))["checkpoints"]
    assert [c["checkpoint_id"] for c in listed] == [m["checkpoint_id"] for m in made]
    assert all(set(c) >= CREATE_KEYS for c in listed)
    lines = ok(cli("checkpoint", "list")).stdout.splitlines()
    text, footer = lines[:-1], lines[-1]
    assert [line.split()[0] for line in text] == [m["checkpoint_id"] for m in made]
    assert footer.startswith(f"{len(made)} checkpoint(s);")
    assert text[1].split()[2:] == ["manual", "c1"]
    shown = as_json(ok(cli("checkpoint", "show", made[1]["checkpoint_id"], "--json")))
    assert shown == made[1]
    show_text = ok(cli("checkpoint", "show", made[1]["checkpoint_id"])).stdout
    assert f"checkpoint_id: {made[1]['checkpoint_id']}" in show_text
    assert "message: c1" in show_text


def test_create_from_a_subdirectory_covers_the_whole_repo(repo: Path, cli: Cli) -> None:
    """From a subfolder or with -C, the checkpoint covers the whole repository."""
    write(repo, "top.txt", "t\n")
    sub = repo / "deep" / "er"
    sub.mkdir(parents=True)
    data = as_json(ok(cli("checkpoint", "create", "--json", cwd=sub)))
    assert "top.txt" in tree_paths(repo, data["commit"])
    other = ok(cli("-C", str(repo), "checkpoint", "list", "--json", cwd=repo.parent))
    assert [c["checkpoint_id"] for c in as_json(other)["checkpoints"]] == [data["checkpoint_id"]]


def test_policy_cap_skips_and_reports_large_untracked_files(repo: Path, cli: Cli) -> None:
    """The policy's size cap applies; skipped files are in the JSON and named in the text."""
    write(
        repo,
        ".vibflow/policy.yaml",
        "recovery:\n  checkpoints:\n    untracked_size_cap_mb: 0.01\n",
    )
    write(repo, "big.bin", b"x" * 20_000)
    write(repo, "small.txt", "s\n")
    text = ok(cli("checkpoint", "create"))
    assert "skipped big.bin: too large" in text.stdout
    cid = text.stdout.split()[2]
    data = as_json(ok(cli("checkpoint", "show", cid, "--json")))
    assert data["skipped"] == [
        {"path": "big.bin", "reason": "too_large", "size": 20_000, "detail": None}
    ]
    assert tree_paths(repo, data["commit"]) == {"README.md", "small.txt"}


def test_nested_repo_is_reported_in_text(repo: Path, cli: Cli) -> None:
    """A nested git repository is named as skipped in the text output."""
    nested = repo / "vendor" / "lib"
    nested.mkdir(parents=True)
    gtext(nested, "init", "-q")
    write(nested, "x.py", "x\n")
    out = ok(cli("checkpoint", "create")).stdout
    assert "skipped vendor/lib: nested repo" in out


def test_a_skipped_file_with_a_non_utf8_name_prints(repo: Path, cli: Cli) -> None:
    """A skipped file with a non-UTF-8 name is reported in text and JSON without a crash."""
    write(
        repo, ".vibflow/policy.yaml", "recovery:\n  checkpoints:\n    untracked_size_cap_mb: 0.01\n"
    )
    (repo / os.fsdecode(b"big-\xe9.bin")).write_bytes(b"x" * 20_000)
    data = as_json(ok(cli("checkpoint", "create", "--json")))
    assert [s["reason"] for s in data["skipped"]] == ["too_large"]
    write(repo, "README.md", "changed\n")
    text = subprocess.run(
        harness_cmd("checkpoint", "create"),
        cwd=repo,
        env=clean_env(),
        capture_output=True,
        check=False,
    )
    assert text.returncode == 0, text.stderr
    # A byte that is not UTF-8 is shown as its escape, as git quotes such a name.
    assert b"skipped big-\\xe9.bin: too large" in text.stdout


def test_create_works_without_a_git_identity(repo: Path, cli: Cli, tmp_path: Path) -> None:
    """A user with no user.name/email configured anywhere can still checkpoint."""
    gtext(repo, "config", "--unset", "user.name")
    gtext(repo, "config", "--unset", "user.email")
    home = tmp_path / "empty-home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    write(repo, "README.md", "changed\n")
    data = as_json(ok(cli("checkpoint", "create", "--json", env=env)))
    assert not data["reused"]


# -- diff ---------------------------------------------------------------------------------


def test_diff_json_and_text(repo: Path, cli: Cli) -> None:
    """diff --json (A B, and A vs working tree) and text show statuses, counts, renames."""
    write(repo, "code.py", "".join(f"line {i}\n" for i in range(10)))
    gtext(repo, "add", "code.py")
    gtext(repo, "commit", "-q", "-m", "code")
    a = as_json(ok(cli("checkpoint", "create", "--json")))["checkpoint_id"]
    write(repo, "README.md", "hello\nworld\n")
    gtext(repo, "mv", "code.py", "renamed.py")
    write(repo, "blob.bin", b"\x00\xff\x00binary")
    b = as_json(ok(cli("checkpoint", "create", "--json")))["checkpoint_id"]
    data = as_json(ok(cli("checkpoint", "diff", a, b, "--json")))
    assert (data["from"], data["to"]) == (a, b)
    changes = {c["path"]: c for c in data["changes"]}
    assert all(set(c) == CHANGE_KEYS for c in data["changes"])
    assert changes["README.md"]["status"] == "modified"
    assert (changes["README.md"]["added_lines"], changes["README.md"]["deleted_lines"]) == (1, 0)
    assert (changes["renamed.py"]["status"], changes["renamed.py"]["old_path"]) == (
        "renamed",
        "code.py",
    )
    assert changes["blob.bin"]["binary"] is True
    text = ok(cli("checkpoint", "diff", a, b)).stdout
    assert "renamed   renamed.py (from code.py)  +0 -0" in text
    assert "added     blob.bin  binary" in text
    write(repo, "late.txt", "late\n")
    wt = as_json(ok(cli("checkpoint", "diff", b, "--json")))
    assert wt["to"] == "working_tree"
    assert [(c["path"], c["status"]) for c in wt["changes"]] == [("late.txt", "added")]
    (repo / "late.txt").unlink()
    assert ok(cli("checkpoint", "diff", b)).stdout.strip() == "no changes"


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["ckpt_" + "f" * 32, "nope", "ckpt_*", "ckpt_[0-9a-f]*"])
def test_show_unknown_id_is_exit_2_with_a_clear_message(cli: Cli, bad: str) -> None:
    """show of an unknown or glob id exits 2 naming it; --json gives an error object."""
    ok(cli("checkpoint", "create"))
    proc = cli("checkpoint", "show", bad)
    assert_clean_failure(proc, 2, f"there is no checkpoint '{bad}'", "vibflow checkpoint list")
    as_json_proc = cli("checkpoint", "show", bad, "--json")
    assert as_json_proc.returncode == 2
    assert as_json(as_json_proc)["error"]["kind"] == "bad_input"


@pytest.mark.parametrize("bad", ["ckpt_" + "f" * 32, "ckpt_*"])
def test_diff_unknown_id_is_exit_2(repo: Path, cli: Cli, bad: str) -> None:
    """``diff`` with an unknown id as A or as B exits 2 naming it, never a traceback."""
    real = as_json(ok(cli("checkpoint", "create", "--json")))["checkpoint_id"]
    write(repo, "README.md", "two\n")
    ok(cli("checkpoint", "create"))
    for args in (["diff", bad], ["diff", real, bad]):
        assert_clean_failure(cli("checkpoint", *args), 2, f"there is no checkpoint '{bad}'")


@pytest.mark.parametrize(
    "args",
    [
        ["create"],
        ["create", "--json"],
        ["list"],
        ["show", "ckpt_" + "0" * 32],
        ["diff", "ckpt_" + "0" * 32],
    ],
)
def test_outside_a_git_repository_is_exit_2(tmp_path: Path, args: list[str]) -> None:
    """Every checkpoint command outside a git work tree exits 2, says why, writes nothing."""
    nowhere = tmp_path / "not-a-repo"
    nowhere.mkdir()
    proc = subprocess.run(
        harness_cmd("checkpoint", *args),
        cwd=nowhere,
        env=clean_env(GIT_CEILING_DIRECTORIES=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert_clean_failure(proc, 2, "not inside a git work tree", "git init")
    assert list(nowhere.iterdir()) == []


# -- invariants ----------------------------------------------------------------------------


def test_cli_commands_leave_the_users_state_byte_for_byte(repo: Path, cli: Cli) -> None:
    """Every checkpoint command, text and JSON, leaves the user's state byte for byte."""
    write(repo, "README.md", "stash me\n")
    gtext(repo, "stash", "push", "-q")
    gtext(repo, "branch", "feature")
    gtext(repo, "tag", "v1")
    write(repo, "README.md", "edited\n")
    write(repo, "staged.txt", "s\n")
    gtext(repo, "add", "staged.txt")
    write(repo, "staged.txt", "s then edited\n")
    write(repo, "notes/todo.md", "todo\n")
    write(repo, ".env", "SECRET=1\n")
    write(repo, ".gitignore", ".env\n")
    before = user_state(repo)
    a = as_json(ok(cli("checkpoint", "create", "-m", "a", "--json")))["checkpoint_id"]
    assert_same_state(before, user_state(repo))
    write(repo, "notes/todo.md", "todo 2\n")
    before = user_state(repo)
    b = as_json(ok(cli("checkpoint", "create", "--json")))["checkpoint_id"]
    for args in (
        ["create"],
        ["list"],
        ["list", "--json"],
        ["show", a],
        ["show", b, "--json"],
        ["diff", a],
        ["diff", a, b, "--json"],
        ["show", "ckpt_nope"],
    ):
        cli("checkpoint", *args)
        assert_same_state(before, user_state(repo))


# -- SIGKILL --------------------------------------------------------------------------------


def _big_repo(root: Path, dirs: int = 40, per_dir: int = 100) -> None:
    for d in range(dirs):
        for f in range(per_dir):
            write(root, f"src/d{d:03}/f{f:03}.txt", f"file {d} {f}\n" * 5)
    gtext(root, "add", "-A")
    gtext(root, "commit", "-q", "-m", "big")
    for d in range(0, dirs, 2):
        for f in range(per_dir):
            write(root, f"src/d{d:03}/f{f:03}.txt", f"edited {d} {f}\n" * 7)
    for d in range(dirs):
        for f in range(50):
            write(root, f"new/d{d:03}/__pycache__/n{f:03}.pyc", f"untracked {d} {f}\n" * 9)


def _change_the_users_index(repo: Path, tag: str) -> None:
    """Stage a file and edit another: the private index is re-copied and every
    changed and untracked file is hashed again by the next checkpoint."""
    write(repo, f"staged/{tag}.txt", f"staged {tag}\n")
    gtext(repo, "add", f"staged/{tag}.txt")
    write(repo, f"src/d001/f-{tag}.txt", f"edited in round {tag}\n")


def _spawn_create(repo: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        harness_cmd("checkpoint", "create", "--json"),
        cwd=repo,
        env=clean_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.mark.slow
def test_sigkill_mid_checkpoint_leaves_the_user_alone_and_the_next_works(
    repo: Path, cli: Cli
) -> None:
    """A create SIGKILLed at several points changes nothing of the user's; the next is exact."""
    _big_repo(repo)
    full_s = 0.0
    for i in range(2):  # the second run is the timed one: objects exist, as when killed
        _change_the_users_index(repo, f"warm{i}")
        started = time.monotonic()
        assert _spawn_create(repo).wait(timeout=120) == 0
        full_s = time.monotonic() - started
    killed = 0
    for i, fraction in enumerate((0.3, 0.45, 0.55, 0.65, 0.75, 0.85, 0.9, 0.95)):
        _change_the_users_index(repo, str(i))
        before = user_state(repo)
        proc = _spawn_create(repo)
        time.sleep(full_s * fraction)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            killed += 1
        proc.wait(timeout=60)
        assert_same_state(before, user_state(repo))
    assert killed >= 3, f"only {killed} runs were still going when killed ({full_s:.2f} s each)"
    before = user_state(repo)
    data = as_json(ok(cli("checkpoint", "create", "--json")))
    assert_same_state(before, user_state(repo))
    assert data["tree"] == oracle_tree(repo)
    assert not (repo / ".vibflow" / "checkpoints" / "index.lock").exists()
    listed = as_json(ok(cli("checkpoint", "list", "--json")))["checkpoints"]
    assert all(c["metadata_complete"] for c in listed)
    gtext(repo, "fsck", "--no-dangling")


def test_retention_runs_on_create_and_list_reports_the_store_size(cli: Cli, repo: Path) -> None:
    """With keep_last 2 and keep_days 0, creating a third checkpoint prunes the oldest."""
    (repo / ".vibflow" / "policy.yaml").write_text(
        "recovery:\n  checkpoints:\n    keep_last: 2\n    keep_days: 0\n", encoding="utf-8"
    )
    ids = []
    for n in range(3):
        (repo / "README.md").write_text(f"version {n}\n", encoding="utf-8")
        made = cli("checkpoint", "create", "-m", f"c{n}", "--json")
        assert made.returncode == 0, made.stderr
        ids.append(json.loads(made.stdout)["checkpoint_id"])
    listed = json.loads(cli("checkpoint", "list", "--json").stdout)
    assert [c["checkpoint_id"] for c in listed["checkpoints"]] == ids[1:]
    assert listed["store_bytes"] > 0
    assert cli("checkpoint", "prune", "--dry-run", "--json").returncode == 0
