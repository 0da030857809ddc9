"""``vibflow agent hook AGENT [EVENT]``: the command an agent's hooks run.

It reads the hook's JSON from stdin, records the event
(:class:`~vibflow.steps.agents.hook.HookHandler`) and exits 0 — always: a
payload it cannot read, a broken ``.vibflow/``, a restore holding the lease,
git missing, a path the path contract refuses, a call that runs past the
time limit (``agents.hook_timeout_seconds``): each is noted for ``vibflow
agent status`` and the agent goes on. Nothing is printed for Claude Code
(its ``UserPromptSubmit`` would add our output to the prompt); Gemini CLI
reads stdout as JSON, so it gets ``{}``.

Why it is not a typer command: the agent waits on the turn-start hook, whose
budget is ~150 ms in a fresh process, and typer + pydantic + the flow engine
take more than that to import. ``vibflow/__main__.py`` sends ``agent hook``
here before typer is imported, and this module imports only what the event
needs: the records, the lean checkpoint path (the full store only for the
cases it leaves to it), the path contract for tool-use. Memory's write path
costs more than the budget too, so a closed turn's files are handed to memory
by a detached background process (``--observe-pending``), and synchronously
only when the session ends (before its recap).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.agent_memory import (
    OBSERVE_PENDING,
    observe,
    observe_pending,
    session_recap,
    spawn_observer,
)

if TYPE_CHECKING:
    from vibflow.steps.agents.hook import HookServices
    from vibflow.steps.agents.problems import ProblemLog
    from vibflow.steps.checkpoints.quick import QuickCheckpoints

#: Used until the project's policy is read (and when it cannot be).
DEFAULT_TIMEOUT = 10.0
_MAX_INPUT = 8 * 1024 * 1024 + 1


class _Call:
    """One hook call's shared state between the worker thread and the watchdog."""

    def __init__(self, agent: str, event: str) -> None:
        self.agent = agent
        self.event = event
        self.timeout = DEFAULT_TIMEOUT
        self.log: ProblemLog | None = None
        self.done = threading.Event()

    def problem(self, text: str) -> None:
        from vibflow.steps.agents.problems import Problem
        from vibflow.steps.agents.records import now_iso

        if self.log is not None:
            self.log.add(Problem(now_iso(), self.agent[:40], self.event[:40], text[:500]))

    def failed(self, what: str, exc: BaseException) -> None:
        """Note that ``what`` failed, with the error's first line (ours) or its type."""
        self.problem(f"{what} ({_why(exc)})")


def main(argv: Sequence[str], stdin: Any = None) -> int:
    """Handle one hook call; the exit status is 0 whatever happened."""
    if list(argv[:1]) == [OBSERVE_PENDING]:
        return _observe_pending_main()
    agent = argv[0] if argv else ""
    event_arg = argv[1] if len(argv) > 1 else None
    call = _Call(agent, event_arg or "?")
    try:
        raw = (stdin or sys.stdin.buffer).read(_MAX_INPUT)
    except (OSError, ValueError):
        raw = b""
    started = time.monotonic()
    worker = threading.Thread(target=_work, args=(call, agent, event_arg, raw), daemon=True)
    worker.start()
    while not call.done.wait(0.05):
        if time.monotonic() - started > call.timeout:
            call.problem(
                f"the hook took longer than {call.timeout:g} s (agents.hook_timeout_seconds); "
                "the agent went on, with the turn recorded as far as it got"
            )
            break
    if agent == "gemini":
        sys.stdout.write("{}\n")
    return 0


def _work(call: _Call, agent: str, event_arg: str | None, raw: bytes) -> None:
    try:
        _handle(call, agent, event_arg, raw)
    except BaseException as exc:  # noqa: BLE001 - the hook's one rule: never fail the agent
        call.failed("the hook failed", exc)
    finally:
        call.done.set()


def _why(exc: BaseException) -> str:
    if type(exc).__module__.startswith("vibflow.") and str(exc):
        return str(exc).splitlines()[0][:300]
    return type(exc).__name__


