"""`vibflow audit summary` and `vibflow audit retain` on real projects: samples come
from real applies and handoffs, a planted occurrence fails the summary, a damaged
log needs review, and a retention killed at each step leaves a log that verifies
and finishes on the next run."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.apply import confirm, drifted, ok_json, to_confirm
from vibflow_testing.cli import as_json, vf

from vibflow.engine.audit import AuditLog, project_root_hash
from vibflow.engine.journal import Journal


def log_of(repo: Path, days_ago: float = 0) -> AuditLog:
    """The project's audit log, appended to through the AuditLog API (anchored in its
    journal), stamping rows ``days_ago``."""
    when = datetime.now(UTC) - timedelta(days=days_ago)
    journal = Journal(repo / ".vibflow" / "runs.db")
    return AuditLog(
        repo / ".vibflow" / "audit.jsonl",
        project_root_hash=project_root_hash(repo),
        clock=lambda: when,
        anchor=lambda: journal,
    )


def slos(data: dict[str, Any]) -> dict[str, tuple[int, int, str]]:
    return {s["slo_id"]: (s["sample_count"], s["occurrences"], s["result"]) for s in data["slos"]}


def summary(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = vf(repo, "audit", "summary", "--json", *args)
    return proc.returncode, as_json(proc)


def test_a_real_apply_and_handoff_are_samples_and_plants_fail(repo: Path) -> None:
    """A guarded restore is a sandwich sample and a memory→action sample, and a handoff
    a stale-intent sample (all pass); an apply without sandwich and a failed MCP re-scan,
    planted, fail their SLOs."""
    drifted(repo)
    assert confirm(repo, to_confirm(repo)).returncode == 0
    assert vf(repo, "handoff").returncode == 0
    code, data = summary(repo)
    assert code == 0, data
    got = slos(data)
    assert got["sandwich_enforcement"] == (1, 0, "pass")
    assert got["stale_intent"] == (1, 0, "pass")
    assert got["mcp_redaction"] == (0, 0, "no_samples")
    assert got["memory_as_instruction"] == (1, 0, "pass")  # the apply's memory_free check

    log = log_of(repo)
    log.append("mcp.memory_summary_read", result="ok")
    log.append("mcp.memory_full_read", result="ok")
    assert slos(summary(repo)[1])["mcp_redaction"] == (2, 0, "pass")
    log.append("mcp.rescan", result="failed")
    log.append(
        "transition",
        run_id="run_" + "e" * 32,
        flow="restore",
        transition_seq=5,
        from_state="confirm",
        via="confirm",
        to_state="apply",
        result="ok",
    )
    code, data = summary(repo)
    assert code == 1
    got = slos(data)
    assert got["mcp_redaction"] == (2, 1, "fail")
    assert got["sandwich_enforcement"] == (2, 1, "fail")
    text = vf(repo, "audit", "summary").stdout
    assert "sandwich_enforcement" in text
    assert "FAIL" in text


def test_a_tampered_log_needs_review(repo: Path) -> None:
    """An edited row makes every SLO `needs_review`, exit 1, and says the log needs review."""
    drifted(repo)
    audit = repo / ".vibflow" / "audit.jsonl"
    lines = audit.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace('"ok"', '"failed"')
    audit.write_text("".join(lines))
    code, data = summary(repo)
    assert code == 1
    assert {s["result"] for s in data["slos"]} == {"needs_review"}
    proc = vf(repo, "audit", "summary")
    assert proc.returncode == 1
    assert "audit log needs review" in proc.stdout


def old_history(repo: Path) -> None:
    """Rows 120 and 100 days old (one an apply without sandwich), then today's."""
    log_of(repo, 120).append("memory_write", result="ok")
    log_of(repo, 100).append(
        "transition",
        run_id="run_" + "f" * 32,
        flow="recover",
        transition_seq=7,
        from_state="confirm",
        via="confirm",
        to_state="apply",
        result="ok",
    )
    log_of(repo, 1).append("handoff_written", result="ok", intent_stale=False)
    log_of(repo, 0).append("memory_write", result="ok")


