"""Run plain git subprocesses: list arguments, bytes in and out, no shell.

Every git call in vibflow goes through here, so git always answers the same
way: in its own words (``LC_ALL=C``), never paging or prompting, and without
taking optional locks that would race the user's own git. Heavy plumbing
(snapshots, ``cat-file --batch``) runs here rather than through GitPython,
which leaks resources in long-running processes (the MCP server is one).
Output is read with ``-z`` wherever names are involved, so non-ASCII names
stay exact instead of becoming git's octal escapes.

A failure is a :class:`GitError` whose attributes (the subcommand, the exit
status, git's first stderr line) are what callers test; its message is for
the user and may change.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Collection, Mapping, Sequence
from contextlib import suppress
from pathlib import Path

from vibflow.engine.errors import ErrorCode, VibflowError

_FULL_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 or SHA-256
# Git must answer in its own words, never page, prompt or rewrite names.
_BASE_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
    "GIT_OPTIONAL_LOCKS": "0",
}


#: A command that reads or writes a copy of the user's index (``GIT_INDEX_FILE``)
#: never touches the user's shared index files: in a split-index repository git
#: would write new ``sharedindex.*`` files beside the user's and expire theirs
#: (with ``splitIndex.sharedIndexExpire=now``, the user's next ``git status``
#: fails). The copy is written whole instead.
_COPY_CONFIG = (("core.splitIndex", "false"), ("splitIndex.sharedIndexExpire", "never"))
#: An absolute path in git's own words (a file git could not read): never shown.
_ABSOLUTE = re.compile(r"(?<![\w.~:])/[^\s'\"`:]+")


def _environment(env: Mapping[str, str] | None) -> dict[str, str]:
    full = {**os.environ, **_BASE_ENV, **(env or {})}
    if "GIT_INDEX_FILE" in full:
        # Added after any the user's environment sets (GIT_CONFIG_COUNT), which win
        # otherwise as usual; these two must hold for an index copy.
        try:
            count = int(full.get("GIT_CONFIG_COUNT", "0"))
        except ValueError:
            count = 0
        for key, value in _COPY_CONFIG:
            full[f"GIT_CONFIG_KEY_{count}"] = key
            full[f"GIT_CONFIG_VALUE_{count}"] = value
            count += 1
        full["GIT_CONFIG_COUNT"] = str(count)
    return full


def _said(stderr: bytes, cwd: Path) -> str:
    """git's first line of complaint, with no absolute path in it: the project's own
    paths shown relative to it, any other as ``<path>``."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    if not lines:
        return ""
    line = lines[0][:400]
    root = str(cwd).rstrip("/")
    if root:
        line = line.replace(root + "/", "").replace(root, ".")
    return _ABSOLUTE.sub("<path>", line)[:200]


class GitError(VibflowError):
    """A git command could not be started, or ended with an unexpected status.

    ``subcommand`` is the first argument given to git (``write-tree``),
    ``returncode`` git's exit status (``None`` when git never ran: not
    installed, no such folder, timed out) and ``detail`` git's first stderr
    line (``""`` when it printed none). The code stays ``STORE_ERROR``: to a
    user this is vibflow's store failing, whatever git said.
    """

    def __init__(self, subcommand: str, returncode: int | None, detail: str, message: str) -> None:
        self.subcommand = subcommand
        self.returncode = returncode
        self.detail = detail
        super().__init__(ErrorCode.STORE_ERROR, message)


