"""The restore branch of the recover flow: route → sandwich → confirm → apply.

Every precondition is a guard on the transition into ``apply`` (the
engine's trusted-shape rule makes removing one a load error):
``confirmation_matches`` (the user typed ``APPLY <checkpoint_id>``),
``feature_flag: RECOVERY_APPLY`` (environment only), ``grant:
recovery_apply`` (the local CLI; MCP callers need a grant), ``lock_acquired``
(the project lease), ``sandwich_present`` (a complete safety checkpoint taken
for this run) and ``paths_valid`` (the path contract, and the confirmed paths
equal the previewed ones).

The apply checks the lease at every file boundary and stops before the next
file when it was lost (the run ends ``aborted``); a file edited after the
sandwich was taken sends the run back for a new sandwich and a second
confirmation. Files equal to the checkpoint are skipped, so a resumed apply
finishes with the same tree as an uninterrupted one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from vibflow.engine.errors import VibflowError
from vibflow.engine.kinds import FinalStatus, GuardParam
from vibflow.engine.registry import (
    GuardContext,
    GuardResult,
    StepContext,
    StepResult,
)
from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseBusy, LeaseLost, new_operation_id

SHOWN_PATHS = 200  # paths shown in the run's JSON; the job file keeps them all
UNSAVED = "too large for the safety checkpoint, so a restore of it could not be undone"


class ApplyServices(Protocol):
    """What the front door's project object offers these steps."""

    root: Any
    state_dir: Any
    checkpoints: Any
    lease_file: Any
    leases: dict[str, Any]
    checked_paths: dict[str, list[str]]
    tool: str

    def normalize_path(self, raw: str) -> str: ...

    def normalize_paths(self, raws: Iterable[str]) -> list[str]: ...


def _services(ctx: StepContext | GuardContext) -> Any:
    factory = ctx.services["project"]
    return factory() if callable(factory) else factory


def _public(ctx: StepContext | GuardContext) -> dict[str, Any]:
    public = ctx.context.get("public", {})
    return public if isinstance(public, dict) else {}


# -- steps ------------------------------------------------------------------------


def full_option(ctx: StepContext | GuardContext, option_id: str | None) -> dict[str, Any] | None:
    """The chosen option with *all* its paths: the run context keeps trimmed
    lists, the full redacted plan is the advisor's last preview."""
    plan = _public(ctx).get("plan", {})
    factory = ctx.services.get("recovery")
    advisor = factory() if callable(factory) else factory
    full = advisor.last_preview() if advisor is not None else None
    if full is not None and full.get("plan_id") == plan.get("plan_id"):
        plan = full
    return next((o for o in plan.get("options", []) if o.get("option_id") == option_id), None)


def _job_path(svc: Any, run_id: str) -> Any:
    return svc.state_dir / "recovery" / "jobs" / f"{run_id}.json"


