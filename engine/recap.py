"""Recaps: what a run did and exactly how to pick it up again (seed 004 §6).

A recap is written when a run waits, ends, fails, is blocked or is found
interrupted. The engine's heuristic generator knows only the flow: states,
events, statuses and the journal. The model's limits (one-line headline of
at most 80 characters, 3 to 7 bullets, at most 3 next actions) are checked when
it is built, so no recap the runner stores can break them.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)

from vibflow.engine.factories import empty_dict, empty_list
from vibflow.engine.kinds import FINISHED, RunStatus
from vibflow.engine.records import Entry, RunRecord

if TYPE_CHECKING:
    from vibflow.engine.definition import FlowDefinition

Headline = Annotated[str, StringConstraints(max_length=80, pattern=r"^[^\n\r]+$")]


class Artifact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["file", "checkpoint", "sandwich", "run", "turn", "commit"]
    ref: str = Field(
        description="project-relative path, checkpoint id, run id, turn (SESSION#N) or commit"
    )

    @field_validator("ref")
    @classmethod
    def _relative(cls, value: str) -> str:
        if value.startswith(("/", "\\")) or (len(value) > 1 and value[1] == ":"):
            raise ValueError("artifacts are project-relative, never absolute")
        return value


class ResumeHint(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    run_id: str
    state: str
    cursor: dict[str, int] = Field(default_factory=empty_dict)
    command: str


class OpenRun(BaseModel):
    """A run a project recap lists as waiting, blocked or interrupted."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    run_id: str
    flow: str
    status: str
    state: str
    recap_id: str | None = None
    resume_command: str


class Recap(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    id: Annotated[str, StringConstraints(pattern=r"^rcp_[0-9a-f]{32}$")]
    kind: Literal["run", "project", "session"]
    subject_id: str
    generated_at: str
    generator: Literal["heuristic", "user_edited"] = "heuristic"
    reason: str
    headline: Headline
    bullets: list[str] = Field(min_length=3, max_length=7)
    next_actions: list[str] = Field(default_factory=empty_list, max_length=3)
    artifacts: list[Artifact] = Field(default_factory=empty_list)
    resume_hint: ResumeHint | None = None
    #: A project recap: the runs left open, each with the command that moves it on.
    open_runs: list[OpenRun] = Field(default_factory=empty_list)
    #: A project or session recap: the start of the stretch of work it covers.
    since: str | None = None
    #: Set when the text was edited by a person (``vibflow recap edit``).
    edited_at: str | None = None


def recap_json_schema() -> dict[str, Any]:
    """The JSON Schema every recap (``vibflow recap ... --json``) validates against."""
    schema = Recap.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "vibflow recap"
    return schema


def new_recap_id() -> str:
    return f"rcp_{uuid.uuid4().hex}"


def clip(text: str, limit: int = 80) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1].rstrip() + "…"


def continue_commands(run: RunRecord, defn: FlowDefinition) -> list[str]:
    """Real commands a user can paste to move this run on."""
    rid = run.run_id
    state = defn.states.get(run.state)
    waiting = run.status in (RunStatus.WAITING, RunStatus.BLOCKED)
    if waiting and state is not None and state.kind == "wait":
        out = []
        for event in state.on:
            args = " ".join(
                f"--input {k}=VALUE" for k, t in state.inputs.items() if not t.endswith("?")
            )
            out.append(f"vibflow step {rid} {event}" + (f" {args}" if args else ""))
        return out
    if run.status in (RunStatus.INTERRUPTED, RunStatus.BLOCKED):
        return [f"vibflow resume {rid}"]
    return []


