"""What an MCP caller is told to do next: an MCP call, or a command for the user.

vibflow's services suggest next steps as terminal commands (``vibflow step RUN
choose``, ``add --yes``, ``vibflow undo RUN``): right for a person at a
terminal, useless to an agent that talks to this server. An MCP answer instead
names each next step as one of three kinds, and says which:

* ``{"by": "agent", "tool": ..., "arguments": {...}}`` — a call this server
  takes (its arguments fit the tool's input schema);
* ``{"by": "user", "command": ...}`` — a vibflow command only the user may run
  (grants, undo, policy, confirming memory): the agent can ask for it, not do it;
* ``{"by": "shell", "command": ...}`` — the project's own command (its tests),
  for whoever has a shell in the project.

:func:`step_for` turns one suggested command into its step;
:func:`labelled` is the same as one line of text, for the places where a
document's shape holds strings (a recap's ``next_actions``); :func:`marked`
marks each command quoted in a sentence; :func:`for_error` gives an error
answer its ``next`` steps and an MCP-worded hint.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

Step = dict[str, Any]

#: `vibflow ...` commands quoted in a sentence (hints, reasons, notices).
_QUOTED = re.compile(r"`(vibflow [^`]+)`")
_RUN_ID = re.compile(r"run_[0-9a-f]{32}")
#: A hint that asks for a terminal's confirmation (a prompt, --yes).
_TERMINAL_CONFIRM = re.compile(r"(?i)answer the prompt on a terminal|\badd --yes")


def agent_step(tool: str, arguments: dict[str, Any], does: str) -> Step:
    return {"by": "agent", "tool": tool, "arguments": arguments, "does": does}


def user_step(command: str, does: str) -> Step:
    return {"by": "user", "command": command, "does": does}


def shell_step(command: str, does: str) -> Step:
    return {"by": "shell", "command": command, "does": does}


#: Read-only commands with a tool of the same meaning (first words after `vibflow`).
_READS: dict[tuple[str, ...], tuple[str, str]] = {
    ("runs", "list"): ("runs_list", "list the recent runs"),
    ("runs",): ("runs_list", "list the recent runs"),
    ("memory", "show"): ("memory_summary_read", "read the project memory"),
    ("handoff",): ("handoff", "read the handoff"),
    ("triggers", "check"): ("triggers_check", "check the nudges"),
    ("checkpoint", "create"): ("checkpoint_create", "take a checkpoint"),
    ("recover",): ("recovery_preview", "preview the ways back"),
}


def step_for(command: str) -> Step:
    """The step an MCP caller is given for a command vibflow suggests."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if not words or words[0] != "vibflow":
        return shell_step(command, "a project command, for whoever has a shell in the project")
    args = words[1:]
    if args[:1] == ["step"] and len(args) >= 3 and _RUN_ID.fullmatch(args[1]):
        if args[2] in ("choose", "confirm"):
            return agent_step(
                "recovery_apply",
                {"run_id": args[1]},
                f"see where the run stands and what it takes to {args[2]} "
                "(plan.options, confirmation_expected), then call recovery_apply again with it",
            )
        return user_step(_for_user(words), f"{args[2]} the run (the user, at a terminal)")
    if args[:2] == ["run", "recover"]:
        return agent_step("recovery_apply", {}, "start a recover run")
    if args[:1] == ["rewind"] and all(a.startswith("-") for a in args[1:]):
        return agent_step("rewind_list", {}, "list the recent agent turns")
    for prefix, (tool, does) in _READS.items():
        if tuple(args[: len(prefix)]) == prefix and _only_options(args[len(prefix) :]):
            return agent_step(tool, {}, does)
    return user_step(_for_user(words), "only the user may do this, at a terminal")


def _for_user(words: list[str]) -> str:
    """The command as the user types it at a terminal: without ``--yes`` (they answer
    the prompt themselves, which is the confirmation the flag stands in for)."""
    return shlex.join(w for w in words if w != "--yes")