def load_job(ctx: StepContext | GuardContext) -> dict[str, Any]:
    """The restore job ``route`` wrote: option, source checkpoint, every path."""
    svc = _services(ctx)
    try:
        data = json.loads(_job_path(svc, ctx.run_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def route(ctx: StepContext) -> StepResult:
    """Read-only choices end; restore choices write their job and go on to the sandwich."""
    public = _public(ctx)
    plan = public.get("plan", {})
    wanted = ctx.context.get("inputs", {}).get("option")
    option = full_option(ctx, wanted)
    if option is None or option.get("level", 0) < 3:
        return StepResult("read_only", outcome="read-only option")
    chosen = list(ctx.context.get("inputs", {}).get("paths") or option.get("affected_paths", []))
    source = (plan.get("safe_checkpoint_candidate") or {}).get("checkpoint_id")
    job = {
        "option_id": wanted,
        "level": option.get("level"),
        "paths": chosen,
        "deletes": [p for p in option.get("deletes", []) if p in set(chosen)],
        "from_checkpoint": source,
    }
    svc = _services(ctx)
    target = _job_path(svc, ctx.run_id)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(job), encoding="utf-8")
    tmp.replace(target)
    return StepResult(
        "restore",
        outcome=f"restore {len(chosen)} path(s)",
        context={
            "public": {
                "restore": {
                    "option_id": wanted,
                    "level": option.get("level"),
                    "from_checkpoint": source,
                    "deletes": job["deletes"][:SHOWN_PATHS],
                },
                "paths": chosen[:SHOWN_PATHS],
                "paths_total": len(chosen),
                "confirmation_expected": f"APPLY {source}",
            }
        },
    )


def sandwich(ctx: StepContext) -> StepResult:
    """Take the safety checkpoint right before asking for confirmation."""
    svc = _services(ctx)
    meta = svc.checkpoints.create(f"sandwich for {ctx.run_id}", reason="sandwich")
    total = len(load_job(ctx).get("paths", []))
    return StepResult(
        "done",
        outcome="sandwich taken",
        context={"public": {"sandwich_checkpoint_id": meta.checkpoint_id}},
        audit={
            "sandwich_checkpoint_id": meta.checkpoint_id,
            "result": "ok",
            "paths_count": {"total": total},
        },
    )


def apply(ctx: StepContext) -> StepResult:
    svc = _services(ctx)
    public = _public(ctx)
    job = load_job(ctx)
    paths = svc.checked_paths.pop(ctx.run_id, None) or svc.normalize_paths(job.get("paths", []))
    source = svc.checkpoints.get(job.get("from_checkpoint", ""))
    sandwich_meta = svc.checkpoints.get(public.get("sandwich_checkpoint_id", ""))
    lease = svc.leases.pop(ctx.run_id, None)
    if lease is None:  # resumed in a new process: take the lease again
        try:
            lease = svc.lease_file.acquire(f"op_{ctx.run_id[4:]}")
        except LeaseBusy as busy:
            return StepResult(
                "aborted",
                outcome="busy",
                status=FinalStatus.ABORTED,
                context={"public": {"applied": {"aborted": busy.message, "changed_files": 0}}},
                audit={"result": "busy"},
            )
    items = restore.plan(svc.checkpoints.git, source.commit, paths)
    confirmed_deletes = set(job.get("deletes", []))
    pending = [i for i in items if not ctx.progress.is_done(i.path)]
    at_sandwich = {
        i.path: i
        for i in restore.plan(svc.checkpoints.git, sandwich_meta.commit, [i.path for i in items])
    }

    def differs_from_sandwich(item: restore.Item) -> bool:
        was = at_sandwich.get(item.path)
        return was is None or (was.action, was.mode, was.sha) != (item.action, item.mode, item.sha)

    # Files a killed earlier attempt already restored count as changed by this
    # restore: the sandwich (the tree right before it) differs and they are now
    # what the checkpoint holds.
    done_before = [i for i in items if ctx.progress.is_done(i.path) and i.action != "skip"]
    already = sum(
        1
        for i in done_before
        if differs_from_sandwich(i) and restore.Current.read(svc.root, i.path).is_object(i)
    )
    # A file the sandwich could not hold (over the size cap) could not be put
    # back after the restore: it is left alone and reported.
    unsaved = {s.path for s in sandwich_meta.skipped}
    pending = [
        restore.Item(i.path, "skip", reason=UNSAVED) if i.path in unsaved else i for i in pending
    ]
    edited, stale = _compare(svc.root, pending, at_sandwich)
    if edited:
        lease.release()
        return StepResult(
            "reconfirm",
            outcome=f"{len(edited)} file(s) edited after the sandwich",
            context={"public": {"post_sandwich_edits": edited[:SHOWN_PATHS]}},
        )
    # Only the files to write are read out of git.
    stale_set = set(stale)
    blobs = restore.read_blobs(
        svc.checkpoints.git,
        [i.sha for i in pending if i.sha and i.action == "write" and i.path in stale_set],
    )
    work = [
        (
            restore.Item(i.path, "skip", reason="deleting it was not part of what you confirmed")
            if i.action == "delete" and i.path not in confirmed_deletes
            else i,
            blobs.get(i.sha or ""),
        )
        for i in pending
    ]
    changed, skipped = 0, []

    def on_file(item: restore.Item, what: str) -> None:
        nonlocal changed
        if what.startswith("skipped"):
            skipped.append({"path": item.path, "why": what.removeprefix("skipped: ")})
        elif what != "unchanged" or differs_from_sandwich(item):
            changed += 1  # "unchanged" and different: restored by a killed earlier attempt
        ctx.progress.finish(item.path)

    def on_batch() -> None:
        ctx.progress.flush()
        lease.renew_if_due()

    try:
        # Ownership and generation are verified under the lease mutex when a
        # batch's renames begin, and the expiry before every file (lease.commit):
        # a lost lease stops the restore before anything more becomes visible.
        restore.restore_items(
            svc.root,
            work,
            lease.commit,
            on_file=on_file,
            on_batch=on_batch,
            known_stale=stale,
            tag=lease.record.generation,
            scratch=svc.lease_file.folder,
        )
    except LeaseLost:
        return _lease_lost(changed, sandwich_meta.checkpoint_id)
    except Exception:
        lease.release()  # a failed restore must not keep others waiting for the lease
        raise
    lease.release()
    total = changed + already
    return StepResult(
        "done",
        outcome=f"{len(items)} path(s) restored",
        context={
            "public": {
                "changed_files": total,
                "post_sandwich_edits": [],
                "applied": {
                    "changed_files": total,
                    "skipped": skipped,
                    "paths": paths,
                    "sandwich_checkpoint_id": sandwich_meta.checkpoint_id,
                },
            }
        },
        audit={
            "result": "ok",
            "sandwich_checkpoint_id": sandwich_meta.checkpoint_id,
            "files_changed": changed,
            "paths_count": {"in_zone": 0, "drift": len(paths), "total": len(paths)},
        },
    )


def _compare(
    root: Any, pending: list[restore.Item], at_sandwich: dict[str, restore.Item]
) -> tuple[list[str], list[str]]:
    """(edited after the sandwich, different from the checkpoint) among ``pending``.

    Every pending file is read once, before anything is written: one edited
    after the sandwich was taken sends the whole restore back for a second
    confirmation, with nothing half-done.
    """
    edited, stale = [], []
    for item in pending:
        if item.action == "skip":
            continue
        now = restore.Current.read(root, item.path)
        if now.is_object(item):
            continue
        stale.append(item.path)
        was = at_sandwich.get(item.path)
        if was is not None and was.action != "skip" and not now.is_object(was):
            edited.append(item.path)
    return edited, stale


def _lease_lost(changed: int, sandwich_id: str) -> StepResult:
    return StepResult(
        "aborted",
        outcome="lease lost",
        status=FinalStatus.ABORTED,
        context={
            "public": {
                "applied": {"aborted": "restore exceeded lock window", "changed_files": changed}
            }
        },
        audit={
            "result": "aborted",
            "sandwich_checkpoint_id": sandwich_id,
            "files_changed": changed,
        },
    )


# -- guards on the transition into apply --------------------------------------------


def confirmation_matches(ctx: GuardContext, param: GuardParam) -> GuardResult:
    del param
    expected = _public(ctx).get("confirmation_expected")
    typed = str(ctx.inputs.get("confirmation") or "").strip()
    if expected and typed == expected:
        return GuardResult.ok()
    return GuardResult.refuse(f"the confirmation does not match; type exactly: {expected}")


def grant(ctx: GuardContext, param: GuardParam) -> GuardResult:
    svc = _services(ctx)
    if svc.tool == "cli":
        return GuardResult.ok()  # the local user at their own terminal
    return GuardResult.refuse(
        f"this tool has no grant for {param}; grant it with `vibflow grant {svc.tool} {param}`"
    )


def lock_acquired(ctx: GuardContext, param: GuardParam) -> GuardResult:
    del param
    if ctx.dry_run:
        status = _services(ctx).lease_file.status()
        busy = status is not None and not status["expired"]
        return GuardResult.refuse("another restore holds the lock") if busy else GuardResult.ok()
    svc = _services(ctx)
    try:
        svc.leases[ctx.run_id] = svc.lease_file.acquire(new_operation_id())
    except LeaseBusy as busy:
        return GuardResult.refuse(
            f"another restore is running (operation {busy.operation_id}); try again in about "
            f"{busy.eta_seconds:.0f} s"
        )
    return GuardResult.ok()


def release_lock(ctx: GuardContext, param: GuardParam) -> None:
    del param
    lease = _services(ctx).leases.pop(ctx.run_id, None)
    if lease is not None:
        lease.release()


def sandwich_present(ctx: GuardContext, param: GuardParam) -> GuardResult:
    del param
    cid = _public(ctx).get("sandwich_checkpoint_id")
    if not cid:
        return GuardResult.refuse("no safety checkpoint was taken for this restore")
    try:
        meta = _services(ctx).checkpoints.get(cid)
    except VibflowError:
        return GuardResult.refuse("the safety checkpoint for this restore no longer exists")
    if not meta.metadata_complete or meta.reason != "sandwich":
        return GuardResult.refuse("the safety checkpoint for this restore is incomplete")
    return GuardResult.ok(sandwich_checkpoint_id=cid)


def paths_valid(ctx: GuardContext, param: GuardParam) -> GuardResult:
    del param
    previewed = list(load_job(ctx).get("paths") or [])
    if not previewed:
        return GuardResult.refuse("there is no previewed restore to confirm; choose again")
    confirmed = list(ctx.inputs.get("paths") or previewed)
    if sorted(confirmed) != sorted(previewed):
        return GuardResult.refuse(
            "the paths to restore differ from the ones you previewed; "
            "preview again and confirm those"
        )
    svc = _services(ctx)
    try:
        checked = svc.normalize_paths(previewed)  # the same set as `confirmed`, in job order
    except VibflowError as exc:
        return GuardResult.refuse(f"a path breaks the path rules: {exc.message}")
    if not ctx.dry_run:
        svc.checked_paths[ctx.run_id] = checked
    return GuardResult.ok(paths_count={"total": len(confirmed)})
