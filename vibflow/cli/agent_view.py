"""What ``vibflow agent status`` shows: the hooks installed for each agent, the
git post-commit hook, the last turn recorded, and the hooks' recent problems
(a hook never fails the agent, so this is where its failures are seen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vibflow.cli.visible_text import one_line

if TYPE_CHECKING:
    from vibflow.wiring import Project


def gather(project: Project) -> dict[str, Any]:
    from vibflow.agent_wiring import has_records
    from vibflow.steps.agents.problems import ProblemLog, find_git_dir
    from vibflow.steps.agents.settings import AGENTS, AgentSettings
    from vibflow.steps.hooks.post_commit import MARKER, hooks_dir

    hooks = []
    for name in AGENTS:
        for local in (False, True) if name == "claude-code" else (False,):
            settings = AgentSettings(project.root, project.state_dir, name, local=local)
            events = settings.installed_events()
            hooks.append(
                {
                    "agent": name,
                    "file": settings.shown,
                    "installed": bool(events),
                    "events": events,
                    "missing": [e for e in settings.spec.events if events and e not in events],
                }
            )
    try:
        post_commit = hooks_dir(project.root) / "post-commit"
        git_hook = post_commit.is_file() and MARKER in post_commit.read_text("utf-8", "replace")
    except Exception:  # noqa: BLE001 - status reports what it can
        git_hook = False
    last: dict[str, Any] | None = None
    sessions = turns = 0
    records_problem = None
    if has_records(project):
        try:
            records = project.agent_records
            turn = records.last_turn()
            sessions = len(records.sessions(10_000))
            turns = records.count_turns()
            if turn is not None:
                session = records.get_session(turn.session_id)
                last = {
                    "agent": session.agent if session else None,
                    "session": session.agent_session if session else None,
                    "turn": turn.number,
                    "turn_id": turn.id,
                    "started_at": turn.started_at,
                    "ended_at": turn.ended_at,
                    "checkpoint_id": turn.start_checkpoint,
                    "files_reported": len(records.files(turn.id)),
                    "note": turn.note,
                }
        except Exception as exc:  # noqa: BLE001 - an unreadable record file is a finding
            records_problem = f"the agent records cannot be read ({type(exc).__name__})"
    problems = ProblemLog(project.state_dir, find_git_dir(project.root)).recent(10)
    return {
        "hooks": hooks,
        "git_post_commit_hook": git_hook,
        "sessions": sessions,
        "turns": turns,
        "last_turn": last,
        "records_problem": records_problem,
        "problems": [p.__dict__ for p in problems],
    }


def render(found: dict[str, Any]) -> list[str]:
    out = ["Agent hooks:"]
    for h in found["hooks"]:
        state = f"installed ({', '.join(h['events'])})" if h["installed"] else "not installed"
        if h["missing"]:
            state += f"; missing: {', '.join(h['missing'])}"
        out.append(f"  {h['agent']:<12} {h['file']:<28} {state}")
    out.append(
        "  git post-commit hook (commits as observed context): "
        + ("installed" if found["git_post_commit_hook"] else "not installed")
    )
    last = found["last_turn"]
    if last is None:
        out.append("Last turn: none recorded yet.")
    else:
        when = last["started_at"][:19].replace("T", " ") + "Z"
        cp = last["checkpoint_id"] or f"no checkpoint ({last['note']})"
        out.append(
            f"Last turn: {last['agent']} turn {last['turn']} of session "
            f"{str(last['session'])[:12]}, "
            f"{when}; {last['files_reported']} file(s) reported by its tools; before it: {cp}"
        )
    out.append(f"Recorded: {found['turns']} turn(s) in {found['sessions']} session(s).")
    if found["records_problem"]:
        out.append(f"Problem: {found['records_problem']}")
    problems = found["problems"]
    if problems:
        out.append("Recent hook problems (the agent went on each time), newest last:")
        for p in problems:
            out.append(
                f"  {p['at'][:19].replace('T', ' ')}Z {one_line(str(p['agent']))} "
                f"{one_line(str(p['event']))}: {one_line(str(p['problem']))}"
            )
    else:
        out.append("No hook problems recorded.")
    return out
