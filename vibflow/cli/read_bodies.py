"""The bodies of ``runs list``, ``triggers check``, ``handoff`` and ``recap``,
without typer.

Like ``recover_run`` for ``recover``: each body is run by its typer command
and by the fast path (``fastpath``), and prints only through the
:class:`~vibflow.cli.invocation.Invocation` it is given, so both front doors
print the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from vibflow.cli.invocation import Invocation
from vibflow.cli.visible_text import one_line

if TYPE_CHECKING:
    from vibflow.engine.journal import RunRecord
    from vibflow.steps.triggers.service import Recommendation, TriggerResult

#: What ``runs list --json`` says of each run.
_CORE = ("run_id", "flow", "flow_version", "status", "state", "blocked_reason", "recap_id")


# --- recap -----------------------------------------------------------------------------


def run_commands_of(run: RunRecord) -> list[str]:
    """The commands that continue ``run`` (a recap lists one for each open run)."""
    from vibflow.cli.run_commands import next_commands, stored_definition

    return next_commands(run, stored_definition(run))


def recap_project(inv: Invocation, *, as_json: bool) -> None:
    """Write and show the project recap, then the nudges (text only)."""
    from vibflow import recap_wiring
    from vibflow.cli.nudges import print_nudges
    from vibflow.cli.run_commands import recap_lines

    project = inv.open_project()
    # The recap changes neither the tree nor memory: its text and the nudges after
    # it share one reading of them (one `git diff`, one memory validation).
    project.steady = True
    project.start_trigger_check()  # git works for the triggers while the rest loads
    project.refresh_runs()
    body = recap_wiring.write_project_recap(project, run_commands_of, reason="requested")
    if as_json:
        inv.emit_json(body)
        return
    for line in recap_lines(body):
        inv.echo(line)
    print_nudges(project, "recap", inv.echo)


# --- runs list -------------------------------------------------------------------------


def runs_list(inv: Invocation, *, status: str | None, limit: int, as_json: bool) -> None:
    """List recent runs, newest first."""
    project = inv.open_project()
    project.refresh_runs()
    runs_table(inv, project.journal.runs([status] if status else None, limit=limit), as_json)


def runs_table(inv: Invocation, runs: list[RunRecord], as_json: bool) -> None:
    if as_json:
        inv.emit_json(
            {
                "runs": [
                    {k: getattr(r, k) for k in _CORE} | {"updated_at": r.updated_at} for r in runs
                ]
            }
        )
        return
    if not runs:
        inv.echo("no runs yet — start one with `vibflow run FLOW`")
        return
    for r in runs:
        inv.echo(f"{r.run_id}  {r.flow:<16} {r.status:<11} {r.state:<16} {r.updated_at}")


# --- triggers check --------------------------------------------------------------------


def triggers_check(inv: Invocation, *, as_json: bool) -> None:
    """Evaluate every trigger now and say why each fires or not (records nothing)."""
    from dataclasses import replace

    from vibflow.cli.nudges import redactor

    project = inv.open_project()
    project.start_trigger_check()  # git works while the rest loads
    service = project.triggers
    clean = redactor(project)
    results = [
        replace(
            r,
            rule=r.rule.model_copy(
                update={
                    "message": clean(r.id, "message", r.rule.message),
                    "command": clean(r.id, "command", r.rule.command),
                }
            ),
        )
        for r in service.check()
    ]
    recs = service.recommendations()
    limits = service.policy.ignored_rate
    if as_json:
        inv.emit_json(
            {
                "triggers": [r.to_json() for r in results],
                "firing": [r.id for r in results if r.fires and r.rule.enabled],
                "recommendations": [rec.to_json() for rec in recs],
                "ignored_rate": limits.model_dump(),
            }
        )
        return
    firing = sum(1 for r in results if r.fires and r.rule.enabled)
    inv.echo(f"Triggers: {firing} of {len(results)} fire now (nothing was recorded).")
    order = {"FIRES": 0, "snoozed": 1, "dismissed": 1, "accepted": 1, "quiet": 2, "n/a": 3}
    for result in sorted(results, key=lambda r: order.get(verdict(r), 4)):
        inv.echo("\n".join(render_trigger(result, detail=False)))
    for line in _tuning(recs, limits.max_share, limits.window_days):
        inv.echo(line)


def verdict(result: TriggerResult) -> str:
    if not result.rule.enabled:
        return "off"
    if result.fires is None:
        return "n/a"
    if not result.fires:
        return "quiet"
    return "FIRES" if result.status not in {"dismissed", "snoozed", "accepted"} else result.status


def render_trigger(result: TriggerResult, *, detail: bool) -> list[str]:
    lines = [f"  {verdict(result):<9} {result.id}: {result.rule.message}"]
    lines += [f"            {why}" for why in result.why()]
    if detail or result.fires:
        lines.append(f"            Next: {result.rule.command}  ({result.rule.action})")
    return lines


def _tuning(recs: list[Recommendation], max_share: float, days: int) -> list[str]:
    lines: list[str] = []
    for rec in recs:
        share = rec.ignored / rec.shown
        lines.append(
            f"Tuning: {rec.trigger} was ignored {rec.ignored} of the {rec.shown} times it was "
            f"shown in the last {days} days ({share:.0%}, above {max_share:.0%}). "
            "It stays on; to quiet it, run one of:"
        )
        lines += [f"  {command}" for command in rec.commands]
    return lines


# --- handoff ---------------------------------------------------------------------------


def handoff(
    inv: Invocation,
    *,
    audience: Literal["agent", "human"],
    budget: int | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """Write a handoff from memory and the journal (``audience``: human or agent)."""
    from vibflow.engine.atomicfile import atomic_write
    from vibflow.engine.errors import ErrorCode, VibflowError

    project = inv.open_project()
    made = project.handoff.assemble(audience, budget)
    if out is not None:
        _refuse_replacing_a_file_of_yours(out)
        try:
            atomic_write(out, made.text + "\n", durable=False)
        except OSError as exc:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"the handoff could not be written to {out.name} ({exc.strerror or exc})",
            ) from exc
    if as_json:
        data = made.to_json()
        if out is not None:
            data["written_to"] = out.name
        inv.emit_json(data)
    elif out is not None:
        inv.echo(f"Handoff written to {one_line(out.name)} ({len(made.text):,} characters).")
    else:
        inv.echo(made.text)


def _refuse_replacing_a_file_of_yours(out: Path) -> None:
    """``--out`` replaces an earlier handoff only (known by its heading), never a file
    of the project's or yours — as MCP's handoff_export does."""
    from vibflow.engine.errors import ErrorCode, VibflowError
    from vibflow.steps.handoff.heading import holds_a_handoff

    if out.exists() and not holds_a_handoff(out):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{out.name} exists and is not a handoff vibflow wrote: --out replaces only an "
            "earlier handoff, never another file",
            hint="Choose a new file name (or move that file aside first).",
        )