def _only_options(rest: list[str]) -> bool:
    """Nothing after the command's name but options, none of which writes a file:
    `vibflow recover feedback ...` or `vibflow handoff --out F` is not the read."""
    return (not rest or rest[0].startswith("-")) and "--out" not in rest


def labelled(command: str) -> str:
    """One suggested command as a line an agent reads right: what to call, or whose it is."""
    step = step_for(command)
    if step["by"] == "agent":
        return f"MCP: call {step['tool']} with {_args(step['arguments'])} ({step['does']})"
    if step["by"] == "user":
        return f"for the user, at a terminal: {step['command']}"
    return f"a project command: {command}"


def recap_for_mcp(recap: dict[str, Any]) -> tuple[dict[str, Any], list[Step]]:
    """A recap (a run's or the project's) as an MCP answer shows it: each command it
    holds (``next_actions``, ``resume_hint.command``, ``open_runs[].resume_command``)
    labelled with whose it is, and the steps for its next actions."""
    out = dict(recap)
    steps: list[Step] = []
    actions = recap.get("next_actions")
    if isinstance(actions, list):
        steps = [step_for(str(a)) for a in actions]
        out["next_actions"] = [labelled(str(a)) for a in actions]
    hint = recap.get("resume_hint")
    if isinstance(hint, dict) and isinstance(hint.get("command"), str):
        out["resume_hint"] = {**hint, "command": labelled(hint["command"])}
    runs = recap.get("open_runs")
    if isinstance(runs, list):
        out["open_runs"] = [
            {**r, "resume_command": labelled(r["resume_command"])}
            if isinstance(r, dict) and isinstance(r.get("resume_command"), str)
            else r
            for r in runs
        ]
    return out, steps


def steps_in(text: str) -> list[Step]:
    """The steps for every `vibflow ...` command quoted in ``text``."""
    return [step_for(m.group(1)) for m in _QUOTED.finditer(text)]


def for_error(tool: str, arguments: Any, error: dict[str, Any]) -> dict[str, Any]:
    """An error answer with ``next`` (the steps its hint and message name) and a hint
    that asks nothing of a terminal."""
    if "next" in error:  # the error named its own next step (a refused grant)
        return error
    hint = error.get("hint")
    text = " ".join(str(t) for t in (error.get("message"), hint) if t)
    steps = steps_in(text)
    if isinstance(hint, str) and _TERMINAL_CONFIRM.search(hint):
        hint, confirm = _confirm_instead(tool, arguments)
        steps = [*confirm, *steps]
    run = error.get("run")
    if not steps and isinstance(run, dict) and isinstance(run.get("next"), list):
        steps = list(run["next"])  # a refused step of a run: what the run takes now
    out = dict(error)
    out["message"] = marked(str(error.get("message", "")))
    out["hint"] = marked(hint) if isinstance(hint, str) else hint
    out["next"] = steps
    return out


def marked(text: str) -> str:
    """Each quoted command as what it is for an MCP caller: the tool that does the
    same (``rewind_list (an MCP call)``), or the user's command as they type it (no
    ``--yes``: see :func:`_for_user`), marked as theirs."""

    def typed(m: re.Match[str]) -> str:
        step = step_for(m.group(1))
        if step["by"] == "agent":
            return f"{step['tool']} (an MCP call)"
        return f"`{step['command']}` (the user's, at a terminal)"

    return _QUOTED.sub(typed, text)


def _confirm_instead(tool: str, arguments: Any) -> tuple[str, list[Step]]:
    """The MCP form of "answer the prompt, or add --yes" (a memory write the gate wants
    confirmed): the caller passes ``confirmed: true`` only when the user confirmed."""
    if tool == "memory_write" and isinstance(arguments, dict):
        again = {**arguments, "confirmed": True}
        return (
            "Ask the user to confirm this exact text; once they have, call memory_write again "
            "with confirmed: true.",
            [agent_step("memory_write", again, "write it, once the user confirmed this text")],
        )
    return ("This change needs the user's confirmation; ask the user.", [])


def _args(arguments: dict[str, Any]) -> str:
    if not arguments:
        return "no arguments"
    return ", ".join(f"{k}: {v}" for k, v in arguments.items())