def _flow_facts(run: RunRecord) -> dict[str, Any]:
    """What the flow's own steps said about the run, as data the engine does not
    interpret: ``context.public.recap`` with ``headline`` (one line), ``bullets``
    and ``next_actions`` (strings) and ``artifacts`` (``{kind, ref}``). Anything
    malformed is left out rather than failing the recap."""
    public = run.context.get("public")
    facts = public.get("recap") if isinstance(public, dict) else None
    if not isinstance(facts, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(facts.get("headline"), str) and facts["headline"].strip():
        out["headline"] = facts["headline"]
    for key in ("bullets", "next_actions"):
        items = facts.get(key)
        if isinstance(items, list):
            out[key] = [clip(i, 300) for i in items if isinstance(i, str) and i.strip()]
    artifacts = []
    for item in facts.get("artifacts") or []:
        try:
            artifacts.append(Artifact.model_validate(item))
        except ValidationError:
            continue
    out["artifacts"] = artifacts
    return out


def _interruptions(entries: Sequence[Entry]) -> str | None:
    """One line on the run's crashes and resumes, if it had any."""
    stops = [e for e in entries if e.event == "interrupted"]
    if not stops:
        return None
    resumes = sum(1 for e in entries if e.event == "resumed")
    where = ", ".join(dict.fromkeys(f"'{e.from_state or e.to_state}'" for e in stops))
    return (
        f"Interrupted {len(stops)} time(s) (at {where}); resumed {resumes} time(s) "
        "from the journal, without repeating finished items."
    )


def run_recap(
    run: RunRecord,
    defn: FlowDefinition,
    entries: Sequence[Entry],
    *,
    reason: str,
    generated_at: str,
    items_done: int = 0,
) -> Recap:
    """The engine's heuristic recap of one run, stamped ``generated_at``."""
    moves = [e for e in entries if e.kind == "transition"]
    path: list[str] = [moves[0].from_state or "?"] if moves else [run.state]
    path += [e.to_state or "?" for e in moves]
    shown_path = " → ".join(path if len(path) <= 8 else [*path[:3], "…", *path[-4:]])
    status = run.status
    flow = run.flow
    where = run.state
    blocked = run.blocked_reason or "a check refused"
    headline = {
        RunStatus.WAITING: f"{flow} is waiting for input at '{where}'",
        RunStatus.BLOCKED: f"{flow} is blocked at '{where}': {blocked}",
        RunStatus.INTERRUPTED: f"{flow} was interrupted at '{where}' and can be resumed",
        RunStatus.DONE: f"{flow} finished at '{where}'",
        RunStatus.ABORTED: f"{flow} was aborted at '{where}'",
        RunStatus.FAILED: f"{flow} failed at '{where}'",
        RunStatus.RUNNING: f"{flow} is running at '{where}'",
    }.get(status, f"{flow} is {status} at '{where}'")
    facts = _flow_facts(run)
    if facts.get("headline"):
        headline = facts["headline"]
    bullets = [
        *facts.get("bullets", [])[:4],
        f"Flow '{flow}' version {run.flow_version} ({run.origin}), run {run.run_id}.",
        f"Path so far: {shown_path} ({len(moves)} transition{'s' if len(moves) != 1 else ''}).",
        f"Status: {status} at state '{where}' since {run.updated_at}.",
    ]
    if run.blocked_reason:
        bullets.append(f"Blocked because {run.blocked_reason}")
    if run.error:
        bullets.append(f"Error: {clip(run.error, 200)}")
    if items_done:
        bullets.append(f"{items_done} item(s) of step '{where}' were already completed.")
    refusals = sum(1 for e in entries if e.kind == "blocked")
    if refusals:
        bullets.append(f"Guards refused {refusals} time(s) during this run.")
    crashes = _interruptions(entries)
    if crashes:
        bullets.insert(len(facts.get("bullets", [])[:4]), crashes)
    actions = [*continue_commands(run, defn), *facts.get("next_actions", [])][:3]
    hint = None
    if status not in FINISHED:
        hint = ResumeHint(
            run_id=run.run_id,
            state=where,
            cursor={"seq": run.seq, "items_done": items_done},
            command=actions[0] if actions else f"vibflow resume {run.run_id}",
        )
    return Recap(
        id=new_recap_id(),
        kind="run",
        subject_id=run.run_id,
        generated_at=generated_at,
        reason=reason,
        headline=clip(headline),
        bullets=bullets[:7],
        next_actions=actions,
        artifacts=[Artifact(kind="run", ref=run.run_id), *facts.get("artifacts", [])],
        resume_hint=hint,
    )
