"""Test steps and guards, registered through the front door's registry hook.

Side effects go to ``<root>/.vibflow/effects.log`` (one line per execution)
so crash tests can count how many times each step really ran.
"""

from __future__ import annotations

import time
from pathlib import Path

from vibflow.engine.definition import GuardParam, Mutation
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.registry import (
    GuardContext,
    GuardFamily,
    GuardResult,
    Registry,
    StepContext,
    StepResult,
)


def effects_path(root: Path) -> Path:
    return root / ".vibflow" / "effects.log"


def _effect(ctx: StepContext, what: str) -> None:
    path = effects_path(ctx.project_root)
    path.parent.mkdir(exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(f"{ctx.run_id} {ctx.state} {what} attempt={ctx.attempt}\n")


def read_effects(root: Path) -> list[str]:
    path = effects_path(root)
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def _noop(ctx: StepContext) -> str:
    del ctx
    return "done"


def _effect_step(ctx: StepContext) -> StepResult:
    _effect(ctx, "ran")
    count = int(ctx.context.get("counter", 0)) + 1
    return StepResult("done", outcome=f"counter={count}", context={"counter": count})


def _unsafe(ctx: StepContext) -> str:
    _effect(ctx, "unsafe")
    return "done"


def _reconciled(ctx: StepContext) -> str:
    _effect(ctx, "reconcilable")
    return "done"


def _reconcile(ctx: StepContext) -> StepResult | None:
    _effect(ctx, "reconciled")
    return StepResult("done", outcome="reconciled")


def _choice(ctx: StepContext) -> str:
    return str(ctx.context.get("inputs", {}).get("next", "done"))


def _fail(ctx: StepContext) -> str:
    del ctx
    raise VibflowError(ErrorCode.STEP_FAILED, "the test step failed on purpose")


def _boom(ctx: StepContext) -> str:
    del ctx
    raise RuntimeError("/home/someone/secret/path leaked?")


def _items(ctx: StepContext) -> StepResult:
    total = int(ctx.context.get("inputs", {}).get("items", "5"))
    keys = [f"item-{i:03d}" for i in range(total)]
    for key in ctx.progress.pending(keys):
        _effect(ctx, f"item {key}")
        ctx.progress.mark_done(key)
    return StepResult("done", outcome=f"{total} items", audit={"files_changed": total})


def _slow(ctx: StepContext) -> str:
    time.sleep(float(ctx.context.get("inputs", {}).get("sleep", "1")))
    _effect(ctx, "slow")
    return "done"


def _grow(ctx: StepContext) -> StepResult:
    """A result of ``inputs.grow`` bytes: over the context bound, an engine error."""
    size = int(ctx.context.get("inputs", {}).get("grow", "0"))
    _effect(ctx, "grow")
    return StepResult("done", context={"grown": "x" * size})


def _sandwich(ctx: StepContext) -> StepResult:
    _effect(ctx, "sandwich")
    return StepResult("done", context={"public": {"sandwich": "taken"}})


def _apply(ctx: StepContext) -> StepResult:
    _effect(ctx, "apply")
    return StepResult("done", audit={"result": "ok"})


def _flag_input(ctx: GuardContext, param: GuardParam) -> GuardResult:
    value = ctx.context.get("inputs", {}).get(str(param))
    return GuardResult(value == "yes", None if value == "yes" else f"input {param} is not yes")


def _confirm(ctx: GuardContext, param: GuardParam) -> GuardResult:
    del param
    if ctx.inputs.get("confirmation") == "APPLY now":
        return GuardResult.ok()
    return GuardResult.refuse("the confirmation text does not match; type exactly: APPLY now")


def _always(ctx: GuardContext, param: GuardParam) -> bool:
    del ctx, param
    return True


def _guard_boom(ctx: GuardContext, param: GuardParam) -> bool:
    del ctx, param
    raise RuntimeError("guard bug")


def register(registry: Registry) -> None:
    # The fixture flows switch their file changes on with VIBFLOW_TEST_APPLY.
    registry.allow_apply_flag("TEST_APPLY")
    registry.step("t.noop", idempotent=True)(_noop)
    registry.step("t.effect", idempotent=True)(_effect_step)
    registry.step("t.unsafe")(_unsafe)
    registry.step("t.reconciled", reconcile=_reconcile)(_reconciled)
    registry.step("t.choice", idempotent=True)(_choice)
    registry.step("t.fail", idempotent=True)(_fail)
    registry.step("t.boom", idempotent=True)(_boom)
    registry.step("t.items", idempotent=True)(_items)
    registry.step("t.slow", idempotent=True)(_slow)
    registry.step("t.grow", idempotent=True)(_grow)
    registry.step("t.sandwich", mutates=Mutation.CHECKPOINT_ONLY, idempotent=True)(_sandwich)
    registry.step("t.apply", mutates=Mutation.FILES, idempotent=True)(_apply)
    registry.step("t.remember", mutates=Mutation.MEMORY, idempotent=True)(_noop)
    registry.guard("t_input_yes", param="required")(_flag_input)
    registry.guard("t_confirm", family=GuardFamily.CONFIRMATION)(_confirm)
    registry.guard("t_grant", family=GuardFamily.GRANT)(_always)
    registry.guard("t_lock", family=GuardFamily.LOCK)(_always)
    registry.guard("t_sandwich", family=GuardFamily.SANDWICH)(_always)
    registry.guard("t_paths", family=GuardFamily.PATH_CONTRACT)(_always)
    registry.guard("t_broken")(_guard_boom)
