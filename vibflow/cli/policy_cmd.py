"""``vibflow policy ...``: see, check and tune the project's policy.

The shipped defaults live in ``vibflow/policies/*.yaml``; the project's own
``.vibflow/policy.yaml`` overrides any value. ``show`` says where each
effective value came from, ``diff`` lists the overrides, ``validate`` reports
every problem at once, ``init`` writes a commented starter and ``set`` edits
one value keeping the file's comments, order and layout.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json
from vibflow.cli.plain import dumps
from vibflow.engine.errors import ErrorCode, VibflowError

app = typer.Typer(help="See, check and tune the project's policy.", no_args_is_help=True)

STARTER = """\
# vibflow project policy: overrides the shipped defaults value by value.
# `vibflow policy show` prints every value in effect and where it came from,
# `vibflow policy diff` what this file changes, `vibflow policy validate` checks it,
# `vibflow policy set KEY VALUE` edits one value and keeps these comments.
#
# memory:
#   stale_intent_hours: 24      # the intent is stale after this many hours...
#   stale_intent_commits: 5     # ...or this many commits
#
# Tune one nudge (`vibflow triggers list` names them), for example
#   vibflow policy set triggers.rules.intent_outgrown.thresholds.diff_lines 200
#   vibflow policy set triggers.rules.relevant_files_missing.enabled false
# A `when:` you write under a trigger replaces its whole condition.

triggers:
  # A session ends after this many idle minutes: a snoozed or dismissed nudge
  # stays quiet until then.
  session_idle_minutes: 60
  # A snooze ends after this many minutes (or with the session, if sooner).
  snooze_minutes: 240
"""


def _show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return dumps(value)
    return "null" if value is None else str(value)


def _user_file(ctx: typer.Context) -> Path:
    return project_for(ctx).root / ".vibflow" / "policy.yaml"


@app.command("show")
def policy_show(
    ctx: typer.Context,
    section: str | None = typer.Argument(
        None, metavar="[SECTION]", help="One section (triggers, memory, recovery, ...)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """The policy in effect, each value with where it came from."""
    from vibflow.engine.policy_view import effective

    settings = effective(project_for(ctx).policy, section)
    if as_json:
        emit_json({"section": section, "settings": [s.to_json() for s in settings]})
        return
    for s in settings:
        typer.echo(f"{s.key} = {_show_value(s.value)}    ({s.origin})")


@app.command("diff")
def policy_diff(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """What the project's policy file changes against the shipped defaults."""
    from vibflow.engine.policy_view import overrides
    from vibflow.registry_wiring import policy_sections

    found = overrides(project_for(ctx).policy, policy_sections())
    if as_json:
        emit_json({"overrides": [o.to_json() for o in found]})
        return
    if not found:
        typer.echo("No overrides: the shipped defaults are in effect.")
        return
    for o in found:
        what = (
            "same as the default"
            if o.same
            else f"default {_show_value(o.default)} -> {_show_value(o.value)}"
        )
        typer.echo(f"{o.key}: {what}    ({o.origin})")


@app.command("validate")
def policy_validate(
    ctx: typer.Context,
    file: Path | None = typer.Argument(
        None, metavar="[FILE]", help="A policy file to check (default: .vibflow/policy.yaml)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Check a policy file against every section; report all problems at once."""
    from vibflow.engine.policy import USER_POLICY_DISPLAY
    from vibflow.engine.sourcefile import read_source

    project = project_for(ctx)
    target = file if file is not None else project.root / ".vibflow" / "policy.yaml"
    display = _display(file) if file is not None else USER_POLICY_DISPLAY
    if not (target.exists() or target.is_symlink()):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{display} does not exist",
            hint="`vibflow policy init` writes a starter file." if file is None else None,
        )
    text = read_source(target, display, code=ErrorCode.POLICY_INVALID)
    sections = sorted(project.policy_from(text, display).user_raw())
    if as_json:
        emit_json({"file": display, "valid": True, "sections": sections})
        return
    typer.echo(f"{display}: valid ({len(sections)} section(s) overridden)")


def _display(file: Path) -> str:
    """The file as the user named it, never as an absolute path."""
    if not file.is_absolute():
        return file.as_posix()
    try:
        return Path(os.path.relpath(file)).as_posix()
    except ValueError:  # another drive
        return file.name


@app.command("init")
def policy_init(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Write a commented starter .vibflow/policy.yaml (never over an existing one)."""
    from vibflow.engine.atomicfile import atomic_write

    target = _user_file(ctx)
    if target.exists() or target.is_symlink():
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            ".vibflow/policy.yaml already exists; it was left as it is",
            hint="Edit it, or change one value with `vibflow policy set KEY VALUE`.",
        )
    project_for(ctx).policy_from(STARTER)  # the starter is itself a valid policy
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, STARTER)
    if as_json:
        emit_json({"file": ".vibflow/policy.yaml", "written": True})
        return
    typer.echo("wrote .vibflow/policy.yaml (commented; `vibflow policy show` lists every value)")


@app.command("set")
def policy_set(
    ctx: typer.Context,
    key: str = typer.Argument(
        ..., metavar="KEY", help="A dotted key, e.g. triggers.rules.stale_intent.enabled."
    ),
    value: str = typer.Argument(
        ..., metavar="VALUE", help="The value (a number, true/false, text)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Set one value in .vibflow/policy.yaml, keeping its comments and layout."""
    from vibflow.engine.policy_view import set_user_value

    project = project_for(ctx)
    top = key.split(".", 1)[0]
    if top not in project.policy.raw():
        from vibflow.engine.registry import nearest

        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"unknown policy section '{top}'{nearest(top, project.policy.raw())}",
        )
    old, new = set_user_value(_user_file(ctx), key, value, project.policy_from)
    changed = old != new
    if as_json:
        emit_json({"file": ".vibflow/policy.yaml", "key": key, "changed": changed})
        return
    typer.echo(f"set {key} in .vibflow/policy.yaml" if changed else f"{key} already had that value")