def test_retain_dry_run_then_retain_then_verify(repo: Path) -> None:
    """`retain --dry-run` changes nothing; `retain` compacts the two old rows; verify and a
    150-day summary agree before and after."""
    old_history(repo)
    audit = repo / ".vibflow" / "audit.jsonl"
    before = audit.read_bytes()
    wide = summary(repo, "--window", "150")[1]
    dry = vf(repo, "audit", "retain", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.startswith("would roll over 2 rows (sequence 1..2")
    assert audit.read_bytes() == before
    done = ok_json(vf(repo, "audit", "retain", "--json"))
    assert (done["compact_rows"], done["compact_first_seq"], done["compact_last_seq"]) == (
        1 + 1,
        1,
        2,
    )
    verified = ok_json(vf(repo, "audit", "verify", "--json"))
    assert verified["ok"] is True
    assert (verified["first_sequence"], verified["rolled_over_rows"]) == (3, 2)
    assert "rolled over into 1 count-only summaries" in vf(repo, "audit", "verify").stdout
    after = summary(repo, "--window", "150")[1]
    assert slos(after) == slos(wide)
    assert slos(after)["sandwich_enforcement"] == (1, 1, "fail")
    assert slos(summary(repo)[1])["sandwich_enforcement"] == (0, 0, "no_samples")
    assert vf(repo, "audit", "retain").stdout.startswith("nothing to roll over")


@pytest.mark.parametrize("step", [1, 2])
def test_a_killed_retain_leaves_a_log_that_verifies_and_finishes_next_time(
    repo: Path, step: int
) -> None:
    """SIGKILL after the summary is written (1) or after the log is rewritten (2): the log
    verifies, the counts are unchanged, and the next retain finishes the job."""
    old_history(repo)
    wide = slos(summary(repo, "--window", "150")[1])
    killed = vf(repo, "audit", "retain", env={"VIBFLOW_CRASH_AT": f"retain:{step}"})
    assert killed.returncode == -9, (killed.returncode, killed.stdout, killed.stderr)
    assert list((repo / ".vibflow" / "recovery" / "audit_rollover").glob("*.json"))
    assert ok_json(vf(repo, "audit", "verify", "--json"))["ok"] is True
    assert slos(summary(repo, "--window", "150")[1]) == wide
    again = ok_json(vf(repo, "audit", "retain", "--json"))
    assert again["compact_rows"] + again["leftover_rows"] in (0, 2)
    if step == 1:
        assert (again["compact_rows"], again["leftover_rows"]) == (0, 2)
    verified = ok_json(vf(repo, "audit", "verify", "--json"))
    assert verified["ok"] is True
    assert verified["first_sequence"] == 3
    assert len(list((repo / ".vibflow" / "recovery" / "audit_rollover").glob("*.json"))) == 1
    assert slos(summary(repo, "--window", "150")[1]) == wide


def test_retain_refuses_a_broken_log(repo: Path) -> None:
    """A log with a deleted row is evidence: retain exits 1 and changes nothing."""
    old_history(repo)
    audit = repo / ".vibflow" / "audit.jsonl"
    lines = audit.read_bytes().splitlines(keepends=True)
    audit.write_bytes(b"".join(lines[:1] + lines[2:]))
    proc = vf(repo, "audit", "retain")
    assert proc.returncode == 1
    assert "audit log needs review" in proc.stderr + proc.stdout
    assert json.loads(audit.read_bytes().splitlines()[0])["sequence_number"] == 1


def test_drift_feedback_labels_are_samples_and_an_explicit_file_in_drift_fails(
    repo: Path,
) -> None:
    """`recover feedback` writes its judged labels as drift-label samples; when the preview
    the user judged had put an explicit relevant file in drift (a planner bug, simulated
    by editing the kept preview), the summary counts the occurrence."""
    drifted(repo)
    plan = ok_json(vf(repo, "recover", "--preview", "--json"))
    drift = sorted(plan["feedback_paths"])
    assert "src/ui/login.py" not in drift  # explicit: the planner keeps it in scope
    proc = vf(
        repo, "recover", "feedback", plan["plan_id"], "--correct", drift[0], "--wrong", drift[1]
    )
    assert proc.returncode == 0, proc.stderr
    assert slos(summary(repo)[1])["drift_label"] == (2, 0, "pass")

    kept = repo / ".vibflow" / "recovery" / "last_preview.json"
    body = json.loads(kept.read_text())
    body["plan"]["feedback_paths"].append("src/ui/login.py")
    kept.write_text(json.dumps(body))
    proc = vf(repo, "recover", "feedback", plan["plan_id"], "--correct", "src/ui/login.py")
    assert proc.returncode == 0, proc.stderr
    code, data = summary(repo)
    assert code == 1
    assert slos(data)["drift_label"] == (3, 1, "fail")


def test_recovery_explain_is_a_stale_intent_sample_read_from_its_text(repo: Path) -> None:
    """`recover` (explain) that shows the intent is a stale-intent sample; a stale intent
    it labels [STALE] passes; --json and --preview, which print no intent line, are none."""
    drifted(repo)
    assert vf(repo, "recover").returncode == 0
    assert vf(repo, "recover", "--json").returncode == 0
    assert vf(repo, "recover", "--preview").returncode == 0
    assert slos(summary(repo)[1])["stale_intent"] == (1, 0, "pass")
    memory = repo / ".vibflow" / "memory.json"
    data = json.loads(memory.read_text("utf-8"))
    when = datetime.now(UTC) - timedelta(hours=30)
    data["active_intent"]["last_updated"] = when.isoformat(timespec="seconds").replace(
        "+00:00", "Z"
    )
    memory.write_text(json.dumps(data), "utf-8")
    shown = vf(repo, "recover")
    assert "[STALE]" in shown.stdout
    rows = [json.loads(r) for r in (repo / ".vibflow" / "audit.jsonl").read_text().splitlines()]
    last = [r for r in rows if r["event"] == "recovery_explain"][-1]
    assert (last["intent_stale"], last["stale_labelled"]) == (True, True)
    assert slos(summary(repo)[1])["stale_intent"] == (2, 0, "pass")
