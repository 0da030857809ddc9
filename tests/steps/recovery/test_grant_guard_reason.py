"""The recover flow's own ``grant`` guard (the second gate an MCP client's apply passes,
at the confirmation) says why a client has no grant, as the MCP boundary does: its
grant was revoked (when) between the choice and the confirmation, not "has no grant".
A real repository, the real runner and journal, the project as an MCP client builds it."""

from __future__ import annotations

import json
from pathlib import Path

from vibflow_testing.apply import APPLY, drifted
from vibflow_testing.cli import clean_env, vf

from vibflow.wiring import Project

CLIENT = "test-agent"


def test_a_grant_revoked_before_the_confirmation_is_refused_as_revoked(repo: Path) -> None:
    """Chosen with a grant in force; revoked; the confirmation is refused by the guard
    naming the revocation, its time and the user's command to grant it again."""
    drifted(repo)
    proc = vf(repo, "grant", "recovery_apply", "--client", CLIENT, "--json")
    grant_id = json.loads(proc.stdout)["id"]
    project = Project(repo, tool=CLIENT, env=clean_env(**APPLY))
    try:
        runner = project.runner
        run = runner.start(project.catalog.load("recover"), {})
        plan = run.context["public"]["plan"]
        option = next(o for o in plan["options"] if o["level"] == 3)
        run = runner.send(run.run_id, "choose", {"option": option["option_id"]})
        assert run.state == "confirm", run
        expected = run.context["public"]["confirmation_expected"]
        assert vf(repo, "revoke", grant_id).returncode == 0
        run = runner.send(run.run_id, "confirm", {"confirmation": expected})
    finally:
        project.close()
    assert (str(run.status), run.state) == ("blocked", "confirm")
    reason = run.blocked_reason or ""
    listed = json.loads(vf(repo, "grants", "--all", "--json").stdout)["grants"]
    (revoked,) = [g for g in listed if g["id"] == grant_id]
    assert f"({grant_id}), but it was revoked at {revoked['revoked_at']}" in reason, reason
    assert f"`vibflow grant recovery_apply --client {CLIENT}`" in reason
    assert "has no grant" not in reason
