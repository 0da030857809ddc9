"""Recent commits as a recovery signal (DESIGN §4.2), on real repositories.

A changed file that a commit made *since the active intent was set* also
touched is a recent patch target (in the zone, never drift); commits from
before the intent — including ones that landed on HEAD afterwards but were
made earlier — say nothing about it. Empty or stale memory and a degraded
breaker ignore commits. The plan lists the newest few commits (subjects
redacted, never paths) and counts the rest; the audit row stays count-only.
Most tests run the real CLI against real git; the last few check the parser
on real ``git log`` output and the zone rule as a property.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import dated, git
from vibflow_testing.repo import write

from vibflow.steps.recovery.listings import recent_commits
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.signals import mark_since_intent
from vibflow.steps.recovery.zone import MemorySignals, RecentCommit, drift, infer_zone
from vibflow.steps.workspace.git import Git

FAKE_AWS_KEY = "AKIA" + "QX7RLM2VTB4NWZ9K"
APP = {
    "src/ui/login.py": "def render():\n    return '<form>'\n",
    "src/services/auth.py": "def check(u, p):\n    return len(p) >= 8\n",
    "lib/util.py": "def clamp(x):\n    return max(0, x)\n",
    "config.yaml": "shop:\n  currency: EUR\n",
}
COMMIT_KEYS = {"commit", "subject", "committed_at", "files_count", "since_intent"}
ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

# -- helpers ------------------------------------------------------------------------------


def commit(root: Path, message: str, files: dict[str, str], *, when: datetime | None = None) -> str:
    """Commit exactly ``files`` (written first); returns the short sha."""
    for rel, text in files.items():
        write(root, rel, text)
    git(root, "add", "--", *files)
    git(root, "commit", "-q", "-m", message, **(dated(when) if when else {}))
    return git(root, "rev-parse", "--short", "HEAD").strip()


def commit_app(root: Path, *, when: datetime | None = None) -> None:
    write(root, ".vibflow/.gitignore", "*\n")
    commit(root, "app", APP, when=when)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def set_memory(
    root: Path,
    *,
    updated: datetime,
    intent: str | None = "Make the login form accessible",
    explicit: dict[str, str] | None = None,
    head: str | None = None,
) -> None:
    """Write ``.vibflow/memory.json`` directly, for times and shapes the CLI cannot make."""
    stamp = iso(updated)
    data: dict[str, Any] = {"schema_version": 1}
    if intent is not None:
        data["active_intent"] = {"text": intent, "last_updated": stamp, "updated_by": "cli"}
        if head is not None:
            data["active_intent"]["head_at_update"] = head
    data["relevant_files"] = [
        {"path": p, "why": why, "source": "explicit", "last_updated": stamp, "updated_by": "cli"}
        for p, why in (explicit or {}).items()
    ]
    target = root / ".vibflow" / "memory.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def set_intent_via_cli(cli: Cli, *, relevant: str | None = "src/ui/login.py") -> None:
    """Set the intent the way a user does (it records the HEAD it was set on)."""
    assert cli("memory", "intent", "Make the login form accessible", "--yes").returncode == 0
    if relevant is not None:
        assert cli("memory", "relevant", relevant, "the form", "--yes").returncode == 0


def recover(cli: Cli, *args: str, cwd: Path | None = None) -> dict[str, Any]:
    proc = cli("recover", *args, "--json", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def zone_of(plan: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {z["path"]: z for z in plan["intent_zone"]}


def drift_of(plan: dict[str, Any]) -> set[str]:
    return {d["path"] for d in plan["drift_candidates"]}


def audit_rows(repo: Path) -> list[dict[str, Any]]:
    text = (repo / ".vibflow" / "audit.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def now() -> datetime:
    return datetime.now(UTC)


# -- commits since the intent widen the zone ------------------------------------------------


def test_commit_since_the_intent_makes_its_changed_files_recent_patch_targets(
    repo: Path, cli: Cli
) -> None:
    """A file a commit made after the intent touched, and changed again since, is in the
    zone as recent_patch_target with the commit's short sha in the reason — not drift;
    an untouched change outside the zone is still drift."""
    commit_app(repo)
    set_intent_via_cli(cli)
    sha = commit(
        repo, "agent: tighten auth", {"src/services/auth.py": "v2\n", "lib/util.py": "v2\n"}
    )
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "v3\n")
    write(repo, "config.yaml", "shop:\n  currency: USD\n")
    plan = recover(cli, "--explain")
    zone = zone_of(plan)
    assert zone["src/ui/login.py"]["source"] == "explicit"
    assert zone["src/services/auth.py"]["source"] == "recent_patch_target"
    assert zone["src/services/auth.py"]["reason"] == (
        f"touched by commit {sha} since the intent was set"
    )
    assert drift_of(plan) == {"config.yaml"}
    assert plan["memory_mode"] == "memory"
    newest = plan["recent_commits"][0]
    assert newest == {
        "commit": sha,
        "subject": "agent: tighten auth",
        "committed_at": newest["committed_at"],
        "files_count": 2,
        "since_intent": True,
    }
    assert [c["since_intent"] for c in plan["recent_commits"][1:]] == [False] * (
        len(plan["recent_commits"]) - 1
    )
    assert plan["recent_commits_since_intent"] == 1
    assert plan["recent_commits_since_intent_files"] == 2


def test_file_touched_by_a_commit_but_unchanged_now_is_not_listed(repo: Path, cli: Cli) -> None:
    """A file the commit since the intent touched but that has not changed since is not a
    changed file, not in the zone and not drift: commits widen the zone over the diff only."""
    commit_app(repo)
    set_intent_via_cli(cli)
    commit(repo, "agent: tighten auth", {"src/services/auth.py": "v2\n", "lib/util.py": "v2\n"})
    write(repo, "src/services/auth.py", "v3\n")
    plan = recover(cli, "--explain")
    assert {c["path"] for c in plan["changed"]} == {"src/services/auth.py"}
    assert "lib/util.py" not in zone_of(plan)
    assert "lib/util.py" not in drift_of(plan)
    assert zone_of(plan)["src/services/auth.py"]["source"] == "recent_patch_target"
    assert plan["recent_commits"][0]["files_count"] == 2


def test_commit_from_before_the_intent_does_not_widen_the_zone(repo: Path, cli: Cli) -> None:
    """A commit made just before the intent was set (same second even: the intent records
    the HEAD it was set on) is listed with since_intent false and leaves its file drift."""
    commit_app(repo)
    commit(repo, "earlier auth work", {"src/services/auth.py": "v2\n"})
    set_intent_via_cli(cli)
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "v3\n")
    plan = recover(cli, "--explain")
    assert "src/services/auth.py" in drift_of(plan)
    assert "src/services/auth.py" not in zone_of(plan)
    assert [c["since_intent"] for c in plan["recent_commits"]] == [False, False, False]
    assert plan["recent_commits_since_intent"] == 0
    assert "since the intent was set" not in cli("recover", "--explain").stdout


def test_commit_landed_after_the_intent_but_made_before_it_does_not_count(
    repo: Path, cli: Cli
) -> None:
    """A commit that lands on HEAD after the intent (as a fast-forward pull would) but was
    made an hour before it is not work on this intent: its file stays drift."""
    commit_app(repo)
    set_intent_via_cli(cli)
    commit(
        repo,
        "teammate's auth fix",
        {"src/services/auth.py": "v2\n"},
        when=now() - timedelta(hours=1),
    )
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "v3\n")
    plan = recover(cli, "--explain")
    assert plan["recent_commits"][0]["since_intent"] is False
    assert "src/services/auth.py" in drift_of(plan)


def test_without_a_recorded_head_the_commit_time_decides(repo: Path, cli: Cli) -> None:
    """Memory from before intents recorded their HEAD: a commit dated after the intent's
    time counts, one dated before it does not."""
    commit_app(repo, when=now() - timedelta(hours=2))
    commit(repo, "old auth work", {"src/services/auth.py": "v2\n"}, when=now() - timedelta(hours=1))
    new = commit(repo, "new util work", {"lib/util.py": "v2\n"})
    set_memory(repo, updated=now() - timedelta(minutes=10), explicit={"src/ui/login.py": "form"})
    for rel in ("src/ui/login.py", "src/services/auth.py", "lib/util.py"):
        write(repo, rel, "changed again\n")
    plan = recover(cli, "--explain")
    assert [c["since_intent"] for c in plan["recent_commits"][:2]] == [True, False]
    assert (
        zone_of(plan)["lib/util.py"]["reason"]
        == f"touched by commit {new} since the intent was set"
    )
    assert drift_of(plan) == {"src/services/auth.py"}


def test_explicit_stays_explicit_and_generated_stays_excluded(repo: Path, cli: Cli) -> None:
    """A commit since the intent that touched an explicit file and a build output changes
    neither: the explicit file keeps its explicit entry, the build output stays excluded."""
    commit_app(repo)
    set_intent_via_cli(cli)
    commit(repo, "agent: build", {"src/ui/login.py": "v2\n", "dist/bundle.js": "built\n"})
    write(repo, "src/ui/login.py", "v3\n")
    write(repo, "dist/bundle.js", "rebuilt\n")
    plan = recover(cli, "--explain")
    assert zone_of(plan)["src/ui/login.py"]["source"] == "explicit"
    assert plan["excluded_generated"] == ["dist/bundle.js"]
    assert "dist/bundle.js" not in zone_of(plan)
    assert "dist/bundle.js" not in drift_of(plan)


def test_exact_names_and_merges_since_the_intent(repo: Path, cli: Cli) -> None:
    """Non-ASCII names with spaces match exactly, and a merge since the intent counts as
    the one commit that brought its branch's files in (first-parent history)."""
    commit_app(repo)
    set_intent_via_cli(cli)
    odd = "src/ui/café menu.py"
    commit(repo, "agent: menu", {odd: "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side: auth", {"src/services/auth.py": "v2\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "main: util", {"lib/util.py": "v2\n"})
    git(repo, "merge", "-q", "--no-ff", "--no-edit", "side")
    merge = git(repo, "rev-parse", "--short", "HEAD").strip()
    for rel in (odd, "src/services/auth.py", "config.yaml"):
        write(repo, rel, "changed again\n")
    plan = recover(cli, "--explain")
    zone = zone_of(plan)
    assert zone[odd]["source"] == "recent_patch_target"
    assert zone["src/services/auth.py"]["reason"] == (
        f"touched by commit {merge} since the intent was set"
    )
    subjects = [c["subject"] for c in plan["recent_commits"]]
    assert "side: auth" not in subjects  # reached through the merge, not listed alone
    assert plan["recent_commits"][0]["files_count"] == 1
    assert drift_of(plan) == {"config.yaml"}


# -- repositories and modes where commits do not count -------------------------------------


def test_repo_with_no_commits_yet_has_no_recent_commits(tmp_path: Path, cli: Cli) -> None:
    """Before the first commit the plan works (exit 0, no traceback) and lists none."""
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "app.py", "print('hi')\n")
    set_memory(root, updated=now(), explicit={"app.py": "the app"})
    plan = recover(cli, "--explain", cwd=root)
    assert plan["recent_commits"] == []
    assert plan["recent_commits_total"] == 0
    assert plan["recent_commits_since_intent"] == 0
    human = cli("recover", "--explain", cwd=root)
    assert human.returncode == 0, human.stderr
    assert "Traceback" not in human.stdout + human.stderr


def test_empty_memory_ignores_commits(repo: Path, cli: Cli) -> None:
    """With no memory every change is diff_fallback, whatever the commits touched, and no
    commit is since an intent."""
    commit_app(repo)
    commit(repo, "agent: tighten auth", {"src/services/auth.py": "v2\n"})
    write(repo, "src/services/auth.py", "v3\n")
    write(repo, "config.yaml", "x: 1\n")
    plan = recover(cli, "--explain")
    assert plan["memory_mode"] == "diff_aware"
    assert {z["source"] for z in plan["intent_zone"]} == {"diff_fallback"}
    assert not any(c["since_intent"] for c in plan["recent_commits"])
    assert plan["recent_commits_total"] == 3


def test_stale_intent_ignores_commits_since_it(repo: Path, cli: Cli) -> None:
    """An intent set 30 h ago is stale: a commit made after it is reported as since the
    intent, but the zone is the diff (explicit files still explicit)."""
    commit_app(repo)
    set_memory(repo, updated=now() - timedelta(hours=30), explicit={"src/ui/login.py": "form"})
    commit(repo, "agent: tighten auth", {"src/services/auth.py": "v2\n"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "v3\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is True
    assert plan["memory_mode"] == "diff_aware"
    assert plan["recent_commits"][0]["since_intent"] is True
    assert zone_of(plan)["src/ui/login.py"]["source"] == "explicit"
    assert zone_of(plan)["src/services/auth.py"]["source"] == "diff_fallback"


DRIFT5 = [f"lib/mod{i}.py" for i in range(5)]


def test_degraded_breaker_ignores_commits(repo: Path, cli: Cli) -> None:
    """With drift labelling degraded, a file a commit since the intent touched is shown as
    diff_fallback like every other change; explicit files stay explicit."""
    commit_app(repo, when=now() - timedelta(hours=2))
    commit(repo, "more libs", dict.fromkeys(DRIFT5, "x\n"), when=now() - timedelta(hours=1))
    set_memory(repo, updated=now() - timedelta(minutes=10), explicit={"src/ui/login.py": "form"})
    commit(repo, "agent: tighten auth", {"src/services/auth.py": "v2\n"})
    for rel in ["src/ui/login.py", "src/services/auth.py", *DRIFT5]:
        write(repo, rel, "changed\n")
    first = recover(cli, "--preview")
    assert zone_of(first)["src/services/auth.py"]["source"] == "recent_patch_target"
    assert drift_of(first) == set(DRIFT5)
    for paths in (DRIFT5[:3], DRIFT5[3:]):
        plan_id = recover(cli, "--preview")["plan_id"]
        args = [a for p in paths for a in ("--wrong", p)]
        assert cli("recover", "feedback", plan_id, *args).returncode == 0
    plan = recover(cli, "--explain")
    assert plan["circuit_breaker_state"] == "degraded"
    assert zone_of(plan)["src/ui/login.py"]["source"] == "explicit"
    assert zone_of(plan)["src/services/auth.py"]["source"] == "diff_fallback"
    assert plan["drift_candidates"] == []


# -- the JSON shape, the human line, redaction, the audit row -------------------------------


def test_json_lists_the_newest_five_and_counts_a_bounded_window(repo: Path, cli: Cli) -> None:
    """Twelve commits: ten are read (the bound), the newest five are listed newest first,
    each with exactly its keys, an ISO UTC time and a file count; the root is not diffed."""
    commit_app(repo)
    for i in range(12):
        commit(repo, f"c{i}", {f"log/{i}.txt": f"{i}\n"})
    for mode in ("--explain", "--preview"):
        plan = recover(cli, mode)
        assert plan["recent_commits_total"] == 10
        shown = plan["recent_commits"]
        assert [c["subject"] for c in shown] == ["c11", "c10", "c9", "c8", "c7"]
        assert shown[0]["commit"] == git(repo, "rev-parse", "--short", "HEAD").strip()
        for c in shown:
            assert set(c) == COMMIT_KEYS
            assert ISO_Z.match(c["committed_at"])
            assert c["files_count"] == 1
            assert c["since_intent"] is False
        assert plan["recent_commits_since_intent"] == 0
        assert plan["recent_commits_since_intent_files"] == 0


def test_root_commit_is_listed_without_a_file_count(cli: Cli) -> None:
    """The repository's first commit is listed, but not diffed: files_count is null."""
    plan = recover(cli, "--explain")
    assert [c["subject"] for c in plan["recent_commits"]] == ["init"]
    assert plan["recent_commits"][0]["files_count"] is None


def test_human_output_has_one_short_line_about_commits_since_the_intent(
    repo: Path, cli: Cli
) -> None:
    """--explain says how many commits since the intent touched how many files, naming the
    newest, in one line that fits a terminal."""
    commit_app(repo)
    set_intent_via_cli(cli)
    commit(repo, "agent: a", {"src/services/auth.py": "v2\n", "lib/util.py": "v2\n"})
    newest = commit(repo, "agent: b", {"src/services/auth.py": "v3\n", "config.yaml": "x: 2\n"})
    write(repo, "src/services/auth.py", "v4\n")
    out = cli("recover", "--explain").stdout
    lines = [line for line in out.splitlines() if "since the intent was set touched" in line]
    assert lines == [f"2 commits since the intent was set touched 3 files (newest {newest})."]
    assert len(lines[0]) <= 80


def test_secret_in_a_commit_subject_is_redacted_everywhere(repo: Path, cli: Cli) -> None:
    """A fake AWS key in a commit subject never reaches --json, the human output,
    last_preview.json or the audit rail; the subject is shown redacted and counted."""
    commit_app(repo)
    commit(repo, f"rotate deploy key {FAKE_AWS_KEY}", {"lib/util.py": "v2\n"})
    write(repo, "lib/util.py", "v3\n")
    proc = cli("recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    assert FAKE_AWS_KEY not in proc.stdout
    plan = as_json(proc)
    subject = plan["recent_commits"][0]["subject"]
    assert subject.startswith("rotate deploy key ")
    assert "REDACTED" in subject
    assert plan["redaction"]["secret_hits"] >= 1
    stored = (repo / ".vibflow" / "recovery" / "last_preview.json").read_text(encoding="utf-8")
    assert FAKE_AWS_KEY not in stored
    assert "REDACTED" in json.loads(stored)["plan"]["recent_commits"][0]["subject"]
    explain = cli("recover", "--explain", "--json")
    assert explain.returncode == 0, explain.stderr
    assert FAKE_AWS_KEY not in explain.stdout
    assert FAKE_AWS_KEY not in cli("recover", "--explain").stdout
    audit = (repo / ".vibflow" / "audit.jsonl").read_text(encoding="utf-8")
    assert FAKE_AWS_KEY not in audit


def test_audit_row_gains_no_commit_subject_sha_or_path(repo: Path, cli: Cli) -> None:
    """The recovery_preview audit row stays count-only: no commit subject, sha or path."""
    commit_app(repo)
    set_intent_via_cli(cli)
    sha = commit(repo, "agent: tighten zebrafish", {"src/services/auth.py": "v2\n"})
    write(repo, "src/services/auth.py", "v3\n")
    recover(cli, "--preview")
    row = audit_rows(repo)[-1]
    assert row["event"] == "recovery_preview"
    assert set(row["paths_count"]) == {"in_zone", "drift", "total"}
    raw = json.dumps(row)
    for text in ("zebrafish", sha, "auth", "src/", "recent_commits", "subject"):
        assert text not in raw


# -- the parser on real git output, and the zone rule as a property -------------------------


def test_parser_reads_odd_names_empty_commits_and_separators_exactly(tmp_path: Path) -> None:
    """On real `git log` output: a name starting with a newline, tabs and non-ASCII, an
    empty commit (0 files), a subject holding the field separator, a root commit (not
    diffed) — all read exactly."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.invalid")
    git(root, "config", "user.name", "Dev")
    commit(root, "root", {"a.txt": "a\n"})
    git(root, "commit", "-q", "--allow-empty", "-m", "empty")
    odd = ["\nleading newline.txt", "tab\there.txt", "ünï cödé.txt"]
    commit(root, "odd \x1f subject", dict.fromkeys(odd, "x\n"))
    git(root, "mv", "a.txt", "b.txt")
    git(root, "commit", "-q", "-m", "rename")
    head = git(root, "rev-parse", "HEAD").strip()
    commits = recent_commits(Git(root), head)
    assert [c.subject for c in commits] == ["rename", "odd \x1f subject", "empty", "root"]
    assert commits[0].paths == ("a.txt", "b.txt")  # both names of a rename are touched
    assert set(commits[1].paths) == set(odd)
    assert commits[1].files_count == 3
    assert (commits[2].paths, commits[2].files_count) == ((), 0)
    assert (commits[3].paths, commits[3].files_count) == ((), None)
    assert commits[0].sha == head
    assert recent_commits(Git(root), None) == []


def _c(i: int, paths: list[str], since: bool) -> RecentCommit:
    return RecentCommit(
        f"{i:040x}", f"{i:07x}", f"c{i}", 1000.0 + i, tuple(paths), len(paths), since
    )


def test_since_intent_needs_both_a_later_time_and_a_newer_place_on_the_line() -> None:
    """With the intent's HEAD in the window, only newer commits made at or after its time
    count; without it (or not found), only commits strictly after its time; with no
    intent time, none count."""
    line = [_c(5, [], False), _c(4, [], False), _c(3, [], False), _c(2, [], False)]
    anchor = line[2].sha
    assert [c.since_intent for c in mark_since_intent(line, 1003.0, anchor)] == [
        True,
        True,
        False,
        False,
    ]
    assert [c.since_intent for c in mark_since_intent(line, 1005.0, anchor)] == [
        True,
        False,
        False,
        False,
    ]
    # Without the intent's HEAD, a commit in the intent's own second may predate it.
    assert [c.since_intent for c in mark_since_intent(line, 1003.0, None)] == [
        True,
        True,
        False,
        False,
    ]
    assert [c.since_intent for c in mark_since_intent(line, 1003.0, "f" * 40)] == [
        True,
        True,
        False,
        False,
    ]
    assert not any(c.since_intent for c in mark_since_intent(line, None, anchor))


CATEGORIES = {"ui": ["**/ui/**"], "service": ["**/services/**"], "docs": ["**/*.md"]}
PATHS = [d + n for d in ("", "src/ui/", "src/services/", "lib/", "dist/") for n in ("a.py", "b.md")]


@st.composite
def zone_inputs(
    draw: Any,
) -> tuple[list[ChangedFile], MemorySignals, list[RecentCommit]]:
    chosen = draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=8))
    changed = [
        ChangedFile(path=p, status="modified", generated=p.startswith("dist/")) for p in chosen
    ]
    explicit = draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=3))
    recent = draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=2))
    memory = MemorySignals(dict.fromkeys(explicit, "why"), recent, draw(st.booleans()))
    commits = [
        _c(i, draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=4)), draw(st.booleans()))
        for i in range(draw(st.integers(0, 4)))
    ]
    return changed, memory, commits


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(zone_inputs())
def test_only_commits_since_the_intent_and_usable_memory_change_the_zone(
    inputs: tuple[list[ChangedFile], MemorySignals, list[RecentCommit]],
) -> None:
    """For any changes, memory and commits: commits from before the intent change nothing;
    with unusable memory no commit changes anything; a commit entry is always a changed,
    non-generated file; explicit files are never drift."""
    changed, memory, commits = inputs
    with_all = infer_zone(changed, memory, CATEGORIES, commits)
    since_only = infer_zone(changed, memory, CATEGORIES, [c for c in commits if c.since_intent])
    assert with_all == since_only
    if not memory.usable:
        assert with_all == infer_zone(changed, memory, CATEGORIES)
    live = {c.path for c in changed if not c.generated}
    for entry in with_all:
        if entry.reason.startswith("touched by commit"):
            assert entry.path in live
    explicit = set(memory.explicit)
    for cand in drift(changed, with_all, memory, CATEGORIES):
        assert cand.path not in explicit
