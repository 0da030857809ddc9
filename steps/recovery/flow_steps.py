"""The recover flow's steps and its option guard, registered by name.

explain → recommend → preview → choose (wait) → result. The steps are
methods of :class:`RecoverSteps`, built with the advisor and memory they use
(see ``steps/recovery/services.py``). The run context keeps a compact,
redacted plan (long lists trimmed, counts kept) so it stays within the
engine's context bound; the full redacted plan is
``.vibflow/recovery/last_preview.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vibflow.engine.builtin_guards import flag_enabled
from vibflow.engine.kinds import FinalStatus, GuardParam
from vibflow.engine.registry import (
    GuardContext,
    GuardResult,
    StepContext,
    StepResult,
)
from vibflow.steps.recovery.advisor import APPLY_DISABLED

if TYPE_CHECKING:
    from vibflow.steps.memory.service import MemoryService
    from vibflow.steps.recovery.advisor import RecoveryAdvisor

LIST_LIMIT = 40


def _compact(payload: dict[str, Any]) -> dict[str, Any]:
    out = dict(payload)
    out.pop("changed", None)
    for key in ("intent_zone", "drift_candidates", "excluded_generated"):
        items = out.get(key) or []
        if len(items) > LIST_LIMIT:
            out[key] = items[:LIST_LIMIT]
            out[f"{key}_truncated"] = len(items) - LIST_LIMIT
    options = []
    for opt in out.get("options", []):
        paths = opt.get("affected_paths", [])
        slim = {**opt, "affected_paths": paths[:LIST_LIMIT]}
        if len(paths) > LIST_LIMIT:
            slim["affected_paths_truncated"] = len(paths) - LIST_LIMIT
        options.append(slim)
    out["options"] = options
    return out


def public_of(context: Mapping[str, Any]) -> dict[str, Any]:
    """The run's ``public`` part (what the flow shows), or an empty one."""
    public = context.get("public", {})
    return public if isinstance(public, dict) else {}


def full_option(
    advisor: RecoveryAdvisor, context: Mapping[str, Any], option_id: str | None
) -> dict[str, Any] | None:
    """The chosen option with *all* its paths: the run context keeps trimmed
    lists, the full redacted plan is the advisor's last preview."""
    plan = public_of(context).get("plan", {})
    full = advisor.last_preview()
    if full is not None and full.get("plan_id") == plan.get("plan_id"):
        plan = full
    return next((o for o in plan.get("options", []) if o.get("option_id") == option_id), None)


