"""No MCP answer gives an agent a terminal-only hint. Each tool's success and error
paths are driven through the real client; in every answer, nothing says "add --yes",
``vibflow step`` is only ever a command *for the user*, every error names its next
steps, and every step is either an MCP call this server takes (a listed tool, with
arguments its input schema accepts) or a command marked as the user's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APPLY, drifted
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, with_servers

from vibflow.mcp.handlers import TOOLS

Answer = tuple[bool, Any, str]


def steps_in(node: Any) -> Iterator[dict[str, Any]]:
    """Every next step anywhere in an answer (a dict with by: agent/user/shell)."""
    if isinstance(node, dict):
        if node.get("by") in ("agent", "user", "shell"):
            yield node
        for value in node.values():
            yield from steps_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from steps_in(value)


def strings_in(node: Any, *, skip_user_commands: bool = True) -> Iterator[str]:
    """Every string of an answer, but a user step's own command."""
    if isinstance(node, dict):
        for key, value in node.items():
            if skip_user_commands and key == "command" and node.get("by") == "user":
                continue
            yield from strings_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings_in(value)
    elif isinstance(node, str):
        yield node


#: A quoted command not marked as the user's (documents and refusals say it in words).
UNMARKED = re.compile(r"`vibflow [^`]*`(?! \(the user's, at a terminal\))")


def check_answer(tool: str, answer: Answer) -> None:
    failed, data, text = answer
    if tool in ("recovery_apply", "recap_read") or (failed and data["error"]["hint"]):
        hint = data["error"]["hint"] if failed else ""
        for s in [hint] if failed else list(strings_in(data)):
            assert not UNMARKED.search(s), (tool, s)
    assert isinstance(data, dict), (tool, text)
    assert "--yes" not in text, (tool, text)  # nowhere, not even in a user's command
    for s in strings_in(data):
        # Only as the user's command: a user step's, or a line labelled the user's.
        assert "vibflow step" not in s or s.startswith("for the user, at a terminal: "), s
        assert "Answer the prompt" not in s, (tool, s)
    if failed:
        assert isinstance(data["error"]["next"], list), (tool, data)
    for step in steps_in(data):
        assert isinstance(step.get("does"), str), step
        if step["by"] == "agent":
            assert step["tool"] in TOOLS, step
            TOOLS[step["tool"]][0].model_validate(step["arguments"])
        elif step["by"] == "user":
            assert step["command"].startswith(("vibflow ", "VIBFLOW_")), step
        else:
            assert not step["command"].startswith("vibflow"), step


#: Calls made after the recover run (the user set the intent and a decision before).
AFTER_THE_RUN: list[tuple[str, dict[str, Any]]] = [
    ("memory_write", {"field": "decision", "text": "Use SQLite for the cache"}),
    ("memory_write", {"field": "next_action", "text": "write the login test"}),
    ("memory_write", {"field": "intent", "text": "Ship the login form"}),
    ("memory_write", {"field": "relevant_file", "path": "src/ui/login.py"}),
    # The user set the intent a moment ago: the agent's confirmed one conflicts.
    ("memory_write", {"field": "intent", "text": "Rewrite it", "confirmed": True}),
    (
        "memory_write",
        {"field": "decision", "text": "Do not keep SQLite for the cache", "confirmed": True},
    ),
    ("rewind_list", {"session": "no-such-session"}),
    ("recovery_preview", {"offset": 10_000_000}),
    ("triggers_check", {}),
    ("handoff", {}),
    ("rewind_list", {}),
    ("checkpoint_create", {"message": "before the next try"}),
    ("handoff_export", {"path": "HANDOFF.md"}),  # denied: no grant
    ("unknown_tool", {}),
    ("memory_summary_read", {}),
]


