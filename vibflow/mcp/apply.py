"""``recovery_apply``: the recover flow, stepped as far as an MCP caller's arguments reach.

No second apply model: the handler starts a run (which stops at its choice),
sends ``choose`` with the option and paths, sends ``confirm`` with the
``APPLY <id>`` text — the same runner, guards, sandwich, lease and restore as
``vibflow step``. "Choose and confirm in one call" is the two sends in a row.

Every argument a call carries must be one the run can take where it stands.
An agent reads an answer without error as "what I sent counted", so an
argument the run cannot take now (a confirmation for a finished run, an
option at the confirmation, paths on their own, another plan's option id) is
a typed error naming the run's status and state and the call that fits —
raised before anything moves, so nothing changes on disk. A choice or a
confirmation the flow's guards refuse is an error too (the run waits, blocked,
for a better one), never a ``blocked`` answer that looks like success.

Paths are de-duplicated (first seen first) once they passed the path
contract: a path named twice is one file to restore, and the confirmation's
paths are the previewed set in any order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.recovery.plans import EMPTY_CHOICE

if TYPE_CHECKING:
    from vibflow.engine.journal import RunRecord
    from vibflow.mcp import schemas
    from vibflow.mcp.calls import Call, Reply
    from vibflow.wiring import Project

_OPEN = ("waiting", "blocked")
_FINISHED = ("done", "failed", "aborted")
#: The lowest plan level that restores files (below it an option only explains).
_RESTORES = 3
_NEW_RUN = "Start a new run: call recovery_apply without run_id."


class ApplyBlocked(VibflowError):
    """A guard refused the choice or the confirmation; the run waits blocked at it."""

    def __init__(
        self,
        run: dict[str, Any],
        reason: str,
        busy: dict[str, Any] | None,
        *,
        hint: str = "The run waits; call recovery_apply again with it.",
    ) -> None:
        self.run = run
        self.busy = busy
        code = ErrorCode.BUSY if busy is not None else ErrorCode.GUARD_REFUSED
        super().__init__(code, reason, hint=hint)

    def to_json(self) -> dict[str, object]:
        data = super().to_json()
        data["run"] = self.run
        if self.busy is not None:
            data.update(self.busy)
        return data


class NotNow(VibflowError):
    """The call carries an argument the run cannot take where it stands; nothing moved."""

    def __init__(self, code: ErrorCode, run: RunRecord, message: str, hint: str) -> None:
        self.where = {"run_id": run.run_id, "status": str(run.status), "state": run.state}
        super().__init__(code, message, hint=hint)

    def to_json(self) -> dict[str, object]:
        data = super().to_json()
        data["run"] = self.where
        return data


def recovery_apply(call: Call) -> Reply:
    from vibflow.mcp.calls import Reply

    args: schemas.RecoveryApplyIn = call.args
    project = call.project
    # The path contract first, as an MCP caller (project-relative only): a bad
    # path is refused with its rule before any run moves.
    paths = None
    if args.paths is not None:
        if not args.paths:
            raise VibflowError(ErrorCode.BAD_INPUT, EMPTY_CHOICE)
        paths = project.paths.restore_paths(args.paths)  # the flow takes them as a set
    run = _the_run(project, args, paths is not None)
    if args.option_id is not None and run.state == "choose":
        run = _choose(project, run, args.option_id, paths)
    if args.confirmation is not None:
        run = _confirm(project, run, args.confirmation, paths)
    view = _run_view(project, run)
    facts: dict[str, Any] = {"run_id": run.run_id, "result": _result_of(str(run.status))}
    sandwich = view.get("sandwich_checkpoint_id")
    if isinstance(sandwich, str):
        facts["sandwich_checkpoint_id"] = sandwich
    return Reply(view, facts)


def _the_run(project: Project, args: schemas.RecoveryApplyIn, has_paths: bool) -> RunRecord:
    """A new run (no run_id), or the caller's run once its arguments fit where it stands."""
    runner = project.runner
    if args.run_id is None:
        if args.option_id is not None or args.confirmation is not None or has_paths:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                "an option, paths or a confirmation belong to a run: start one first (call "
                "recovery_apply without run_id) and pass its run_id",
            )
        return runner.start(project.catalog.load("recover"), {})
    run = runner.pick(args.run_id)
    if run.flow != "recover":
        raise VibflowError(
            ErrorCode.BAD_INPUT, f"run {run.run_id} is a {run.flow} run, not a recover run"
        )
    _check_fits(run, args, has_paths)
    return run


