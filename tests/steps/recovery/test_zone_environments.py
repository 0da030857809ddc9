"""An intent scoped to one deployment environment: a file of another is drift, whatever
links it (the agent having patched it included); only the user's own word keeps it in."""

from __future__ import annotations

import json
from pathlib import Path

from vibflow_testing.cli import as_json, vf
from vibflow_testing.recovery_inputs import changed
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery import cochange, environments, mirrors
from vibflow.steps.recovery.evidence import Evidence
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone

STAGING_ONLY = "add one read replica to the staging database, staging only"


def _named(text: str) -> frozenset[str]:
    return environments.environments_in(mirrors.intent_tokens(text))


def test_environments_are_read_by_meaning_from_folders_and_file_names() -> None:
    """prod and production are one; a folder or a word of the file name counts; tests/
    and a word inside another word are no environment."""
    assert _named("turn it on in prod") == {"production"}
    assert _named("staging and production both") == {"staging", "production"}
    assert environments.path_environments("envs/prod/rds.tf") == {"production"}
    assert environments.path_environments("charts/api/values-production.yaml") == {"production"}
    assert environments.path_environments(".env.staging") == {"staging"}
    assert environments.path_environments("tests/test_reproduce.py") == frozenset()
    assert environments.path_environments("src/products/list.py") == frozenset()


def test_a_file_of_another_environment_is_elsewhere_only_when_the_intent_names_one() -> None:
    """With no environment in the intent nothing is elsewhere; a file naming the
    intent's environment, or none, may be in scope."""
    staging = _named(STAGING_ONLY)
    assert environments.elsewhere("envs/prod/rds.tf", staging) == {"production"}
    assert environments.elsewhere("envs/staging/rds.tf", staging) == frozenset()
    assert environments.elsewhere("modules/rds/main.tf", staging) == frozenset()
    assert environments.elsewhere("envs/prod/rds.tf", frozenset()) == frozenset()


def test_a_patch_target_of_another_environment_is_drift_and_says_why() -> None:
    """The agent's patch of prod's file does not put it in scope for a staging-only
    intent; the module both share stays in; an explicit prod file would stay in."""
    files = [
        changed("envs/staging/rds.tf"),
        changed("envs/prod/rds.tf"),
        changed("modules/rds/main.tf"),
    ]
    memory = MemorySignals(
        {"envs/staging/rds.tf": "turn the replica on here"},
        ["envs/prod/rds.tf", "modules/rds/main.tf"],
        True,
    )
    ev = Evidence(environments=_named(STAGING_ONLY))
    zone = infer_zone(files, memory, {}, (), ev)
    assert [z.path for z in zone] == ["envs/staging/rds.tf", "modules/rds/main.tf"]
    (flagged,) = drift(files, zone, memory, {}, ev)
    assert flagged.path == "envs/prod/rds.tf"
    assert "it is for 'production', and the intent names 'staging' only" in (
        flagged.why_outside_zone
    )
    assert not flagged.unsure

    yours = MemorySignals({"envs/staging/rds.tf": "", "envs/prod/rds.tf": ""}, [], True)
    kept = infer_zone(files, yours, {}, (), ev)
    assert "envs/prod/rds.tf" in {z.path for z in kept}
    assert "envs/prod/rds.tf" not in {d.path for d in drift(files, kept, yours, {}, ev)}


def test_evidence_of_another_environment_does_not_count_either() -> None:
    """Co-change with your staging file does not bring prod's file in."""
    files = [changed("envs/staging/rds.tf"), changed("envs/prod/outputs.tf")]
    memory = MemorySignals({"envs/staging/rds.tf": ""}, [], True)
    ev = Evidence(
        cochange={"envs/prod/outputs.tf": cochange.CoChange("envs/staging/rds.tf", 3, 3)},
        environments=_named(STAGING_ONLY),
    )
    assert [z.path for z in infer_zone(files, memory, {}, (), ev)] == ["envs/staging/rds.tf"]
    both = Evidence(cochange=ev.cochange, environments=_named("copy staging's setting to prod"))
    assert "envs/prod/outputs.tf" in {z.path for z in infer_zone(files, memory, {}, (), both)}


RDS = 'module "db" {\n  name           = "orders-%s"\n  instance_class = "%s"\n}\n'


def test_recover_flags_the_other_environment_in_a_real_repository(tmp_path: Path) -> None:
    """Through the CLI: a staging-only intent, and an observed patch that targeted prod's
    file too; the plan calls prod's edit drift with the reason, staging's is in scope."""
    root = init_repo(
        tmp_path / "repo",
        {
            "envs/staging/rds.tf": RDS % ("staging", "db.t4g.large"),
            "envs/prod/rds.tf": RDS % ("prod", "db.r6g.large"),
        },
    )
    vf(root, "memory", "intent", STAGING_ONLY, "--yes")
    vf(root, "memory", "relevant", "envs/staging/rds.tf", "the replica", "--yes")
    memory = root / ".vibflow" / "memory.json"
    data = json.loads(memory.read_text(encoding="utf-8"))
    at = data["active_intent"]["last_updated"]
    patched = {"paths": ["envs/staging/rds.tf", "envs/prod/rds.tf"]}
    data["observed_context"] = [
        {"kind": "patch_apply", "at": at, "source": "hook", "detail": patched}
    ]
    memory.write_text(json.dumps(data), encoding="utf-8")
    write(root, "envs/staging/rds.tf", RDS % ("staging", "db.t4g.large") + "# replica 1\n")
    write(root, "envs/prod/rds.tf", RDS % ("prod", "db.r6g.xlarge"))
    plan = as_json(vf(root, "recover", "--preview", "--json"))
    drifted = {d["path"]: d["why_outside_zone"] for d in plan["drift_candidates"]}
    assert "the intent names 'staging' only" in drifted["envs/prod/rds.tf"]
    assert "envs/staging/rds.tf" not in drifted
