"""The paths a restore is given are a set: a path named twice at the choice is one file,
and the confirmation's paths may come in any order (they used to be counted with their
repeats, so confirming the same files was refused as "differ")."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.apply import choose, confirm, drifted, ok_json, start


def test_a_path_named_twice_is_one_file_and_order_does_not_matter(repo: Path) -> None:
    drifted(repo)
    at = choose(repo, start(repo), 3, "--input", "paths=config.yaml,config.yaml,bin/deploy.sh")
    assert at["paths_total"] == 2, at["paths"]
    done = ok_json(confirm(repo, at, "--input", "paths=bin/deploy.sh,config.yaml"))
    assert done["status"] == "done", done
    assert (repo / "config.yaml").read_text() == "shop:\n  currency: EUR\n"
