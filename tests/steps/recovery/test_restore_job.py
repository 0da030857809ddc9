"""A restore's state between choice and apply is one persisted, typed job.

Pins the shape of issue 10: the job file is written atomically with a unique
temp name; the lease the lock guard took is found again from the lease file
(same process, same operation and generation) — never from process-local
state — and a lease held by another process is never adopted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vibflow.engine.journal import Owner
from vibflow.steps.recovery.job import RestoreJob, RestoreJobs
from vibflow.steps.recovery.lease import LeaseFile

RUN = "run_" + "ab" * 16


def job(**extra: object) -> RestoreJob:
    fields: dict[str, object] = {
        "run_id": RUN,
        "option_id": "opt_1",
        "level": 3,
        "paths": ["a.py", "b/c.py"],
        "deletes": ["b/c.py"],
        "from_checkpoint": "ckpt_1",
        **extra,
    }
    return RestoreJob.model_validate(fields)


def test_a_saved_job_reads_back_equal_and_leaves_no_temp_file(tmp_path: Path) -> None:
    """save() then load() gives the same job; the folder holds only the job file."""
    jobs = RestoreJobs(tmp_path / "jobs")
    saved = jobs.save(job(operation_id="op_x", lease_generation=4, checked_paths=["a.py"]))
    assert jobs.load(RUN) == saved
    assert [p.name for p in (tmp_path / "jobs").iterdir()] == [f"{RUN}.json"]


def test_a_missing_torn_or_foreign_job_reads_as_none(tmp_path: Path) -> None:
    """No file, half a file or a file of another shape is no job (the guards refuse)."""
    jobs = RestoreJobs(tmp_path)
    assert jobs.load(RUN) is None
    (tmp_path / f"{RUN}.json").write_text('{"run_id": "run_', encoding="utf-8")
    assert jobs.load(RUN) is None
    (tmp_path / f"{RUN}.json").write_text('{"paths": 3}', encoding="utf-8")
    assert jobs.load(RUN) is None


def test_a_job_written_before_the_run_id_was_stored_still_loads(tmp_path: Path) -> None:
    """An older job file (no run_id, no schema_version) is read for its own run."""
    legacy = {"option_id": "o", "level": 3, "paths": ["a"], "deletes": [], "from_checkpoint": "c"}
    (tmp_path / f"{RUN}.json").write_text(json.dumps(legacy), encoding="utf-8")
    loaded = RestoreJobs(tmp_path).load(RUN)
    assert loaded is not None
    assert (loaded.run_id, loaded.paths) == (RUN, ["a"])


def test_a_job_file_name_is_never_built_from_free_text(tmp_path: Path) -> None:
    """Only a run id names a job file: '../x' cannot write outside the jobs folder."""
    with pytest.raises(ValueError, match="not a run id"):
        RestoreJobs(tmp_path / "jobs").save(job(run_id="../escape"))
    assert not (tmp_path / "escape.json").exists()


def test_the_lease_is_adopted_by_the_same_process_for_its_operation_only(tmp_path: Path) -> None:
    """adopt() returns the held lease for its operation and generation, nothing else."""
    leases = LeaseFile(tmp_path)
    held = leases.acquire("op_a")
    adopted = leases.adopt("op_a", held.record.generation)
    assert adopted is not None
    assert adopted.record == held.record
    assert leases.adopt("op_b", held.record.generation) is None
    assert leases.adopt("op_a", held.record.generation + 1) is None
    adopted.check()  # the adopted handle is the holder: ownership checks pass
    assert adopted.release()
    assert leases.adopt("op_a", held.record.generation) is None


def test_a_lease_held_by_another_process_is_never_adopted(tmp_path: Path) -> None:
    """A lease taken in a child process is not adopted here, even with its operation id."""
    script = (
        "import json, sys; from pathlib import Path\n"
        "from vibflow.steps.recovery.lease import LeaseFile\n"
        "lease = LeaseFile(Path(sys.argv[1])).acquire('op_child')\n"
        "print(json.dumps(lease.record.generation))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    generation = json.loads(out.stdout)
    leases = LeaseFile(tmp_path)
    assert leases.adopt("op_child", generation) is None
    someone = Owner(os.getpid() + 1, "elsewhere", "0", "token")
    held = leases.acquire("op_mine")  # the child is dead: its lease is taken over
    assert leases.adopt("op_mine", held.record.generation, owner=someone) is None
