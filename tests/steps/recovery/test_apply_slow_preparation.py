"""A restore that takes longer to read the tree than one lease term still runs.

Before the first file is written the apply reads the checkpoint's and the
sandwich's trees and every file to restore; with tens of thousands of files
that outlasts the lease (60 s by default), and the restore used to stop with
"restore exceeded lock window" having restored nothing. Here a `git` wrapper on
PATH makes each `ls-tree` slow, and the project's lease term is the shortest
the policy allows: the restore must renew its lease while it prepares.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from vibflow_testing.apply import (
    APP,
    APPLY,
    choose,
    confirm,
    drifted,
    ok_json,
    start,
)
from vibflow_testing.repo import write

LEASE_SECONDS = 5
SLOW_SECONDS = 3  # each ls-tree: two in a row outlast the lease without a renewal


def slow_git(tmp: Path) -> dict[str, str]:
    real = shutil.which("git")
    assert real is not None
    folder = tmp / "slow-bin"
    folder.mkdir()
    script = folder / "git"
    script.write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" ls-tree "*) sleep {SLOW_SECONDS};; esac\n'
        f'exec "{real}" "$@"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.mark.slow  # two 3-second ls-trees on purpose: `make test` runs it, not test-fast
def test_a_restore_renews_its_lease_while_it_reads_the_tree(repo: Path, tmp_path: Path) -> None:
    drifted(repo)
    write(repo, ".vibflow/policy.yaml", f"recovery:\n  lease_seconds: {LEASE_SECONDS}\n")
    at = choose(repo, start(repo), 4)
    done = ok_json(confirm(repo, at, env={**APPLY, **slow_git(tmp_path)}))
    assert done["status"] == "done", done.get("result")
    assert "aborted" not in done["result"]
    assert (repo / "src/services/auth.py").read_text(encoding="utf-8") == APP[
        "src/services/auth.py"
    ]