def _handle(call: _Call, agent: str, event_arg: str | None, raw: bytes) -> None:
    from vibflow.steps.agents.payloads import PayloadError, parse
    from vibflow.steps.agents.problems import ProblemLog, find_git_dir
    from vibflow.steps.agents.records import agent_name

    start = Path.cwd()
    try:
        event = parse(agent_name(agent), event_arg, raw)
    except (PayloadError, ValueError) as exc:
        call.log = ProblemLog(_existing_state(start), find_git_dir(start))
        call.problem(str(exc))
        return
    call.event = event.kind.replace("_", "-")
    if event.cwd and Path(event.cwd).is_dir():
        start = Path(event.cwd)
    root = _root(call, start)
    if root is None:
        return
    from vibflow.steps.workspace.root import state_dir

    try:
        state = state_dir(root)
        call.log = ProblemLog(state, find_git_dir(root))
        (state / "agents").mkdir(exist_ok=True)
    except OSError as exc:
        call.log = ProblemLog(None, find_git_dir(root))
        call.problem(f"vibflow's folder .vibflow/ is not usable ({type(exc).__name__})")
        return
    settings = _settings(call, root)
    call.timeout = settings["timeout"]
    # A turn's checkpoint: git starts reading the tree now, while the records are
    # opened and written (the lean path's lock is held until the checkpoint is taken).
    early = _begin_checkpoint(root, state, settings) if event.kind in _SNAPSHOTS else None
    from vibflow.steps.agents.hook import HookHandler

    services = _services(call, root, state, settings, early)
    try:
        if event.kind == "session_end":
            # The session's recap follows: memory takes every turn's files first.
            observe_pending(root, state, services.records, call)
        else:
            services.observe_later = lambda: spawn_observer(root)
        HookHandler(services).handle(event)
    finally:
        if early is not None:
            early.close()  # no checkpoint was taken (a restore's lease, no open turn)
        services.records.close()


_SNAPSHOTS = ("turn_start", "turn_end")


def _begin_checkpoint(root: Path, state: Path, settings: dict[str, Any]) -> QuickCheckpoints | None:
    """The lean checkpoint path, begun; ``None`` when it leaves this one to the store."""
    lean = _lean(root, state, settings)
    try:
        lean.begin()
    except Exception:  # noqa: BLE001 - Unsupported, or broken: the full store takes it
        return None
    return lean


def _lean(root: Path, state: Path, settings: dict[str, Any]) -> QuickCheckpoints:
    from vibflow.steps.checkpoints.lean_policy import LeanPolicy
    from vibflow.steps.checkpoints.quick import QuickCheckpoints

    data = settings.get("checkpoints_data")
    return QuickCheckpoints(root, state, LeanPolicy.from_dump(data) if data else None)


def run_wrapped(root: Path, agent: str, launch: Callable[[], int]) -> tuple[int, int | None]:
    """``vibflow agent run``: ``launch()`` as one session of one turn, with a
    checkpoint before and after it; (its exit status, the turn's number)."""
    with recorded_session(root, agent, "run") as send:
        number = send("turn_start")
        try:
            code = launch()
        finally:
            send("turn_end")
    return code, number


@contextlib.contextmanager
def recorded_session(root: Path, agent: str, kind: str) -> Iterator[Callable[..., int | None]]:
    """One session of ``agent`` in ``root`` recorded through the hook handler, as the
    installed hooks record one: started, then ``send(event, tool=None, paths=())``
    for each event (the turn's number back, or None when it could not be recorded —
    recording never stops the agent), then ended. ``kind`` names the session's id."""
    from vibflow.steps.agents.hook import HookHandler
    from vibflow.steps.agents.payloads import EventKind, HookEvent
    from vibflow.steps.agents.problems import ProblemLog, find_git_dir
    from vibflow.steps.workspace.root import state_dir

    call = _Call(agent, kind)
    state = state_dir(root)
    call.log = ProblemLog(state, find_git_dir(root))
    services = _services(call, root, state, _settings(call, root))
    handler = HookHandler(services)
    session = f"{kind}-{os.urandom(8).hex()}"

    def send(event: EventKind, tool: str | None = None, paths: Sequence[str] = ()) -> int | None:
        try:
            return handler.handle(HookEvent(agent, event, session, tool, paths)).turn
        except Exception as exc:  # noqa: BLE001 - recording never stops the agent's run
            call.failed("the run could not be recorded", exc)
            return None

    send("session_start")
    try:
        yield send
    finally:
        send("session_end")
        services.records.close()


