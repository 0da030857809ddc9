"""``vibflow checkpoint ...`` and secrets, through the real CLI: ``create``/``show``/
``list`` say which files were left out and why (never their content), a message never
shows (nor is stored) with its token or private address — not even one an older version
stored raw — and ``diff`` redacts secret-shaped file names as ``recover`` does."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git, git_proc
from vibflow_testing.redaction import GHP
from vibflow_testing.repo import write

from vibflow.steps.checkpoints.models import META_MARKER, REF_PREFIX
from vibflow.steps.redaction import redact_payload

ENV_VALUE = "s3cr3t-do-not-print"
PRIVATE_IP = "10.0.0.7"
NO_BUDGET = "recovery:\n  checkpoints:\n    secrets:\n      scan_budget_mb: 0\n"


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


def everything(cli: Cli, cid: str) -> str:
    """All that show and list print about the checkpoints, text and JSON."""
    return "\n".join(
        ok(cli(*args)).stdout
        for args in (
            ("checkpoint", "show", cid),
            ("checkpoint", "show", cid, "--json"),
            ("checkpoint", "list"),
            ("checkpoint", "list", "--json"),
        )
    )


def test_show_and_list_name_left_out_files_and_why_not_their_content(repo: Path, cli: Cli) -> None:
    """A left-out .env and a file holding a token are named with the reason in create,
    show and list output; their content never appears."""
    write(repo, ".env", f"PASSWORD={ENV_VALUE}\n")
    write(repo, "src/conf.py", f"TOKEN = '{GHP}'\n")
    created = ok(cli("checkpoint", "create")).stdout
    assert "skipped .env: likely secret (its name matches .env)" in created
    assert "skipped src/conf.py: likely secret (it holds github_token)" in created
    cid = created.split()[2]
    commit = as_json(ok(cli("checkpoint", "show", cid, "--json")))["commit"]
    assert git_proc(repo, "show", f"{commit}:.env", check=False).returncode != 0
    shown = ok(cli("checkpoint", "show", cid)).stdout
    assert "skipped: 2 file(s) left out:" in shown
    assert "  skipped .env: likely secret (its name matches .env)" in shown
    listed = ok(cli("checkpoint", "list")).stdout
    assert f"{cid}" in listed
    assert "(2 left out: 2 likely secret)" in listed
    data = as_json(ok(cli("checkpoint", "show", cid, "--json")))
    assert data["skipped"] == [
        {"path": ".env", "reason": "secret_name", "size": None, "detail": ".env"},
        {"path": "src/conf.py", "reason": "secret_content", "size": None, "detail": "github_token"},
    ]
    out = everything(cli, cid) + created
    assert ENV_VALUE not in out
    assert GHP not in out


def test_a_message_with_a_token_and_a_private_ip_is_redacted(repo: Path, cli: Cli) -> None:
    """`checkpoint create -m` with a ghp_ token and a private IP: neither shows in create,
    show or list (text or JSON), nor is stored in the checkpoint commit."""
    created = as_json(
        ok(cli("checkpoint", "create", "-m", f"before agent {GHP} db {PRIVATE_IP}", "--json"))
    )
    cid = created["checkpoint_id"]
    assert created["message"].startswith("before agent [REDACTED:github_token] db ")
    out = everything(cli, cid)
    assert "before agent [REDACTED:github_token]" in out
    for raw in (GHP, PRIVATE_IP):
        assert raw not in out
        assert raw not in git(repo, "cat-file", "-p", created["commit"])


def test_a_message_an_older_version_stored_raw_is_shown_redacted(repo: Path, cli: Cli) -> None:
    """A checkpoint written before messages were redacted still holds the raw text: show
    and list redact it on the way out."""
    cid = "ckpt_" + "ab" * 16
    meta = {
        "checkpoint_id": cid,
        "created_at": "2026-01-01T00:00:00.000000Z",
        "message": f"old {GHP} at {PRIVATE_IP}",
        "reason": "manual",
    }
    tree = git(repo, "write-tree").strip()
    body = json.dumps({META_MARKER: meta})
    commit = git(repo, "commit-tree", tree, "-m", f"vibflow checkpoint {cid}", "-m", body).strip()
    git(repo, "update-ref", REF_PREFIX + cid, commit)
    out = everything(cli, cid)
    assert "old [REDACTED:github_token] at" in out
    assert GHP not in out
    assert PRIVATE_IP not in out


def test_diff_redacts_secret_shaped_file_names_as_recover_does(repo: Path, cli: Cli) -> None:
    """A file named like a token is shown by `checkpoint diff` (text and JSON) exactly as
    the recover payload shows it — redacted — never by its raw name."""
    cid = as_json(ok(cli("checkpoint", "create", "--json")))["checkpoint_id"]
    write(repo, f"notes/{GHP}.txt", "hello\n")
    write(repo, "README.md", "changed\n")
    text = ok(cli("checkpoint", "diff", cid)).stdout
    data = as_json(ok(cli("checkpoint", "diff", cid, "--json")))
    recover = ok(cli("recover", "--explain", "--json")).stdout
    assert GHP not in text
    assert GHP not in json.dumps(data)
    assert GHP not in recover
    shown = str(redact_payload(f"notes/{GHP}.txt", root=repo).value)
    assert "[REDACTED:" in shown
    assert f"added     {shown}  +1 -0" in text
    assert {c["path"] for c in data["changes"]} == {shown, "README.md"}
    assert shown in recover


def test_create_says_how_many_new_files_went_unscanned(repo: Path, cli: Cli) -> None:
    """Over the scan budget (0 here), create says how many new files were stored without a
    secret scan and the JSON counts them; the next checkpoint under the default scans."""
    write(repo, ".vibflow/policy.yaml", NO_BUDGET)
    write(repo, "notes.txt", "plain\n")
    text = ok(cli("checkpoint", "create")).stdout
    assert "1 new untracked file(s) stored without a secret scan" in text
    cid = text.split()[2]
    assert as_json(ok(cli("checkpoint", "show", cid, "--json")))["unscanned_count"] == 1
    (repo / ".vibflow/policy.yaml").unlink()
    write(repo, "notes.txt", "plain, edited\n")
    assert as_json(ok(cli("checkpoint", "create", "--json")))["unscanned_count"] == 0
