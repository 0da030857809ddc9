"""The step abort hook: `Runner.abort` of a run that stopped inside a step calls that
step's ``abort`` (the domain's cleanup seam, e.g. a killed restore's temp files) once,
with the run's context, and journals its count-only note. The engine knows nothing of
what the hook cleans."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibflow.engine.kinds import RunStatus
from vibflow.engine.loader import load_flow
from vibflow.engine.registry import Registry, StepContext, StepResult, StepSpec
from vibflow.engine.runner import Runner
from vibflow.engine.testing import MemoryAudit, MemoryJournal

FLOW = """\
flow: hooked
version: 1
description: a step that is interrupted, then aborted
initial: work
states:
  work: {step: t.work, on: {done: end}}
  end: {final: true}
"""


class Interrupt(BaseException):
    """Escapes the drive loop like a Ctrl-C: the run is left interrupted in 'work'."""


def _registry(calls: list[str]) -> Registry:
    def work(ctx: StepContext) -> StepResult:
        del ctx
        raise Interrupt

    def abort(ctx: StepContext) -> str | None:
        calls.append(f"{ctx.run_id}@{ctx.state}")
        return "removed 3 temp file(s)"

    registry = Registry()
    registry.add_step(StepSpec("t.work", work, abort=abort))
    return registry


def test_abort_inside_a_step_calls_its_hook_once_and_journals_the_note(
    tmp_path: Path,
) -> None:
    """Interrupted inside 'work', the run's abort calls t.work's hook once and the journal's
    last entry carries its note."""
    calls: list[str] = []
    registry = _registry(calls)
    journal = MemoryJournal()
    runner = Runner(
        registry=registry, journal=journal, audit=MemoryAudit(), project_root=tmp_path, env={}
    )
    with pytest.raises(Interrupt):
        runner.start(load_flow(FLOW, "hooked.yaml", registry))
    [run] = journal.runs(limit=10)
    assert run.status is RunStatus.INTERRUPTED
    assert calls == []
    aborted = runner.abort(run.run_id)
    assert aborted.status is RunStatus.ABORTED
    assert calls == [f"{run.run_id}@work"]
    assert "removed 3 temp file(s)" in journal.entries(run.run_id)[-1].outcome
