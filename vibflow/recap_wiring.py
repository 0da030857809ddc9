"""Project and session recaps for one project: gather the facts (memory, the
journal, git, checkpoints, the triggers, agent turns), build the recap
(``steps.recaps``), pass it through the redaction contract (counts audited),
store it in the journal. Part of the composition root, like ``wiring``.

Run recaps are written by the engine at every pause from the journal's own
(already sanitized) records and are redacted here when they are shown.
Project and session recaps carry memory text, so they are redacted before
they are stored as well as before they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from vibflow.engine.recap import OpenRun, Recap
    from vibflow.engine.records import RunRecord
    from vibflow.steps.checkpoints.lean_retention import Dated
    from vibflow.steps.recaps.project import ProjectFacts, TurnFact
    from vibflow.wiring import Project

#: ``run -> commands``: the commands that move an open run on (the CLI's views
#: make them concrete, e.g. a recover run's option ids).
NextCommands = Callable[["RunRecord"], list[str]]
OPEN = ("interrupted", "blocked", "waiting")
ENDED = ("done", "failed", "aborted")
IDLE_MARK = "last_project_recap"


def generic_commands(run: RunRecord) -> list[str]:
    """The engine's own continue commands for ``run`` (no flow view needed)."""
    from vibflow.engine.definition import FlowDefinition
    from vibflow.engine.recap import continue_commands

    return continue_commands(run, FlowDefinition.model_validate_json(run.definition))


class TurnSource(Protocol):
    """Agent turns since a time (the agent hooks' records): the seam they plug in."""

    def turns_since(self, since: str | None, limit: int) -> Sequence[TurnFact]: ...


def _open_runs(project: Project, commands: NextCommands) -> list[OpenRun]:
    from vibflow.engine.recap import OpenRun

    order = {"interrupted": 0, "blocked": 1, "waiting": 2}
    runs = sorted(
        project.journal.runs(OPEN, limit=50), key=lambda r: (order[r.status], r.updated_at)
    )
    out = []
    for r in runs:
        cmds = commands(r)
        out.append(
            OpenRun(
                run_id=r.run_id,
                flow=r.flow,
                status=str(r.status),
                state=r.state,
                recap_id=r.recap_id,
                resume_command=cmds[0] if cmds else f"vibflow resume {r.run_id}",
            )
        )
    return out


def _commits(project: Project, since: str | None) -> list[tuple[str, str]]:
    from vibflow.engine.errors import VibflowError
    from vibflow.steps.workspace.git import run_git

    args = ["log", "-n", "20", "--format=%h%x00%s"]
    args += [f"--since={since}"] if since else ["-n", "5"]
    try:
        out = run_git(project.root, *args, timeout=10).decode("utf-8", "replace")
    except VibflowError:
        return []  # no commits yet, or no git: the recap says nothing of commits
    # Records end at a line feed only: a subject may hold a carriage return.
    pairs = [line.split("\0", 1) for line in out.split("\n") if "\0" in line]
    return [(sha, subject) for sha, subject in pairs]


def _checkpoints(project: Project) -> list[Dated]:
    """Every checkpoint's id, time and reason, oldest first: the refs read with
    ``json`` alone (the lean listing the agent hook prunes by), not through the
    checkpoint store and its models — a recap needs nothing else of them."""
    from vibflow.engine.errors import VibflowError
    from vibflow.steps.checkpoints.lean_retention import listing
    from vibflow.steps.workspace.git import Git

    try:
        found = listing(Git(project.root))
    except VibflowError:
        return []  # no git: the recap says nothing of checkpoints
    return sorted(found, key=lambda c: c.created_at)


def project_facts(
    project: Project, commands: NextCommands, *, turns: TurnSource | None = None
) -> ProjectFacts:
    from vibflow.agent_wiring import TurnFeed
    from vibflow.engine.clock import system_clock, utcnow
    from vibflow.steps.recaps.project import FinishedRun, IntentFact, ProjectFacts

    journal = project.journal
    last = journal.latest_recap("project", subject="project")  # by index, not a scan
    since = str(last["generated_at"]) if last else None
    memory = project.memory_facts  # the triggers' own reading: shared when steady
    state = memory.state()
    fresh = memory.freshness(state, system_clock())
    intent = state.active_intent
    finished = []
    for r in journal.runs(ENDED, limit=20):
        if since is not None and r.updated_at <= since:
            continue
        body = journal.get_recap(r.recap_id) if r.recap_id else None
        outcome = str(body.get("headline")) if body else None
        crashes = sum(1 for e in journal.entries(r.run_id) if e.event == "interrupted")
        finished.append(FinishedRun(r.run_id, r.flow, str(r.status), outcome, crashes))
    stale_ids = {v.id for v in fresh.verification if v.stale}
    checkpoints = [
        (c.checkpoint_id, c.reason)
        for c in _checkpoints(project)[-10:]
        if since is None or c.created_at > since
    ]
    try:
        firing = [t.id for t in project.triggers.check() if t.shown_now]
    except Exception:  # noqa: BLE001 -- a nudge never stops a recap
        firing = []
    return ProjectFacts(
        generated_at=utcnow(),
        since=since,
        intent=IntentFact(
            intent.text, fresh.intent_stale, tuple(fresh.intent_reasons), intent.proposed
        )
        if intent
        else None,
        next_action=state.next_action.text if state.next_action else None,
        open_runs=_open_runs(project, commands),
        finished=finished,
        commits=_commits(project, since),
        checkpoints=checkpoints,
        turns=tuple((turns or TurnFeed(project)).turns_since(since, 50)),
        stale_checks=[v.command for v in state.verification if v.id in stale_ids],
        nudges=(
            [f"Triggers firing now: {', '.join(firing)} (`vibflow triggers check` says why)."]
            if firing
            else []
        ),
    )


