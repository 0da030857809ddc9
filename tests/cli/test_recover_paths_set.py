"""The paths a restore is given are a set: a path named twice at the choice is one file,
and the confirmation's paths may come in any order (they used to be counted with their
repeats, so confirming the same files was refused as "differ")."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.apply import APPLY, drifted, ok_json, option, start
from vibflow_testing.cli import vf


def test_a_path_named_twice_is_one_file_and_order_does_not_matter(repo: Path) -> None:
    drifted(repo)
    run = start(repo)
    opt = option(run, 3)
    at = ok_json(
        vf(
            repo,
            "step",
            run["run_id"],
            "choose",
            "--input",
            f"option={opt['option_id']}",
            "--input",
            "paths=config.yaml,config.yaml,bin/deploy.sh",
            "--json",
            env=APPLY,
        )
    )
    assert at["state"] == "confirm", at
    assert at["paths_total"] == 2, at["paths"]
    done = ok_json(
        vf(
            repo,
            "step",
            run["run_id"],
            "confirm",
            "--input",
            f"confirmation={at['confirmation_expected']}",
            "--input",
            "paths=bin/deploy.sh,config.yaml",
            "--json",
            env=APPLY,
        )
    )
    assert done["status"] == "done", done
    assert (repo / "config.yaml").read_text() == "shop:\n  currency: EUR\n"
