"""The recover flow's steps and its option guard, registered by name.

explain → recommend → preview → choose (wait) → result. Steps reach the
advisor through ``ctx.services["recovery"]`` (the front door provides it).
The run context keeps a compact, redacted plan (long lists trimmed, counts
kept) so it stays within the engine's context bound; the full redacted plan
is ``.vibflow/recovery/last_preview.json``.
"""

from __future__ import annotations

from typing import Any

from vibflow.engine.definition import GuardParam
from vibflow.engine.registry import (
    GuardContext,
    GuardResult,
    Registry,
    StepContext,
    StepResult,
)

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


def _advisor(ctx: StepContext) -> Any:
    factory = ctx.services["recovery"]
    return factory() if callable(factory) else factory


def explain(ctx: StepContext) -> StepResult:
    advice = _advisor(ctx).advise()
    plan = advice.plan
    return StepResult(
        "done",
        outcome=f"{len(plan.changed)} changed, {len(plan.drift_candidates)} drift",
        context={"public": {"plan": _compact(advice.payload)}},
    )


def recommend(ctx: StepContext) -> StepResult:
    plan = ctx.context.get("public", {}).get("plan", {})
    options = plan.get("options", [])
    best = next((o for o in options if o.get("recommended")), options[0] if options else None)
    return StepResult(
        "done",
        outcome=f"recommended level {best.get('level') if best else 0}",
        context={"public": {"recommended_option": best.get("option_id") if best else None}},
    )


def preview(ctx: StepContext) -> StepResult:
    """Record the plan the run is showing (recomputed only if this process did
    not make it, e.g. after a resume) and publish it with its recommendation."""
    advisor = _advisor(ctx)
    shown = ctx.context.get("public", {}).get("plan", {}).get("plan_id")
    advice = advisor.cached(shown) or advisor.advise()
    advisor.record_preview(advice)
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


def result(ctx: StepContext) -> StepResult:
    inputs = ctx.context.get("inputs", {})
    plan = ctx.context.get("public", {}).get("plan", {})
    chosen = next(
        (o for o in plan.get("options", []) if o.get("option_id") == inputs.get("option")), None
    )
    if chosen is None:
        return StepResult(
            "done",
            outcome="cancelled",
            context={"public": {"result": {"chosen": None, "files_modified": 0}}},
        )
    return StepResult(
        "done",
        outcome=f"level {chosen.get('level')} chosen",
        context={
            "public": {
                "result": {
                    "chosen": chosen.get("option_id"),
                    "level": chosen.get("level"),
                    "label": chosen.get("label"),
                    "files_modified": 0,
                    "review": chosen.get("affected_paths", []),
                }
            }
        },
    )


def option_available(ctx: GuardContext, param: GuardParam) -> GuardResult:
    """The chosen option exists in this run's plan and can run; paths, if
    given, are among the option's affected paths."""
    del param
    plan = ctx.context.get("public", {}).get("plan", {})
    wanted = ctx.inputs.get("option")
    if not wanted:
        return GuardResult.refuse("choosing needs an option id: add --input option=OPTION_ID")
    option = next((o for o in plan.get("options", []) if o.get("option_id") == wanted), None)
    if option is None:
        return GuardResult.refuse("that option is not one of this plan's options")
    if option.get("blocked_reason"):
        return GuardResult.refuse(str(option["blocked_reason"]))
    paths = ctx.inputs.get("paths") or []
    if paths and not set(paths) <= set(option.get("affected_paths", [])):
        return GuardResult.refuse("some chosen paths are not part of that option")
    return GuardResult.ok()


def register(registry: Registry) -> None:
    registry.step(
        "recovery.explain",
        idempotent=True,
        description="what changed, the intent zone and drift candidates",
    )(explain)
    registry.step(
        "recovery.recommend", idempotent=True, description="pick the safest useful option"
    )(recommend)
    registry.step(
        "recovery.preview",
        idempotent=True,
        description="what each option would change; recorded and audited",
    )(preview)
    registry.step(
        "recovery.result", idempotent=True, description="the outcome and what to do next"
    )(result)
    registry.guard("option_available", description="the chosen option exists and is not blocked")(
        option_available
    )