def _choose(project: Project, run: RunRecord, option: str, paths: list[str] | None) -> RunRecord:
    chosen: dict[str, Any] = {"option": option}
    if paths is not None:
        chosen["paths"] = paths
    run = project.runner.send(run.run_id, "choose", chosen)
    if run.status == "blocked" and run.state == "choose":
        raise ApplyBlocked(
            _run_view(project, run),
            run.blocked_reason or "the choice was refused",
            None,
            hint="The run waits at its choice: call recovery_apply again with an "
            "option_id (and paths) from this run's plan.",
        )
    return run


def _confirm(
    project: Project, run: RunRecord, confirmation: str, paths: list[str] | None
) -> RunRecord:
    if run.state != "confirm" or str(run.status) not in _OPEN:
        # Only after a choice in the same call: _check_fits refused the rest.
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            f"the choice was taken, but run {run.run_id} is now {run.status} at "
            f"'{run.state}', not at its confirmation, so the confirmation was not sent",
            "Call recovery_apply with run_id alone to see where it stands.",
        )
    confirmed: dict[str, Any] = {"confirmation": confirmation}
    if paths is not None:
        confirmed["paths"] = paths
    run = project.runner.send(run.run_id, "confirm", confirmed)
    if run.status == "blocked":
        reason = run.blocked_reason or "a guard refused"
        raise ApplyBlocked(_run_view(project, run), reason, _busy(project, run))
    return run


def _check_fits(run: RunRecord, args: schemas.RecoveryApplyIn, has_paths: bool) -> None:
    """Refuse, before anything moves, a call whose arguments the run cannot take now."""
    given = [
        name
        for name, present in (
            ("option_id", args.option_id is not None),
            ("paths", has_paths),
            ("confirmation", args.confirmation is not None),
        )
        if present
    ]
    if not given:
        return  # a look at the run: where it stands
    status, state, rid = str(run.status), run.state, run.run_id
    named = " and ".join(given)
    if status in _FINISHED:
        raise NotNow(
            ErrorCode.RUN_FINISHED,
            run,
            f"run {rid} is {status} (at '{state}'): a finished run takes no {named}",
            _NEW_RUN,
        )
    if status not in _OPEN or state not in ("choose", "confirm"):
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            f"run {rid} is {status} at '{state}' and waits for no {named} now",
            "Call recovery_apply with run_id alone to see where it stands.",
        )
    if state == "choose":
        _fits_the_choice(run, args, has_paths, named)
    else:
        _fits_the_confirmation(run, args, has_paths)


def _fits_the_choice(
    run: RunRecord, args: schemas.RecoveryApplyIn, has_paths: bool, named: str
) -> None:
    rid = run.run_id
    if args.option_id is None:
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            f"run {rid} waits at its choice: {named} come with an option_id, not alone",
            "Pass option_id (one of this run's plan.options) with them.",
        )
    options = {str(o.get("option_id")): o for o in _public(run).get("plan", {}).get("options", [])}
    option = options.get(args.option_id)
    if option is None:
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            f"that option_id is not one of the options of run {rid}: each run makes its own "
            "plan, with its own option ids",
            "Use an option_id from this run's answer (plan.options), not from recovery_preview.",
        )
    if int(option.get("level") or 0) < _RESTORES and (has_paths or args.confirmation is not None):
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            "that option restores no file, so it takes no paths and no confirmation",
            "Pass its option_id alone, or choose a restore option.",
        )


def _fits_the_confirmation(run: RunRecord, args: schemas.RecoveryApplyIn, has_paths: bool) -> None:
    rid = run.run_id
    restore = _public(run).get("restore")
    chosen = restore.get("option_id") if isinstance(restore, dict) else None
    if args.option_id is not None and args.option_id != chosen:
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            f"run {rid} already chose another option and waits for its confirmation",
            "Confirm it (confirmation: the run's confirmation_expected), or start a new run "
            "(recovery_apply without run_id) to choose another option.",
        )
    if args.confirmation is None:
        what = "paths" if has_paths else "an option_id"
        raise NotNow(
            ErrorCode.BAD_INPUT,
            run,
            f"run {rid} waits for its confirmation: {what} alone cannot be taken now",
            "Pass confirmation (exactly the run's confirmation_expected, APPLY <id>), with "
            "the previewed paths if you name them.",
        )


