"""One handler per MCP tool: call one service of the project, shape its answer.

Wiring only. Each handler gets the request's :class:`Call` (a fresh
:class:`~vibflow.wiring.Project` for the server's own root and client name,
the validated input) and returns a :class:`Reply`: the data (redacted later,
at the boundary, with everything else that leaves) and count-only facts for
the request's audit row. A handler never catches errors: the boundary turns
each ``VibflowError`` into a typed tool error.

``recovery_apply``, the recover flow stepped by a caller's arguments, has its
own module (:mod:`vibflow.mcp.apply`): which arguments each of the run's
states takes is most of it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.mcp import schemas
from vibflow.mcp.apply import recovery_apply
from vibflow.mcp.calls import Call, Reply
from vibflow.mcp.hints import recap_for_mcp, step_for, user_step

if TYPE_CHECKING:
    from pathlib import Path

    from vibflow.steps.memory.service import MemoryView, WriteResult
    from vibflow.wiring import Project

SHOWN = 5  # entries of each memory list a summary quotes (the newest)
SHOWN_FILES = 20


#: The client names memory's ``mcp.<name>`` writer shape takes as they are.
_WRITER_NAME = re.compile(r"[a-z_]{1,40}")
_TAG_LETTERS = 10  # 26**10 names: two clients' tags never meet in practice
_READABLE = 40 - 1 - _TAG_LETTERS


def writer_of(client: str) -> str:
    """The memory writer an MCP client writes as, one per client name.

    Memory's writer shape is ``mcp.[a-z_]{1,40}``; client names also have digits,
    ``.`` and ``-`` and run to 64 characters. A name that fits is kept as it is; any
    other keeps its letters readable and ends in ten letters of its own hash, so
    ``agent1`` and ``agent2`` are two writers (each other's write conflicts), not one.
    """
    if _WRITER_NAME.fullmatch(client):
        return "mcp." + client
    number = int.from_bytes(hashlib.sha256(client.encode("utf-8")).digest()[:8], "big")
    tag = ""
    for _ in range(_TAG_LETTERS):
        number, digit = divmod(number, 26)
        tag += chr(ord("a") + digit)
    return f"mcp.{re.sub(r'[^a-z_]', '_', client)[:_READABLE]}_{tag}"


# -- memory --------------------------------------------------------------------------


def _stamped(entry: Any, *keys: str) -> dict[str, Any]:
    return {k: getattr(entry, k) for k in (*keys, "updated_by", "last_updated")}


def _breaker(project: Project) -> dict[str, Any]:
    return {"circuit_breaker_state": project.recovery.breaker().state}


def memory_summary_read(call: Call) -> Reply:
    view: MemoryView = call.project.memory.read()
    state, fresh = view.state, view.freshness
    intent = None
    if state.active_intent is not None:
        intent = {
            **_stamped(state.active_intent, "text", "proposed"),
            "stale": fresh.intent_stale,
            "label": "STALE" if fresh.intent_stale else "current",
            "stale_reasons": fresh.intent_reasons,
        }
    explicit = state.explicit_files()
    data = {
        "kind": "memory_summary",
        "intent": intent,
        "next_action": _stamped(state.next_action, "text") if state.next_action else None,
        "decisions": {
            "count": len(state.decisions),
            "latest": [_stamped(d, "id", "text") for d in state.decisions[-SHOWN:]],
        },
        "relevant_files": {
            "explicit_count": len(explicit),
            "observed_count": len(state.relevant_files) - len(explicit),
            "explicit": [{"path": f.path, "why": f.why} for f in explicit[:SHOWN_FILES]],
        },
        "verification": {
            "count": len(state.verification),
            "stale_count": fresh.stale_verification,
            "latest": [
                {"command": v.command, "result": v.result, "timestamp": v.timestamp}
                for v in state.verification[-SHOWN:]
            ],
        },
        "risks": {
            "count": len(state.risks),
            "latest": [{"kind": r.kind, "text": r.text} for r in state.risks[-SHOWN:]],
        },
        "provenance": "explicit entries are the user's word; observed ones are context only",
        "read_only": view.read_only,
        "warning": view.warning,
    }
    return Reply(data, _breaker(call.project))


def memory_full_read(call: Call) -> Reply:
    view = call.project.memory.read()
    data = view.state.model_dump(mode="json")
    data["freshness"] = view.freshness.to_json()
    data["read_only"] = view.read_only
    data["warning"] = view.warning
    return Reply({"kind": "memory", **data}, _breaker(call.project))


def _needs_text(args: schemas.MemoryWriteIn) -> str:
    if args.text is None:
        raise VibflowError(ErrorCode.BAD_INPUT, f"a {args.field} write needs 'text'")
    return args.text


def memory_write(call: Call) -> Reply:
    args: schemas.MemoryWriteIn = call.args
    memory = call.project.memory
    who = writer_of(call.client)
    ok = args.confirmed
    result: WriteResult
    if args.field == "intent":
        text = _needs_text(args)
        if ok:
            result = memory.set_intent(text, writer=who, confirmed=True)
        else:
            result = memory.propose_intent(text, writer=who)
    elif args.field == "decision":
        result = memory.decide(_needs_text(args), writer=who, confirmed=ok)
    elif args.field == "next_action":
        result = memory.set_next(_needs_text(args), writer=who, confirmed=ok)
    elif args.field == "relevant_file":
        if args.path is None or args.why is None:
            raise VibflowError(ErrorCode.BAD_INPUT, "a relevant_file write needs 'path' and 'why'")
        result = memory.relevant(args.path, args.why, writer=who, confirmed=ok)
    elif args.field == "verification":
        if args.result is None:
            raise VibflowError(ErrorCode.BAD_INPUT, "a verification write needs 'result'")
        result = memory.verify(_needs_text(args), args.result, files=args.files, writer=who)
    else:
        result = memory.risk(_needs_text(args), writer=who, kind=args.risk_kind)
    proposed = args.field == "intent" and not ok
    review = user_step("vibflow memory review", "confirm or reject the proposed intent")
    data = {
        "written": args.field,
        "as": "proposal: the user confirms it at a terminal (`vibflow memory review`)"
        if proposed
        else "entry",
        "next": [review] if proposed else [],
        "writer": who,
        "path": result.path,
        "notices": list(result.notices),
        "warning": result.warning,
        "redacted_before_storing": dict(result.redaction),
    }
    return Reply(data, _breaker(call.project))


# -- recovery, checkpoints -------------------------------------------------------------


def recovery_preview(call: Call) -> Reply:
    from vibflow.steps.recovery.interrupted import interrupted_restores
    from vibflow.steps.recovery.plans import page_form

    project = call.project
    advisor = project.recovery
    advice = advisor.advise()
    stopped = interrupted_restores(project.journal, project.recovery_services.jobs)
    facts = advice.audit_facts()
    if advice.plan.intent:
        # A recovery rendering that showed the intent (the stale-intent P0 sample),
        # read back from what the caller gets: its intent_stale field.
        facts["intent_stale"] = advice.plan.intent_stale
        facts["stale_labelled"] = advice.payload.get("intent_stale") is True
    args: schemas.RecoveryPreviewIn = call.args
    page = page_form({**advice.payload, "interrupted_restores": stopped}, args.offset, args.limit)
    if args.plan_digest is not None and args.plan_digest != page["page"]["plan_digest"]:
        raise VibflowError(
            ErrorCode.PLAN_CHANGED,
            "the plan changed since the page you read (the working tree moved): its pages "
            "no longer join",
            hint="Call recovery_preview again with offset 0 and no plan_digest, and page "
            "through the plan as it is now.",
        )
    return Reply(
        page,
        facts,
        redacted=frozenset(advice.payload),  # the advisor's plan passed the contract
        # Kept for `vibflow recover feedback` (its file is not flushed either: a lost
        # preview is only recomputed), written once the answer is on its way.
        after=lambda: advisor.record_preview(advice),
    )


def checkpoint_create(call: Call) -> Reply:
    from vibflow.steps.checkpoints.report import shown_metas

    project = call.project
    # Stored redacted: a caller's message is not trusted to be free of secrets.
    message, _ = project.redact_text(call.args.message) if call.args.message else ("", {})
    meta = project.checkpoints.create(message)
    (shown,) = shown_metas([meta], project.root)
    return Reply({"kind": "checkpoint", "reused": meta.reused, **shown})


# -- journal reads, triggers, handoffs --------------------------------------------------


def recap_read(call: Call) -> Reply:
    journal = call.project.journal
    wanted = call.args.recap_id
    body = journal.get_recap(wanted) if wanted else journal.latest_recap("project")
    if body is None:
        raise VibflowError(
            ErrorCode.RECAP_NOT_FOUND,
            "there is no such recap" if wanted else "there is no project recap yet",
            hint="No MCP tool writes recaps: the user writes the project recap with "
            "`vibflow recap`; runs_list names each run's recap_id.",
        )
    # The recap's own lines say whose each step is; `next` is the same, as calls.
    shown, steps = recap_for_mcp(body)
    return Reply({"kind": "recap", "recap": shown, "next": steps})


def runs_list(call: Call) -> Reply:
    project = call.project
    project.runner.refresh_all()
    status = call.args.status
    runs = project.journal.runs([status] if status else None, limit=call.args.limit)
    shown = [
        {
            "run_id": r.run_id,
            "flow": r.flow,
            "status": str(r.status),
            "state": r.state,
            "blocked_reason": r.blocked_reason,
            "created_at": r.created_at,
            "updated_at": r.updated_at,
            "recap_id": r.recap_id,
        }
        for r in runs
    ]
    return Reply({"kind": "runs", "runs": shown})


def rewind_list(call: Call) -> Reply:
    """The recent agent turns: what each one's tools reported, what changed that they
    did not (shell edits), what changed after it (the user's), and its checkpoints."""
    from vibflow.agent_wiring import find_session, has_records, rewind_listing, turn_json

    project = call.project
    if not has_records(project):
        return Reply({"kind": "rewind", "session": None, "turns": [], "sessions": []})
    session = find_session(project.agent_records, call.args.session)
    views, sessions = rewind_listing(project, session)
    return Reply(
        {
            "kind": "rewind",
            "session": None if session is None else session.__dict__,
            "turns": [turn_json(v) for v in views],
            "sessions": [s.__dict__ for s in sessions],
            "how_to_rewind": "vibflow rewind TURN [PATH...] (at the user's terminal: guarded, "
            "previewed, confirmed, undoable with vibflow undo)",
        }
    )


def triggers_check(call: Call) -> Reply:
    project = call.project
    project.start_trigger_check()
    service = project.triggers
    results = service.check()
    triggers = []
    for r in results:
        shown = r.to_json()
        command = shown.get("command")
        shown["next"] = step_for(command) if isinstance(command, str) and command else None
        triggers.append(shown)
    recommendations = []
    for rec in service.recommendations():
        shown = rec.to_json()
        shown["next"] = [step_for(c) for c in rec.commands]
        recommendations.append(shown)
    return Reply(
        {
            "kind": "triggers",
            "triggers": triggers,
            "firing": [r.id for r in results if r.fires and r.rule.enabled],
            "recommendations": recommendations,
        }
    )


def handoff(call: Call) -> Reply:
    # The handoff service writes its own handoff_written row (with the stale-intent
    # facts); the answer's row does not repeat them, so a handoff counts once.
    made = call.project.handoff.assemble("agent", call.args.budget)
    return Reply(made.to_json())


def handoff_export(call: Call) -> Reply:
    from vibflow.engine.atomicfile import atomic_write

    args: schemas.HandoffExportIn = call.args
    project = call.project
    (rel,) = project.paths.normalize_paths([args.path])
    target = project.root / rel
    if target.is_dir() or target.is_symlink():
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "the handoff can only be written to a regular file, not a folder or a link",
        )
    if target.exists():
        _replaceable(target, overwrite=args.overwrite)
    if not target.parent.is_dir():
        raise VibflowError(ErrorCode.BAD_INPUT, "the folder for that file does not exist")
    made = project.handoff.assemble("agent", args.budget)
    atomic_write(target, made.text + "\n", durable=False)
    data = made.to_json()
    data["written_to"] = rel
    return Reply(data)


def _replaceable(target: Path, *, overwrite: bool) -> None:
    """Refuse to replace an existing file unless asked to and it is an earlier handoff:
    ``overwrite`` never replaces a project file (an agent's uncommitted source, an
    ``.env``), which would be lost with no checkpoint."""
    from vibflow.steps.handoff.heading import holds_a_handoff

    if not overwrite:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "that file exists already",
            hint="Choose a new file name; overwrite: true replaces only an earlier handoff.",
        )
    if not holds_a_handoff(target):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "that file exists and is not a handoff vibflow wrote: overwrite replaces only "
            "an earlier handoff (its first line is the handoff's heading), never another file",
            hint="Choose a new file name for the handoff; the existing file was left as it was.",
        )


#: Every tool: its input model and its handler (capabilities.py says who may call it).
TOOLS: dict[str, tuple[type[schemas.ToolInput], Callable[[Call], Reply]]] = {
    "memory_summary_read": (schemas.NoInput, memory_summary_read),
    "recovery_preview": (schemas.RecoveryPreviewIn, recovery_preview),
    "checkpoint_create": (schemas.CheckpointCreateIn, checkpoint_create),
    "recap_read": (schemas.RecapReadIn, recap_read),
    "runs_list": (schemas.RunsListIn, runs_list),
    "triggers_check": (schemas.NoInput, triggers_check),
    "rewind_list": (schemas.RewindListIn, rewind_list),
    "handoff": (schemas.BudgetIn, handoff),
    "memory_full_read": (schemas.NoInput, memory_full_read),
    "memory_write": (schemas.MemoryWriteIn, memory_write),
    "handoff_export": (schemas.HandoffExportIn, handoff_export),
    "recovery_apply": (schemas.RecoveryApplyIn, recovery_apply),  # vibflow.mcp.apply
}