def _existing_state(start: Path) -> Path | None:
    from vibflow.steps.agents.problems import find_git_dir

    git_dir = find_git_dir(start)
    candidate = git_dir.parent / ".vibflow" if git_dir is not None else None
    return candidate if candidate is not None and candidate.is_dir() else None


def _root(call: _Call, start: Path) -> Path | None:
    from vibflow.steps.agents.problems import ProblemLog, find_git_dir
    from vibflow.steps.workspace.root import find_root

    plain = _plain_root(start)
    if plain is not None:
        return plain
    try:
        return find_root(start)
    except Exception as exc:  # noqa: BLE001 - git missing, or not a repository
        call.log = ProblemLog(_existing_state(start), find_git_dir(start))
        call.failed("no project here", exc)
        return None


#: Environment that changes where git finds the repository: then git is asked.
_GIT_PLACES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES")


def _plain_root(start: Path) -> Path | None:
    """The work tree's root as ``git rev-parse --show-toplevel`` would answer, found
    without running git (a process is a few ms of the agent's wait) — but only in
    the plain case: a ``.git`` folder of our own user, above ``start``, whose config
    names no other work tree and is no bare repository. Anything else (a linked
    worktree or submodule's ``.git`` file, the environment redirecting git, another
    owner) is ``None``, and git is asked."""
    uid = getattr(os, "geteuid", None)
    if uid is None or any(name in os.environ for name in _GIT_PLACES):
        return None
    here = start.resolve()
    for _ in range(64):
        dot = here / ".git"
        try:
            st = dot.lstat()
        except FileNotFoundError:
            if here.parent == here:
                return None
            here = here.parent
            continue
        except OSError:
            return None
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid():
            return None
        try:
            config = (dot / "config").read_bytes().lower()
        except OSError:
            return None
        if b"worktree" in config or b"bare = true" in config or not (dot / "HEAD").is_file():
            return None
        return here
    return None


def _settings(call: _Call, root: Path) -> dict[str, Any]:
    """The hook's timeout and turn retention, and the checkpoint policy: the shipped
    defaults unless the project's own policy file says otherwise — then read once
    and kept (:mod:`~vibflow.steps.agents.settings_cache`) until a policy file
    changes."""
    from vibflow.steps.agents.defaults import DEFAULTS

    found: dict[str, Any] = dict(DEFAULTS)
    found["checkpoints"] = None  # the pydantic CheckpointPolicy, when it was loaded
    found["checkpoints_data"] = None  # its model_dump(mode="json"), when cached
    user = root / ".vibflow" / "policy.yaml"
    if not user.exists():
        return found
    from vibflow.steps.agents import settings_cache

    folder = root / ".vibflow" / "agents"
    wanted = settings_cache.key(user, _shipped_policies(), _version())
    cached = settings_cache.load(folder, wanted)
    if cached is not None:
        found.update(cached)
        return found
    try:
        from vibflow.wiring import Project

        project = Project(root)
        agents = project.agents_policy
        checkpoints = project.recovery_policy.checkpoints
        read = {
            "timeout": agents.hook_timeout_seconds,
            "keep_sessions": agents.turns.keep_sessions,
            "keep_days": agents.turns.keep_days,
            "max_turns": agents.turns.max_turns,
            "keep_records_days": agents.turns.keep_records_days,
            "checkpoints_data": checkpoints.model_dump(mode="json"),
        }
    except Exception as exc:  # noqa: BLE001 - a broken policy: the defaults, and say so
        call.failed("the policy could not be read; the defaults were used", exc)
        return found
    settings_cache.save(folder, wanted, read)
    found.update(read, checkpoints=checkpoints)
    return found


def _shipped_policies() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("vibflow.policies")
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(places[0]) if places else None


def _version() -> str:
    from vibflow import __version__

    return __version__