def test_no_answer_gives_a_terminal_only_hint(repo: Path) -> None:
    """Success and error paths of every tool that suggests a next step: a recover run
    from start to undo, its refusals, memory writes that need confirmation or
    conflict, a missing recap, recaps of a waiting and a finished run, the nudges, the
    handoff, a denied tool — none asks the agent for a terminal."""
    drifted(repo)
    for tool in ("memory_write", "memory_full_read", "recovery_apply"):
        assert vf(repo, "grant", tool).returncode == 0
    assert vf(repo, "memory", "decide", "Keep SQLite for the cache", "--yes").returncode == 0
    (repo / "NOTES.md").write_text("the user's notes\n", encoding="utf-8")
    vf(repo, "policy", "set", "triggers.rules.stale_intent.enabled", "true")
    answers: list[tuple[str, Answer]] = []

    async def walk(client: Client) -> None:
        async def ask(tool: str, args: dict[str, Any] | None = None) -> Answer:
            answer = await call(client, tool, args or {})
            answers.append((tool, answer))
            return answer

        await ask("recap_read", {})  # no project recap yet
        await ask("recap_read", {"recap_id": "rcp_" + "0" * 32})
        _, run, _ = await ask("recovery_apply", {})
        rid = run["run_id"]
        await ask("recovery_apply", {"run_id": rid, "option_id": "opt_" + "1" * 32})
        await ask("recovery_apply", {"run_id": rid, "confirmation": "APPLY nothing"})
        runs = (await ask("runs_list", {}))[1]["runs"]
        waiting = next(r for r in runs if r["run_id"] == rid)
        if waiting["recap_id"]:
            await ask("recap_read", {"recap_id": waiting["recap_id"]})
        option = next(o for o in run["plan"]["options"] if o["level"] == 3)
        _, at, _ = await ask("recovery_apply", {"run_id": rid, "option_id": option["option_id"]})
        await ask("recovery_apply", {"run_id": rid, "confirmation": "APPLY ckpt_wrong"})
        _, done, _ = await ask(
            "recovery_apply", {"run_id": rid, "confirmation": at["confirmation_expected"]}
        )
        assert done["status"] == "done", done
        await ask("recovery_apply", {"run_id": rid, "confirmation": "APPLY again"})
        runs = (await ask("runs_list", {}))[1]["runs"]
        finished = next(r for r in runs if r["run_id"] == rid)
        await ask("recap_read", {"recap_id": finished["recap_id"]})
        for tool, args in AFTER_THE_RUN:
            await ask(tool, args)

    with_servers(repo, walk, env=APPLY)
    tools = {tool for tool, _ in answers}
    assert len(answers) >= 20, [t for t, _ in answers]
    for tool, answer in answers:
        check_answer(tool, answer)
    assert any(a[0] for _, a in answers)  # error paths were driven
    errors = {tool for tool, (failed, _, _) in answers if failed}
    assert {"recap_read", "recovery_apply", "memory_write", "handoff_export"} <= errors
    assert "triggers_check" in tools


def test_the_run_names_its_next_call_at_each_state(repo: Path) -> None:
    """At the choice the next step is recovery_apply with the run and its recommended
    option; at the confirmation, with the exact confirmation; once restored, undo is
    the user's command; a cancel is always the user's. Following the given calls as
    they are restores the files."""
    drifted(repo)
    assert vf(repo, "grant", "recovery_apply").returncode == 0

    async def follow(client: Client) -> list[Any]:
        seen = []
        failed, run, _ = await call(client, "recovery_apply", {})
        assert not failed, run
        seen.append(run)
        for _ in range(2):
            (step,) = [s for s in run["next"] if s["by"] == "agent"]
            failed, run, _ = await call(client, step["tool"], step["arguments"])
            assert not failed, run
            seen.append(run)
        return seen

    choose, confirm, done = with_servers(repo, follow, env=APPLY)
    rid = choose["run_id"]
    assert choose["next"][0]["arguments"] == {
        "run_id": rid,
        "option_id": choose["recommended_option"],
    }
    assert {"by": "user", "command": f"vibflow step {rid} cancel"}.items() <= (
        choose["next"][1].items()
    )
    assert confirm["next"][0]["arguments"] == {
        "run_id": rid,
        "confirmation": confirm["confirmation_expected"],
    }
    assert done["status"] == "done"
    (undo,) = done["next"]
    assert undo["by"] == "user"
    assert undo["command"] == f"vibflow undo {rid}"
    assert all(
        line.startswith(("MCP: ", "for the user", "a project command"))
        for line in (done["recap"]["next_actions"])
    ), done["recap"]["next_actions"]


def test_a_write_that_needs_confirmation_says_how_over_mcp(repo: Path) -> None:
    """A next action written without confirmed: the error asks the agent to get the
    user's confirmation and gives the same call with confirmed: true — which, made,
    writes it."""
    drifted(repo)
    assert vf(repo, "grant", "memory_write").returncode == 0
    args = {"field": "next_action", "text": "write the login test"}

    async def twice(client: Client) -> tuple[Answer, Answer]:
        first = await call(client, "memory_write", args)
        (step,) = [s for s in first[1]["error"]["next"] if s["by"] == "agent"]
        return first, await call(client, step["tool"], step["arguments"])

    (failed, data, _), (failed2, data2, _) = with_servers(repo, twice)
    assert failed
    assert "confirmed: true" in data["error"]["hint"]
    assert data["error"]["next"][0]["arguments"] == {**args, "confirmed": True}
    assert not failed2, data2
    memory = json.loads((repo / ".vibflow" / "memory.json").read_text(encoding="utf-8"))
    assert memory["next_action"]["text"] == "write the login test"
