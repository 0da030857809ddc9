"""recovery_apply takes only what the run can take where it stands: an argument that
does not fit (a confirmation for a finished run, an option at the confirmation, paths
on their own, another plan's option id) is a typed error naming the run's state and
the call that fits, and nothing moves; a refused choice is an error, not a quiet
"blocked" answer. Paths are a set: named twice they are one file, and the
confirmation's paths may come in any order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APPLY, DRIFT, drifted, tree_state
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, mcp_rows, with_servers


def _grant(repo: Path) -> None:
    proc = vf(repo, "grant", "recovery_apply")
    assert proc.returncode == 0, proc.stderr


def _run(repo: Path, run_id: str) -> dict[str, Any]:
    runs = json.loads(vf(repo, "runs", "list", "--json").stdout)["runs"]
    return next(r for r in runs if r["run_id"] == run_id)


def _level(run: dict[str, Any], level: int) -> str:
    """The option id of ``level`` in a run's plan, or in a preview."""
    options = run["plan"]["options"] if "plan" in run else run["options"]
    return str(next(o for o in options if o["level"] == level)["option_id"])


def _refused(answer: tuple[bool, Any, str], run_id: str, kind: str, *words: str) -> Any:
    """The error of a refused call: its kind, the run it names, what it says."""
    failed, data, text = answer
    assert failed, data
    error = data["error"]
    assert error["kind"] == kind, error
    assert error["run"]["run_id"] == run_id
    said = f"{error['message']} {error['hint']}"
    for word in words:
        assert word in said, (word, said)
    assert "Traceback" not in text
    return error


def _apply_rows(repo: Path) -> list[str]:
    return [r["result"] for r in mcp_rows(repo) if r["event"] == "mcp.recovery_apply"]


def test_at_the_choice_only_an_option_of_this_run_is_taken(repo: Path) -> None:
    """recovery_preview's option id (another plan's), paths or a confirmation without
    an option, a confirmation for a read-only option: each is a bad-input error saying
    what to pass instead; the run still waits at its choice and no file moved."""
    drifted(repo)
    _grant(repo)
    before = tree_state(repo)

    async def body(client: Client) -> tuple[Any, ...]:
        _, preview, _ = await call(client, "recovery_preview", {})
        failed, run, _ = await call(client, "recovery_apply", {})
        assert not failed, run
        foreign = _level(preview, 3)
        assert foreign not in {o["option_id"] for o in run["plan"]["options"]}
        asked = [
            {"option_id": foreign},
            {"paths": ["config.yaml"]},
            {"confirmation": "APPLY 0000000"},
            {"option_id": _level(run, 1), "confirmation": "APPLY 0000000"},
        ]
        answers = [
            await call(client, "recovery_apply", {"run_id": run["run_id"], **a}) for a in asked
        ]
        return run["run_id"], answers

    rid, (foreign, paths, confirmation, read_only) = with_servers(repo, body, env=APPLY)
    _refused(
        foreign, rid, "bad_input", "not one of the options of run", "not from recovery_preview"
    )
    _refused(paths, rid, "bad_input", "waits at its choice", "option_id")
    _refused(confirmation, rid, "bad_input", "waits at its choice", "option_id")
    _refused(read_only, rid, "bad_input", "restores no file")
    assert (_run(repo, rid)["status"], _run(repo, rid)["state"]) == ("waiting", "choose")
    assert tree_state(repo) == before
    assert _apply_rows(repo) == ["waiting", *["refused"] * 4]


def test_at_the_confirmation_only_the_confirmation_is_taken(repo: Path) -> None:
    """Once the run chose, another option or paths without the confirmation text are
    bad-input errors naming the confirmation; the run still waits for it, no file moved."""
    drifted(repo)
    _grant(repo)
    before = tree_state(repo)

    async def body(client: Client) -> tuple[Any, ...]:
        _, run, _ = await call(client, "recovery_apply", {})
        step = {"run_id": run["run_id"], "option_id": _level(run, 3)}
        failed, at, _ = await call(client, "recovery_apply", step)
        assert not failed, at
        assert at["state"] == "confirm", at
        asked = [
            {"option_id": _level(run, 4)},
            {"paths": at["paths"]},
            {"option_id": _level(run, 3)},  # the same option again, still no confirmation
        ]
        answers = [
            await call(client, "recovery_apply", {"run_id": run["run_id"], **a}) for a in asked
        ]
        return run["run_id"], answers

    rid, (other, paths, same) = with_servers(repo, body, env=APPLY)
    _refused(other, rid, "bad_input", "already chose another option", "new run")
    _refused(paths, rid, "bad_input", "waits for its confirmation", "confirmation_expected")
    _refused(same, rid, "bad_input", "waits for its confirmation")
    assert (_run(repo, rid)["status"], _run(repo, rid)["state"]) == ("waiting", "confirm")
    assert tree_state(repo) == before