class RecoverSteps:
    """The read-only part of the recover flow, and its option guard."""

    def __init__(self, advisor: RecoveryAdvisor, memory: MemoryService | None) -> None:
        self._advisor = advisor
        self._memory = memory

    def explain(self, ctx: StepContext) -> StepResult:
        del ctx
        advice = self._advisor.advise()
        plan = advice.plan
        return StepResult(
            "done",
            outcome=f"{len(plan.changed)} changed, {len(plan.drift_candidates)} drift",
            context={"public": {"plan": _compact(advice.payload)}},
        )

    def recommend(self, ctx: StepContext) -> StepResult:
        plan = public_of(ctx.context).get("plan", {})
        options = plan.get("options", [])
        best = next((o for o in options if o.get("recommended")), options[0] if options else None)
        return StepResult(
            "done",
            outcome=f"recommended level {best.get('level') if best else 0}",
            context={"public": {"recommended_option": best.get("option_id") if best else None}},
        )

    def preview(self, ctx: StepContext) -> StepResult:
        """Record the plan the run is showing (recomputed only if this process did
        not make it, e.g. after a resume) and publish it with its recommendation."""
        shown = public_of(ctx.context).get("plan", {}).get("plan_id")
        advice = self._advisor.cached(shown) or self._advisor.advise()
        if not ctx.dry_run:  # a dry run writes nothing, not even the last preview
            self._advisor.record_preview(advice)
        compact = _compact(advice.payload)
        best = next((o for o in compact["options"] if o.get("recommended")), None)
        return StepResult(
            "done",
            outcome=f"level {advice.plan.level}",
            context={
                "public": {
                    "plan": compact,
                    "recommended_option": best.get("option_id") if best else None,
                }
            },
            audit=advice.audit_facts(),
        )

    def result(self, ctx: StepContext) -> StepResult:
        """What happened, what changed, how to undo it and what to verify next."""
        public = public_of(ctx.context)
        inputs = ctx.context.get("inputs", {})
        plan = public.get("plan", {})
        chosen = next(
            (o for o in plan.get("options", []) if o.get("option_id") == inputs.get("option")),
            None,
        )
        applied = public.get("applied")
        out: dict[str, Any] = {"chosen": None, "files_modified": 0}
        if chosen is not None:
            out.update(
                chosen=chosen.get("option_id"),
                level=chosen.get("level"),
                label=chosen.get("label"),
                review=chosen.get("affected_paths", []),
            )
        status = None
        shown = public.get("restore")
        restoring: dict[str, Any] = shown if isinstance(shown, dict) else {}
        if restoring.get("label") and chosen is None:  # the restore and undo flows
            out.update(label=restoring["label"], undoes=restoring.get("undoes"))
        if restoring.get("nothing"):
            out["nothing"] = restoring["nothing"]
        if isinstance(applied, dict):
            # The apply names the sandwich from before its first written file: after a
            # crash and a second confirmation that is the first one, not the latest.
            sandwich = applied.get("sandwich_checkpoint_id") or public.get("sandwich_checkpoint_id")
            out.update(
                files_modified=applied.get("changed_files", 0),
                review=[],
                skipped=applied.get("skipped", []),
                sandwich_checkpoint_id=sandwich,
            )
            if applied.get("aborted"):
                out["aborted"] = applied["aborted"]
                status = FinalStatus.ABORTED
            elif sandwich:
                out["undo"] = (
                    f"`vibflow undo {ctx.run_id}` undoes this restore (it puts back the "
                    f"files as safety checkpoint {sandwich} holds them); "
                    f"`vibflow checkpoint diff {sandwich}` shows what changed"
                )
                out["undo_command"] = f"vibflow undo {ctx.run_id}"
                out["verify_next"] = self._verify_next(applied.get("paths", []))
        elif public.get("sandwich_checkpoint_id") and (chosen is not None or restoring):
            out["cancelled"] = "not confirmed; no files were changed"
        return StepResult(
            "done",
            outcome=f"{out['files_modified']} file(s) modified",
            status=status,
            context={"public": {"result": out}},
        )

    def _verify_next(self, paths: list[str]) -> list[str]:
        """Commands from memory's verification entries that cover the restored files."""
        if self._memory is None or not paths:
            return []
        touched = set(paths)
        commands = [
            v.command
            for v in self._memory.read().state.verification
            if touched & set(v.related_files)
        ]
        return list(dict.fromkeys(commands))[:3] or ["rerun your tests for the restored files"]

    def option_available(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        """The chosen option exists in this run's plan and can run; paths, if
        given, are among the option's affected paths."""
        del param
        plan = public_of(ctx.context).get("plan", {})
        wanted = ctx.inputs.get("option")
        if not wanted:
            return GuardResult.refuse("choosing needs an option id: add --input option=OPTION_ID")
        option = full_option(self._advisor, ctx.context, wanted) if plan.get("options") else None
        if option is None:
            return GuardResult.refuse("that option is not one of this plan's options")
        reason = option.get("blocked_reason")
        if reason and not (reason == APPLY_DISABLED and flag_enabled(ctx.env, "RECOVERY_APPLY")):
            return GuardResult.refuse(str(reason))
        paths = ctx.inputs.get("paths") or []
        if paths and not set(paths) <= set(option.get("affected_paths", [])):
            return GuardResult.refuse("some chosen paths are not part of that option")
        return GuardResult.ok()