def _public(run: RunRecord) -> dict[str, Any]:
    public = run.context.get("public")
    return public if isinstance(public, dict) else {}


def _run_view(project: Project, run: RunRecord) -> dict[str, Any]:
    """A run as the caller sees it: where it is, what it waits for, what it showed,
    and the next steps as MCP calls (or the user's commands), never terminal lines."""
    from vibflow.mcp.hints import marked, recap_for_mcp

    defn = project.runner.definition_of(run)
    state = defn.states.get(run.state)
    waiting = None
    if state is not None and state.kind == "wait" and run.status in _OPEN:
        waiting = {"wait": state.wait, "events": list(state.on), "inputs": dict(state.inputs)}
    public = _public(run)
    recap = public.get("recap")
    if isinstance(recap, dict):
        public = {**public, "recap": recap_for_mcp(recap)[0]}
    result = public.get("result")
    if isinstance(result, dict) and isinstance(result.get("undo"), str):
        public = {**public, "result": {**result, "undo": marked(result["undo"])}}
    return {
        "run_id": run.run_id,
        "flow": run.flow,
        "status": str(run.status),
        "state": run.state,
        "blocked_reason": run.blocked_reason,
        "error": run.error,
        "waiting_for": waiting,
        "next": _next_steps(run, public, waiting is not None),
        **public,
    }


def _next_steps(run: RunRecord, public: dict[str, Any], waits: bool) -> list[dict[str, Any]]:
    """What the caller (or the user) does next with this run."""
    from vibflow.mcp.hints import agent_step, step_for, user_step

    rid, status = run.run_id, str(run.status)
    steps: list[dict[str, Any]] = []
    if waits and run.state == "choose":
        option = public.get("recommended_option")
        args: dict[str, Any] = {"run_id": rid}
        if isinstance(option, str):
            args["option_id"] = option
        steps.append(
            agent_step(
                "recovery_apply",
                args,
                "choose the recommended option (or another option_id of plan.options; add "
                "paths to restore some of its files only)",
            )
        )
    elif waits and run.state == "confirm":
        expected = public.get("confirmation_expected")
        steps.append(
            agent_step(
                "recovery_apply",
                {"run_id": rid, "confirmation": expected},
                "confirm the previewed restore (the sandwich checkpoint is taken first)",
            )
        )
    if waits:
        steps.append(
            user_step(f"vibflow step {rid} cancel", "cancel the run (the user, at a terminal)")
        )
    elif status == "interrupted":
        steps.append(user_step(f"vibflow resume {rid}", "resume the interrupted run"))
    result = public.get("result")
    undo = result.get("undo_command") if isinstance(result, dict) else None
    if isinstance(undo, str):
        steps.append(step_for(undo) | {"does": "undo this restore (only the user may)"})
    return steps


def _busy(project: Project, run: RunRecord) -> dict[str, Any] | None:
    """The lease holder's operation and ETA, when the lock guard refused the run."""
    entries = project.journal.entries(run.run_id)
    last = entries[-1] if entries else None
    if last is None or last.kind != "blocked":
        return None
    failed = [g for g in last.guards if not g.get("passed", True)]
    refused = str(failed[-1].get("guard") or failed[-1].get("name")) if failed else None
    held = project.lease_file.busy() if refused == "lock_acquired" else None
    if held is None:
        return None
    progress = None
    if held.progress is not None:
        progress = {"files_done": held.progress[0], "files_total": held.progress[1]}
    eta = held.eta_seconds
    return {
        "operation_id": held.operation_id,
        # From the running restore's own rate; null (and eta_known false) before it
        # has reported one: the lease's length is no estimate of a restore.
        "eta_seconds": None if eta is None else round(eta, 1),
        "eta_known": eta is not None,
        "progress": progress,
    }


def _result_of(status: str) -> str:
    return {
        "done": "ok",
        "waiting": "waiting",
        "blocked": "blocked",
        "aborted": "aborted",
        "failed": "failed",
        "interrupted": "interrupted",
    }.get(status, "ok")