def test_a_finished_run_takes_no_confirmation_option_or_paths(repo: Path) -> None:
    """After the restore (chosen and confirmed in one call), confirming again — with
    the right text or a wrong one —, an option or paths are run_finished errors saying
    to start a new run, and nothing changes; the run id alone still answers where it is."""
    drifted(repo)
    _grant(repo)

    async def body(client: Client) -> tuple[Any, ...]:
        _, run, _ = await call(client, "recovery_apply", {})
        safe = run["plan"]["safe_checkpoint_candidate"]["checkpoint_id"]
        step = {"run_id": run["run_id"], "option_id": _level(run, 3)}
        failed, done, _ = await call(
            client, "recovery_apply", {**step, "confirmation": f"APPLY {safe}"}
        )
        assert not failed, done
        assert done["status"] == "done", done
        restored = tree_state(repo)
        asked = [
            {"confirmation": f"APPLY {safe}"},
            {"confirmation": "APPLY nope"},
            {"option_id": _level(run, 4)},
            {"paths": ["config.yaml"]},
            {},
        ]
        answers = [
            await call(client, "recovery_apply", {"run_id": run["run_id"], **a}) for a in asked
        ]
        return run["run_id"], restored, answers

    rid, restored, (*refused, look) = with_servers(repo, body, env=APPLY)
    for rel in DRIFT:
        assert (repo / rel).read_text(encoding="utf-8") != DRIFT[rel], rel
    for answer in refused:
        error = _refused(answer, rid, "run_finished", "is done", "new run")
        assert error["run"]["status"] == "done"
    assert not look[0]
    assert look[1]["status"] == "done"
    assert tree_state(repo) == restored
    assert _apply_rows(repo) == ["waiting", "ok", *["refused"] * 4, "ok"]
    assert vf(repo, "audit", "verify").returncode == 0


def test_a_refused_choice_is_an_error_and_the_run_waits_for_another(repo: Path) -> None:
    """Paths outside the option are refused by the flow's guard: the answer is a
    guard_refused error with the run (blocked at its choice), not a quiet success, and
    the next call with a fitting choice goes on to the confirmation."""
    drifted(repo)
    _grant(repo)
    before = tree_state(repo)

    async def body(client: Client) -> tuple[Any, ...]:
        _, run, _ = await call(client, "recovery_apply", {})
        step = {"run_id": run["run_id"], "option_id": _level(run, 3)}
        bad = await call(client, "recovery_apply", {**step, "paths": ["src/ui/login.py"]})
        good = await call(client, "recovery_apply", {**step, "paths": ["config.yaml"]})
        return bad, good

    (failed, data, _), (good_failed, good, _) = with_servers(repo, body, env=APPLY)
    assert failed, data
    assert data["error"]["kind"] == "guard_refused"
    assert data["error"]["run"]["status"] == "blocked"
    assert data["error"]["run"]["state"] == "choose"
    assert "this run's plan" in data["error"]["hint"]
    assert tree_state(repo) == before
    assert not good_failed, good
    assert good["state"] == "confirm"
    rows = [r for r in mcp_rows(repo) if r["event"] == "mcp.recovery_apply"]
    assert [r["result"] for r in rows] == ["waiting", "blocked", "waiting"]


def test_paths_are_a_set_named_twice_once_and_confirmed_in_any_order(repo: Path) -> None:
    """A path named twice at the choice is one path to restore (paths_total counts it
    once); the confirmation's paths are the previewed set in another order, and restore."""
    drifted(repo)
    _grant(repo)
    chosen = ["config.yaml", "config.yaml", "./bin/deploy.sh", "bin/deploy.sh"]

    async def body(client: Client) -> tuple[Any, ...]:
        _, run, _ = await call(client, "recovery_apply", {})
        step = {"run_id": run["run_id"], "option_id": _level(run, 3), "paths": chosen}
        at = await call(client, "recovery_apply", step)
        assert not at[0], at
        done = await call(
            client,
            "recovery_apply",
            {
                "run_id": run["run_id"],
                "confirmation": at[1]["confirmation_expected"],
                "paths": ["bin/deploy.sh", "config.yaml", "bin/deploy.sh"],
            },
        )
        return at, done

    (_, at, _), (failed, done, _) = with_servers(repo, body, env=APPLY)
    assert at["paths"] == ["config.yaml", "bin/deploy.sh"]
    assert at["paths_total"] == 2
    assert not failed, done
    assert done["status"] == "done", done
    assert (repo / "config.yaml").read_text(encoding="utf-8") != DRIFT["config.yaml"]
    assert (repo / "bin/deploy.sh").read_text(encoding="utf-8") != DRIFT["bin/deploy.sh"]
    assert (repo / "src/services/auth.py").read_text(encoding="utf-8") == DRIFT[
        "src/services/auth.py"
    ]
