"""The recover flow's steps and its option guard, registered by name.

explain → recommend → preview → choose (wait) → result. The steps are
methods of :class:`RecoverSteps`, built with the advisor, memory and the run
plans they use (see ``steps/recovery/services.py``). The whole redacted plan
is kept beside the run (:mod:`~vibflow.steps.recovery.plans`); the run's
context keeps its small form (ids, labels, counts, a few paths), so a drift of
any size stays within the engine's context bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vibflow.engine.flags import flag_enabled
from vibflow.engine.kinds import FinalStatus, GuardParam
from vibflow.engine.registry import (
    GuardContext,
    GuardResult,
    StepContext,
    StepResult,
)
from vibflow.steps.recovery.advisor import APPLY_DISABLED
from vibflow.steps.recovery.plans import RunPlans, chosen_paths, context_form, sample
from vibflow.steps.recovery.recap_facts import recap_facts
from vibflow.steps.recovery.renames import complete

if TYPE_CHECKING:
    from vibflow.steps.memory.service import MemoryService
    from vibflow.steps.recovery.advisor import Advice, RecoveryAdvisor


def public_of(context: Mapping[str, Any]) -> dict[str, Any]:
    """The run's ``public`` part (what the flow shows), or an empty one."""
    public = context.get("public", {})
    return public if isinstance(public, dict) else {}


def full_plan(
    plans: RunPlans, advisor: RecoveryAdvisor, run_id: str, context: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The whole plan the run showed: the one stored beside the run, or — in a dry
    run, which stores nothing — the advice this process made for it."""
    shown = public_of(context).get("plan", {}).get("plan_id")
    stored = plans.load(run_id)
    if stored is not None and stored.get("plan_id") == shown:
        return stored
    cached = advisor.cached(shown)
    return dict(cached.payload) if cached is not None else None


def full_option(
    plans: RunPlans,
    advisor: RecoveryAdvisor,
    run_id: str,
    context: Mapping[str, Any],
    option_id: str | None,
) -> dict[str, Any] | None:
    """The chosen option with *all* its paths (the run's context only counts them)."""
    return option_of(full_plan(plans, advisor, run_id, context) or {}, option_id)


def option_of(plan: Mapping[str, Any], option_id: str | None) -> dict[str, Any] | None:
    """The option ``option_id`` of a whole ``plan``, if it has one."""
    return next((o for o in plan.get("options") or [] if o.get("option_id") == option_id), None)


def subset_label(label: str, picked: int, partners: int, total: int) -> str:
    """The option's label for a restore of only some of its files: the option's own
    label counts all of them ("put back the 7 out-of-scope file(s)"), which is not
    what happened when 4 were chosen. ``partners``: names added to the ``picked``
    ones as the other name of a rename. The part before " — " (the kind of
    restore) stays, as the recap's headline reads it."""
    if picked + partners >= total:
        return label
    head = label.split(" — ", maxsplit=1)[0] or "Restore"
    source = "as committed" if "last commit" in head else "from the safe checkpoint"
    renamed = (
        f" and the other name of {partners} renamed file(s) (a rename is one change)"
        if partners
        else ""
    )
    return (
        f"{head} — restore the {picked} file(s) you chose{renamed} {source}, of the "
        f"{total} this option covers; the others are left as they are."
    )


class RecoverSteps:
    """The read-only part of the recover flow, and its option guard."""

    def __init__(
        self, advisor: RecoveryAdvisor, memory: MemoryService | None, plans: RunPlans
    ) -> None:
        self._advisor = advisor
        self._memory = memory
        self._plans = plans

    def _show(self, ctx: StepContext, advice: Advice) -> dict[str, Any]:
        """Keep the whole plan beside the run (not in a dry run, which writes
        nothing) and return the small form the run's context carries."""
        if not ctx.dry_run:
            self._plans.save(ctx.run_id, advice.payload)
        return context_form(advice.payload)

    def explain(self, ctx: StepContext) -> StepResult:
        advice = self._advisor.advise()
        plan = advice.plan
        return StepResult(
            "done",
            outcome=f"{len(plan.changed)} changed, {len(plan.drift_candidates)} drift",
            context={"public": {"plan": self._show(ctx, advice)}},
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
        cached = self._advisor.cached(shown)
        advice = cached or self._advisor.advise()
        if not ctx.dry_run:  # a dry run writes nothing, not even the last preview
            self._advisor.record_preview(advice)
        compact = self._show(ctx, advice) if cached is None else public_of(ctx.context)["plan"]
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
        chosen = full_option(
            self._plans, self._advisor, ctx.run_id, ctx.context, inputs.get("option")
        )
        applied = public.get("applied")
        out: dict[str, Any] = {"chosen": None, "files_modified": 0}
        review: list[str] = []
        if chosen is not None:
            subset = chosen_paths(self._plans, ctx.run_id, inputs)
            picked = subset if isinstance(subset, list) else None
            every = list(chosen.get("affected_paths", []))
            label = chosen.get("label")
            if picked is None:
                review = every
            else:
                plan = full_plan(self._plans, self._advisor, ctx.run_id, ctx.context) or {}
                review, added = complete(picked, plan, chosen)
                label = subset_label(
                    str(label or ""), len(review) - len(added), len(added), len(every)
                )
            out.update(
                chosen=chosen.get("option_id"),
                level=chosen.get("level"),
                label=label,
                review=sample(review),
                review_total=len(review),
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
                review_total=0,
                skipped=applied.get("skipped", []),
                sandwich_checkpoint_id=sandwich,
            )
            for key in ("unstaged", "unstaged_total", "index_not_reset", "index_not_reset_total"):
                if key in applied:
                    out[key] = applied[key]
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
                if not review:  # the restore and undo flows: the paths the apply names
                    review = list(applied.get("paths") or [])
                out["verify_next"] = self._verify_next(review)
        elif public.get("sandwich_checkpoint_id") and (chosen is not None or restoring):
            out["cancelled"] = "not confirmed; no files were changed"
        source = restoring.get("from_checkpoint") or restoring.get("from_commit")
        total = applied.get("paths_total") if isinstance(applied, dict) else None
        facts = recap_facts(out, source=source, restored=review, total=total)
        return StepResult(
            "done",
            outcome=f"{out['files_modified']} file(s) modified",
            status=status,
            context={"public": {"result": out, "recap": facts}},
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
        wanted = ctx.inputs.get("option")
        if not wanted:
            return GuardResult.refuse("choosing needs an option id: add --input option=OPTION_ID")
        plan = full_plan(self._plans, self._advisor, ctx.run_id, ctx.context)
        if plan is None:
            return GuardResult.refuse(
                "this run's plan is missing or unreadable; start a new `vibflow run recover`"
            )
        option = next((o for o in plan.get("options", []) if o.get("option_id") == wanted), None)
        if option is None:
            return GuardResult.refuse("that option is not one of this plan's options")
        reason = option.get("blocked_reason")
        if reason and not (reason == APPLY_DISABLED and flag_enabled(ctx.env, "RECOVERY_APPLY")):
            return GuardResult.refuse(str(reason))
        subset = chosen_paths(self._plans, ctx.run_id, ctx.inputs)
        if isinstance(subset, ValueError):
            return GuardResult.refuse(str(subset))
        paths = subset or []
        if paths and not set(paths) <= set(option.get("affected_paths", [])):
            return GuardResult.refuse("some chosen paths are not part of that option")
        return GuardResult.ok()