def _spooled(
    argv: list[str], stdin: bytes | None, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess[bytes]:
    import tempfile  # only large answers are spooled; most commands never need it

    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as answer:
        if stdin is not None:
            given.write(stdin)
            given.seek(0)
        proc = subprocess.run(
            argv,
            stdin=given if stdin is not None else subprocess.DEVNULL,
            stdout=answer,
            stderr=subprocess.PIPE,
            env=env,
            check=False,
            timeout=timeout,
        )
        answer.seek(0)
        return subprocess.CompletedProcess(argv, proc.returncode, answer.read(), proc.stderr)


def run_git(
    cwd: Path,
    *args: str,
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    ok: Sequence[int] = (0,),
    spool: bool = False,
    timeout: float = 600,
) -> bytes:
    """Run ``git -C cwd ARGS``; its output as bytes, or a :class:`GitError`.

    For calls made before there is a work-tree root to hold a :class:`Git`
    (finding the root itself, creating a repository). ``spool`` passes a large
    input and output through unnamed temp files instead of pipes: git writes a
    big answer in small pieces, and taking them from a pipe one wake-up at a
    time cost more than the answer itself (a megabyte of ``cat-file --batch``:
    40 ms through pipes, 27 through a file, 20 in a shell). For read-only
    commands: when the temp files cannot be used (no room), the command runs
    again through pipes.
    """
    full_env = _environment(env)
    argv = ["git", "-C", str(cwd), *args]
    sub = args[0] if args else ""
    try:
        proc = None
        if spool:
            with suppress(OSError):  # no room for temp files: pipes still work
                proc = _spooled(argv, stdin, full_env, timeout)
        if proc is None:
            proc = subprocess.run(
                argv, input=stdin, capture_output=True, env=full_env, check=False, timeout=timeout
            )
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(sub, None, "", f"could not run git {sub} ({type(exc).__name__})") from exc
    if proc.returncode not in ok:
        detail = _said(proc.stderr, cwd)
        raise GitError(
            sub,
            proc.returncode,
            detail,
            f"git {sub} failed: {detail or f'exit {proc.returncode}'}",
        )
    return proc.stdout


class Started:
    """A read-only git command running in the background: :meth:`result` waits for
    it (its output, or a :class:`GitError`); :meth:`stop` ends it unread."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self._sub = args[0] if args else ""
        self._cwd = cwd
        self._proc = subprocess.Popen(
            ["git", "-C", str(cwd), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_environment(None),
        )

    def result(self, timeout: float = 600) -> bytes:
        try:
            out, err = self._proc.communicate(timeout=timeout)
        except subprocess.SubprocessError as exc:
            self.stop()
            raise GitError(self._sub, None, "", f"git {self._sub} did not finish") from exc
        if self._proc.returncode != 0:
            detail = _said(err, self._cwd)
            raise GitError(self._sub, self._proc.returncode, detail, f"git {self._sub} failed")
        return out

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.communicate()


class Git:
    """git in one work tree: ``run`` for bytes, ``text`` for one answer, ``z`` for names."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._git_dir: Path | None = None

    def run(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: Sequence[int] = (0,),
        spool: bool = False,
    ) -> bytes:
        """Run git in the work tree; its output as bytes (see :func:`run_git`)."""
        return run_git(self.root, *args, stdin=stdin, env=env, ok=ok, spool=spool)

    def text(self, *args: str, **kw: object) -> str:
        return self.run(*args, **kw).decode("utf-8", "surrogateescape").strip()  # type: ignore[arg-type]

    def z(self, *args: str, **kw: object) -> list[str]:
        """A ``-z`` listing as exact names."""
        out = self.run(*args, **kw)  # type: ignore[arg-type]
        return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]

    def git_dir(self) -> Path:
        """The repository folder of the work tree at ``root``.

        Read from ``<root>/.git`` the way git itself finds it (a folder, or a
        ``gitdir:`` file in worktrees and submodules); ``rev-parse`` answers
        whenever the environment redirects git or the layout is unusual.
        """
        if self._git_dir is None:
            self._git_dir = self._local_git_dir() or Path(
                self.text("rev-parse", "--absolute-git-dir")
            )
        return self._git_dir

    def _local_git_dir(self) -> Path | None:
        if any(k in os.environ for k in ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")):
            return None
        dot = Path(self.root, ".git")
        if dot.is_dir() and (dot / "HEAD").is_file():
            return dot.resolve()
        try:
            text = dot.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        if not text.startswith("gitdir: "):
            return None
        found = (Path(self.root) / text.removeprefix("gitdir: ")).resolve()
        return found if (found / "HEAD").is_file() else None

    def head(self) -> str | None:
        out = self.run("rev-parse", "--verify", "-q", "HEAD", ok=(0, 1))
        return out.decode().strip() or None

    def existing_objects(self, names: Collection[str]) -> frozenset[str]:
        """Those of ``names`` (full-length lowercase hex object ids) that name an
        object of this repository: one ``cat-file --batch-check`` for all of them.

        Anything else is dropped before git sees it, so no name is ever read as a
        revision expression (``HEAD``, ``<rev>:<path>``) or an abbreviated id.
        """
        asked = sorted({n for n in names if _FULL_OBJECT_ID.fullmatch(n)})
        if not asked:
            return frozenset()
        stdin = "".join(f"{n}\n" for n in asked).encode("ascii")
        out = self.run("cat-file", "--batch-check=%(objectname)", stdin=stdin)
        answered = {line.strip() for line in out.decode("ascii", "replace").splitlines()}
        # A missing object's line is "<name> missing": never equal to a bare name.
        return frozenset(n for n in asked if n in answered)