def redacted(project: Project, body: dict[str, Any], *, audit_as: str) -> dict[str, Any]:
    """``body`` through the redaction contract, its counts in one audit row."""
    from vibflow.engine.audit import RedactionCounts

    value, counts = project.redact_payload(body)
    project.audit.append(
        audit_as,
        result="ok",
        redaction=RedactionCounts(**counts) if any(counts.values()) else None,
    )
    return dict(value) if isinstance(value, dict) else body


def store(project: Project, recap: Recap, *, audit_as: str) -> dict[str, Any]:
    """Redact ``recap``, store it and mark the time; the stored body."""
    body = redacted(project, recap.model_dump(mode="json"), audit_as=audit_as)
    project.journal.save_recap(
        body["id"], body["kind"], body["subject_id"], body["generated_at"], body
    )
    if body["kind"] == "project":
        _mark(project).write_text(body["generated_at"] + "\n", "utf-8")
    return body


def _mark(project: Project) -> Path:
    folder = project.state_dir / "recovery"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / IDLE_MARK


def write_project_recap(
    project: Project, commands: NextCommands, *, reason: str, turns: TurnSource | None = None
) -> dict[str, Any]:
    from vibflow.steps.recaps.project import project_recap

    facts = project_facts(project, commands, turns=turns)
    return store(project, project_recap(facts, reason=reason), audit_as="recap_written")


def idle_gap_due(project: Project, idle_minutes: int, now: float) -> bool:
    """Whether the last activity (the audit log's last write) is older than
    ``idle_minutes`` and newer than the last project recap: then the gap's
    activity has no recap yet. Two stats, no database: every command asks."""
    audit = project.state_dir / "audit.jsonl"
    try:
        active = audit.stat().st_mtime
    except OSError:
        return False
    try:
        recapped = (project.state_dir / "recovery" / IDLE_MARK).stat().st_mtime
    except OSError:
        recapped = 0.0
    return now - active >= idle_minutes * 60 and active > recapped


def show(project: Project, body: dict[str, Any]) -> dict[str, Any]:
    """A stored recap as it may be shown: redacted (a run recap is stored as the
    engine wrote it), counts audited when anything was found."""
    from vibflow.engine.audit import RedactionCounts

    value, counts = project.redact_payload(body)
    if any(counts.values()):
        project.audit.append("recap_shown", result="ok", redaction=RedactionCounts(**counts))
    return dict(value) if isinstance(value, dict) else body


def edit(
    project: Project,
    body: dict[str, Any],
    *,
    headline: str | None,
    bullets: list[str] | None,
) -> dict[str, Any]:
    """``body`` with a person's headline and/or bullets, checked by the model,
    redacted and stored under the same id as ``generator: user_edited``."""
    from pydantic import ValidationError

    from vibflow.engine.clock import utcnow
    from vibflow.engine.errors import ErrorCode, VibflowError
    from vibflow.engine.recap import Recap

    changed = dict(body)
    if headline is not None:
        changed["headline"] = headline.strip()
    if bullets is not None:
        changed["bullets"] = [b.strip() for b in bullets if b.strip()]
    changed.update(generator="user_edited", edited_at=utcnow())
    try:
        recap = Recap.model_validate(changed)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"the edited recap is not valid: {where}: {first['msg']}",
            hint="A headline is one line of at most 80 characters; 3 to 7 bullets.",
        ) from None
    return store(project, recap, audit_as="recap_edited")


def write_session_recap(project: Project, facts: Any) -> dict[str, Any]:
    """The recap of an agent session that just ended (``facts``: a
    ``steps.recaps.session.SessionFacts``), redacted and stored; the agent
    hooks call this from their session-end handler."""
    from vibflow.engine.clock import utcnow
    from vibflow.steps.recaps.session import session_recap

    return store(project, session_recap(facts, generated_at=utcnow()), audit_as="recap_written")