def _checkpoint_policy(settings: dict[str, Any]) -> Any:
    """The pydantic CheckpointPolicy for the full store (``None``: the shipped one)."""
    if settings["checkpoints"] is None and settings.get("checkpoints_data") is not None:
        from vibflow.steps.checkpoints.models import CheckpointPolicy

        settings["checkpoints"] = CheckpointPolicy.model_validate(settings["checkpoints_data"])
    return settings["checkpoints"]


def _services(
    call: _Call,
    root: Path,
    state: Path,
    settings: dict[str, Any],
    early: QuickCheckpoints | None = None,
) -> HookServices:
    from vibflow.steps.agents.hook import HookServices
    from vibflow.steps.agents.lease_peek import lease_holder
    from vibflow.steps.agents.records import AgentRecords

    records = AgentRecords(
        state / "agents.db",
        busy_seconds=max(0.5, min(5.0, settings["timeout"] / 2)),
        on_recovered=call.problem,
    )

    def pins() -> set[str] | None:
        from datetime import UTC, datetime

        try:
            return records.pinned_checkpoints(
                keep_sessions=settings["keep_sessions"],
                keep_days=settings["keep_days"],
                max_turns=settings["max_turns"],
                now=datetime.now(UTC),
            )
        except Exception:  # noqa: BLE001 - unknown pins: the general retention rule
            return None

    begun = [early] if early is not None else []

    def checkpoint(message: str) -> str:
        # Unsupported (a case only the full store handles) or anything broken: the
        # full store tries afresh, and if it fails too the handler notes why.
        lean = begun.pop() if begun else _lean(root, state, settings)
        lean.pins = pins
        with contextlib.suppress(Exception):
            return lean.create(message)[0]
        from vibflow.steps.checkpoints.store import CheckpointStore

        store = CheckpointStore(root, state, _checkpoint_policy(settings), pins=pins)
        return store.create(message, reason="agent_turn").checkpoint_id

    return HookServices(
        records=records,
        checkpoint=checkpoint,
        normalize=lambda raws: _normalize(root, raws),
        busy=lambda: lease_holder(state),
        problem=call.problem,
        observe=lambda agent, _turn, files: observe(root, agent, files),
        session_ended=lambda session, turns: session_recap(root, records, session, turns),
        prune=lambda: _prune(records, settings),
    )


def _prune(records: Any, settings: dict[str, Any]) -> int:
    """The records' retention with the project's policy: a turn's record outlives
    its checkpoints (``keep_days``) and is kept at least ``keep_records_days``."""
    from datetime import UTC, datetime

    return int(
        records.prune(
            keep_sessions=settings["keep_sessions"],
            keep_days=max(settings["keep_days"], settings["keep_records_days"]),
            now=datetime.now(UTC),
        )
    )


def _observe_pending_main() -> int:
    """The background hand-over (:func:`~vibflow.agent_memory.spawn_observer`); exits 0
    whatever happened."""
    from vibflow.steps.agents.problems import ProblemLog, find_git_dir
    from vibflow.steps.agents.records import AgentRecords

    call = _Call("agent", "observe")
    try:
        root = _root(call, Path.cwd())
        if root is None:
            return 0
        state = root / ".vibflow"
        call.log = ProblemLog(state, find_git_dir(root))
        records = AgentRecords(state / "agents.db", on_recovered=call.problem)
        try:
            observe_pending(root, state, records, call)
        finally:
            records.close()
    except BaseException as exc:  # noqa: BLE001 - in the background, as in the hook: noted
        call.failed("memory's hand-over failed", exc)
    return 0


def _normalize(root: Path, raws: Sequence[str]) -> tuple[list[str], dict[str, int]]:
    from vibflow.steps.paths.contract import PathRejected, canonicalize

    kept: list[str] = []
    rejected: dict[str, int] = {}
    for raw in raws:
        try:
            kept.append(canonicalize(raw, root, allow_absolute=True, allow_generated=True).relative)
        except PathRejected as exc:
            rejected[exc.rule.value] = rejected.get(exc.rule.value, 0) + 1
    return list(dict.fromkeys(kept)), rejected
