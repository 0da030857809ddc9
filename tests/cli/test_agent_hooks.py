"""The agents' hooks, driven as the agents drive them: the documented JSON payloads
(``tests/agents/payloads/``) piped into ``python -m vibflow agent hook AGENT EVENT``
as real subprocesses on a real git repository — install, turns (tool edits, a shell
edit, a deletion, a new file, the user's own edit), rewind, undo — and the cases a
hook must survive without failing the agent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.agents import payload, wait_for_touched
from vibflow_testing.agents import run_hook as hook
from vibflow_testing.cli import as_json, clean_env, vf
from vibflow_testing.paths import corpus_rows
from vibflow_testing.repo import init_repo, write

APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}

pytestmark = pytest.mark.cli


def tree(root: Path) -> dict[str, bytes]:
    """Every file of the work tree (vibflow's state and git's left out), byte for byte."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.split("/")[0] in (".git", ".vibflow") or not path.is_file():
            continue
        out[rel] = path.read_bytes()
    return out


def status(root: Path) -> dict[str, Any]:
    proc = vf(root, "agent", "status", "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(
        tmp_path / "proj",
        {"src/app.py": "app = 1\n", "src/util.py": "util = 1\n", "notes.md": "my notes\n"},
        old=True,
    )


@pytest.mark.parametrize("agent", ["claude-code", "gemini"])
def test_install_turns_rewind_undo_round_trip(repo: Path, agent: str) -> None:
    """Installed hooks fed the agent's payloads record every turn; rewinding to before
    turn 1 restores the tree byte for byte except the user's own edit (kept and named),
    and undo brings the later tree back byte for byte."""
    proc = vf(repo, "agent", "install", agent, "--json")
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["changed"] is True
    hook(repo, agent, "session-start")
    hook(repo, agent, "turn-start")
    before_turn_1 = tree(repo)
    write(repo, "src/app.py", "app = 2  # the agent's edit\n")
    hook(repo, agent, "edit", repo / "src" / "app.py")
    write(repo, "src/util.py", "util = 'shell'\n")  # a shell edit: no tool reports it
    hook(repo, agent, "turn-end")
    write(repo, "notes.md", "my notes, and more of mine\n")  # the user's own edit
    hook(repo, agent, "turn-start")
    write(repo, "src/new.py", "new = 1\n")
    hook(repo, agent, "write", repo / "src" / "new.py")
    (repo / "src" / "app.py").unlink()  # a deletion by the agent's shell
    hook(repo, agent, "turn-end")
    after_turn_2 = tree(repo)

    listed = as_json(vf(repo, "rewind", "--json"))
    turns = {t["turn"]: t for t in listed["turns"]}
    assert turns[1]["reported"] == ["src/app.py"]
    assert turns[1]["unreported"] == ["src/util.py"]
    assert turns[1]["yours_after"] == ["notes.md"]
    assert turns[2]["reported"] == ["src/new.py"]
    assert turns[2]["unreported"] == ["src/app.py"]
    assert turns[2]["changed_outside_tools"] is True

    started = vf(repo, "rewind", "1", "--json", env=APPLY)
    assert started.returncode == 0, started.stderr
    run = as_json(started)
    assert run["restore"]["yours_kept"] == ["notes.md"]
    expected = run["confirmation_expected"]
    done = vf(repo, "step", run["run_id"], "confirm", "-i", f"confirmation={expected}", env=APPLY)
    assert done.returncode == 0, done.stderr
    assert tree(repo) == {**before_turn_1, "notes.md": after_turn_2["notes.md"]}

    undo = vf(repo, "undo", "--json", env=APPLY)
    run = as_json(undo)
    expected = run["confirmation_expected"]
    done = vf(repo, "step", run["run_id"], "confirm", "-i", f"confirmation={expected}", env=APPLY)
    assert done.returncode == 0, done.stderr
    assert tree(repo) == after_turn_2


def test_rewind_overwrites_the_users_edit_only_when_named(repo: Path) -> None:
    """A file the user edited after the turn is restored only with --include-mine, and
    the preview names it as overwritten before the confirmation."""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/app.py", "app = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "app.py")
    hook(repo, "claude-code", "turn-end")
    write(repo, "notes.md", "mine\n")
    text = vf(repo, "rewind", "1", "--include-mine", env=APPLY)
    assert text.returncode == 0, text.stderr
    assert "YOUR OWN EDITS after the turn that this overwrites" in text.stdout
    assert "notes.md" in text.stdout
    run = as_json(vf(repo, "rewind", "1", "--include-mine", "--json", env=APPLY))
    assert run["restore"]["yours_overwritten"] == ["notes.md"]
    expected = run["confirmation_expected"]
    done = vf(repo, "step", run["run_id"], "confirm", "-i", f"confirmation={expected}", env=APPLY)
    assert done.returncode == 0, done.stderr
    assert (repo / "notes.md").read_text() == "my notes\n"
    assert (repo / "src" / "app.py").read_text() == "app = 1\n"


def test_settings_round_trip_keeps_the_users_hooks(repo: Path) -> None:
    """Install merges into the user's settings (their hooks and keys kept, idempotent);
    uninstall restores the file byte for byte."""
    original = (
        b'{\n    "model": "opus",\n    "hooks": {\n        "Stop": [\n'
        b'            {"hooks": [{"type": "command", "command": "say done"}]}\n'
        b'        ],\n        "PostToolUse": [\n            {"matcher": "Bash", '
        b'"hooks": [{"type": "command", "command": "./lint.sh"}]}\n        ]\n    }\n}\n'
    )
    write(repo, ".claude/settings.json", original)
    assert vf(repo, "agent", "install", "claude-code").returncode == 0
    data = json.loads((repo / ".claude" / "settings.json").read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["Stop"][0]["hooks"][0]["command"] == "say done"
    assert data["hooks"]["PostToolUse"][0]["matcher"] == "Bash"
    commands = [h["command"] for g in data["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert commands == ["vibflow agent hook claude-code turn-start"]
    once = (repo / ".claude" / "settings.json").read_bytes()
    again = as_json(vf(repo, "agent", "install", "claude-code", "--json"))
    assert again["changed"] is False
    assert (repo / ".claude" / "settings.json").read_bytes() == once
    assert vf(repo, "agent", "uninstall", "claude-code").returncode == 0
    assert (repo / ".claude" / "settings.json").read_bytes() == original


def test_uninstall_keeps_a_hook_the_user_added_after_install(repo: Path) -> None:
    """A hook the user added after install survives uninstall; a file install created is
    removed again, with its folder."""
    assert vf(repo, "agent", "install", "claude-code", "--local").returncode == 0
    settings = repo / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    data["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "say done"})
    settings.write_text(json.dumps(data, indent=2) + "\n")
    assert vf(repo, "agent", "uninstall", "claude-code", "--local").returncode == 0
    left = json.loads(settings.read_text())
    assert left == {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}
    settings.unlink()
    assert vf(repo, "agent", "install", "gemini").returncode == 0
    assert vf(repo, "agent", "uninstall", "gemini").returncode == 0
    assert not (repo / ".gemini").exists()


def test_gemini_hook_prints_json_and_claude_prints_nothing(repo: Path) -> None:
    """Gemini CLI parses a hook's stdout as JSON; Claude Code would add it to the prompt."""
    assert hook(repo, "gemini", "turn-start").stdout.strip() == b"{}"
    assert hook(repo, "claude-code", "turn-start").stdout == b""


def test_hook_survives_a_broken_state_folder(repo: Path) -> None:
    """.vibflow/ being a file: the hook exits 0 and status shows the problem."""
    (repo / ".vibflow").write_text("not a folder")
    hook(repo, "claude-code", "turn-start")
    (repo / ".vibflow").unlink()
    problems = status(repo)["problems"]
    assert any(".vibflow/ is not usable" in p["problem"] for p in problems)


def test_hook_survives_damaged_records(repo: Path) -> None:
    """A damaged agents.db is set aside, a fresh one started, the turn still recorded."""
    state = repo / ".vibflow"
    state.mkdir()
    (state / "agents.db").write_bytes(b"this is not a database at all" * 100)
    hook(repo, "claude-code", "turn-start")
    found = status(repo)
    assert found["turns"] == 1
    assert any("set aside" in p["problem"] for p in found["problems"])


def test_hook_survives_a_busy_lease(repo: Path) -> None:
    """A restore holding the lease: the turn is recorded without a checkpoint, and says why."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path;"
            "from vibflow.steps.recovery.lease import LeaseFile;"
            "lease = LeaseFile(Path(sys.argv[1]), ttl_seconds=300).acquire('op_test');"
            "print('held', flush=True); time.sleep(60)",
            str(repo / ".vibflow" / "recovery"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        hook(repo, "claude-code", "turn-start")
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    found = status(repo)
    assert found["last_turn"]["checkpoint_id"] is None
    assert "lease" in found["last_turn"]["note"]
    assert any("lease" in p["problem"] for p in found["problems"])


def test_hook_survives_missing_git(repo: Path) -> None:
    """No git on PATH: exit 0, and the problem is noted where status finds it."""
    env = clean_env(PATH=str(Path(sys.executable).parent))
    (repo / ".vibflow").mkdir()
    hook(repo, "claude-code", "turn-start", env=env)
    problems = status(repo)["problems"]
    assert any("git" in p["problem"] for p in problems)


def test_hook_survives_unreadable_payloads(repo: Path) -> None:
    """Not JSON, not an object, an unknown event: exit 0 each, noted for status."""
    hook(repo, "claude-code", "turn-start", raw=b"{not json")
    hook(repo, "claude-code", "turn-start", raw=b"[1, 2]")
    proc = subprocess.run(
        [sys.executable, "-m", "vibflow", "agent", "hook", "claude-code"],
        input=b'{"hook_event_name": "Notification", "session_id": "x"}',
        cwd=repo,
        env=clean_env(),
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0
    problems = [p["problem"] for p in status(repo)["problems"]]
    assert "the hook input is not JSON" in problems
    assert "the hook input is not a JSON object" in problems


#: Rules that do not refuse a hook's path (it is trusted with absolute paths and may
#: touch generated files) or that need links the corpus test builds itself.
TRUSTED_OK = {"absolute_not_allowed", "generated", "symlink_escape", "symlink_loop"}


def hostile_corpus(root: Path, outside: Path) -> list[str]:
    return [
        str(case["path"]).replace("<ROOT>", str(root)).replace("<OUTSIDE>", str(outside))
        for case in corpus_rows("hostile.jsonl")
        if case["rule"] not in TRUSTED_OK
    ]


def test_hostile_paths_are_counted_by_rule_never_stored(repo: Path) -> None:
    """Every path of the hostile corpus in one Write payload: exit 0, none stored, each
    refusal counted by its rule (the path itself never written anywhere)."""
    links = {"into_git": ".git/config", "into_git_dir": ".git", "to_root": "."}
    links["into_vibflow"] = ".vibflow/runs.db"
    for link, target in links.items():
        (repo / link).symlink_to(target)
    hook(repo, "claude-code", "turn-start")
    corpus = hostile_corpus(repo, repo.parent / "outside")
    for raw in corpus[:5]:  # a few as the documented Write payload itself
        data = json.loads(payload("claude-code", "write", repo, ""))
        data["tool_input"]["file_path"] = raw
        hook(repo, "claude-code", "write", raw=json.dumps(data).encode())
    # The rest in one call of a tool that lists its files per edit (an MCP server's).
    data = json.loads(payload("claude-code", "write", repo, ""))
    data["tool_name"] = "mcp__files__write_many"
    data["tool_input"] = {"edits": [{"file_path": raw} for raw in corpus[5:]]}
    hook(repo, "claude-code", "write", raw=json.dumps(data).encode())
    found = status(repo)
    assert found["last_turn"]["files_reported"] == 0
    problems = [p["problem"] for p in found["problems"]]
    assert any("path contract refused" in p for p in problems)
    log = (repo / ".vibflow" / "agents" / "problems.jsonl").read_text("utf-8")
    assert "/etc/passwd" not in log
    assert str(repo) not in log


def test_agent_run_records_one_turn_and_passes_the_status(repo: Path) -> None:
    """`agent run -- CMD` takes a checkpoint before and after CMD, records one turn of its
    own session, and exits with CMD's status."""
    script = "open('src/app.py', 'w').write('run = 1\\n'); raise SystemExit(3)"
    proc = vf(repo, "agent", "run", "--", sys.executable, "-c", script)
    assert proc.returncode == 3, proc.stderr
    listed = as_json(vf(repo, "rewind", "--json"))
    (turn,) = listed["turns"]
    assert turn["unreported"] == ["src/app.py"]
    assert turn["checkpoint_before"]
    assert turn["checkpoint_after"]
    assert listed["session"]["agent"] == Path(sys.executable).name.lower().replace(".", "-")


def test_checkpoint_list_filters_turn_checkpoints(repo: Path) -> None:
    """`checkpoint list --reason agent_turn` shows the turns' checkpoints; --no-turns hides them."""
    assert vf(repo, "checkpoint", "create", "-m", "mine").returncode == 0
    write(repo, "src/app.py", "app = 3\n")
    hook(repo, "claude-code", "turn-start")
    turns = as_json(vf(repo, "checkpoint", "list", "--reason", "agent_turn", "--json"))
    assert [c["reason"] for c in turns["checkpoints"]] == ["agent_turn"]
    mine = as_json(vf(repo, "checkpoint", "list", "--no-turns", "--json"))
    assert [c["message"] for c in mine["checkpoints"]] == ["mine"]


def test_recover_explain_names_the_last_turn(repo: Path) -> None:
    """`recover --explain` says how many files the agent's last turn changed (its tools'
    and its shell's) and how many of them lie outside the intent zone."""
    assert vf(repo, "memory", "intent", "work on the app", "--yes").returncode == 0
    assert vf(repo, "memory", "relevant", "src/app.py", "the app", "--yes").returncode == 0
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/app.py", "app = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "app.py")
    write(repo, "notes.md", "the agent's shell wrote here too\n")  # no tool reports it
    hook(repo, "claude-code", "turn-end")
    proc = vf(repo, "recover", "--explain")
    assert proc.returncode == 0, proc.stderr
    line = "The agent's last turn (claude-code turn 1) changed 2 file(s), 1 of them outside"
    assert line in proc.stdout


def test_session_end_writes_a_session_recap(repo: Path) -> None:
    """The session-end hook writes the session's recap (the shell edit named as unreported)."""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "turn-end")
    hook(repo, "claude-code", "session-end")
    proc = vf(repo, "recap", "--json")
    assert proc.returncode == 0, proc.stderr
    recaps = vf(repo, "runs", "list", "--json")
    assert recaps.returncode == 0
    from vibflow_testing.cli import query

    rows = query(repo, "SELECT kind, body FROM recaps WHERE kind = 'session'")
    assert rows, "no session recap was written"
    assert "src/util.py" in rows[0][1]
    assert (repo / ".vibflow" / "agents.db").exists()


def test_session_end_forgets_turn_records_past_their_retention(repo: Path) -> None:
    """A session's end prunes the records: turns of old sessions past keep_records_days go,
    the session that just ended keeps its turns (rewind still lists them)."""
    from datetime import UTC, datetime, timedelta

    from vibflow.steps.agents.records import AgentRecords

    write(repo, ".vibflow/policy.yaml", "agents:\n  turns:\n    keep_sessions: 1\n")
    then = (datetime.now(UTC) - timedelta(days=120)).isoformat().replace("+00:00", "Z")
    records = AgentRecords(repo / ".vibflow" / "agents.db")
    old = records.session("claude-code", "old-session", then)
    for _ in range(4):
        turn = records.start_turn(old.id, then, None, None)
        records.end_turn(turn.id, then, None, "turn_end", None)
        records.mark_observed(turn.id)
    records.close()

    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 3\n")
    hook(repo, "claude-code", "turn-end")
    hook(repo, "claude-code", "session-end")

    records = AgentRecords(repo / ".vibflow" / "agents.db")
    assert records.count_turns() == 1
    assert records.get_session(old.id) is None
    assert status(repo)["problems"] == []
    listed = vf(repo, "rewind", "--json")
    assert listed.returncode == 0, listed.stderr
    assert len(as_json(listed)["turns"]) == 1


def _working_on_util(repo: Path) -> None:
    """Memory says: the intent is the util helper, src/util.py explicitly relevant."""
    for args in (
        ("memory", "intent", "Make the util helper return two", "--yes"),
        ("memory", "relevant", "src/util.py", "the helper", "--yes"),
    ):
        assert vf(repo, *args).returncode == 0


def test_an_edit_the_agent_reported_is_still_judged_by_the_zone(repo: Path) -> None:
    """With the hooks in the loop, a file the agent's Edit tool reported is no evidence
    of scope: an unrelated edit in the same turn is still drift, and the last turn's
    note counts it outside the intent."""
    _working_on_util(repo)
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "util.py")
    write(repo, "README.md", "# retitled by the agent\n")
    hook(repo, "claude-code", "edit", repo / "README.md")
    hook(repo, "claude-code", "turn-end")
    wait_for_touched(repo)  # memory has taken the turn's files (off the agent's time)
    proc = vf(repo, "recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    plan = as_json(proc)
    assert [d["path"] for d in plan["drift_candidates"]] == ["README.md"]
    assert plan["agent_last_turn"]["outside_intent"] == 1


def _two_turns(repo: Path, *, user_checkpoint: bool = False) -> str:
    """Turn 1 drifts (src/app.py), turn 2 does the in-scope work; the user may take a
    checkpoint between them. Turn 1's checkpoint id."""
    _working_on_util(repo)
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/app.py", "app = 'drifted in turn 1'\n")
    hook(repo, "claude-code", "edit", repo / "src" / "app.py")
    hook(repo, "claude-code", "turn-end")
    if user_checkpoint:  # (an identical tree would reuse the turn's checkpoint)
        write(repo, "notes.md", "my notes, edited between the turns\n")
        assert vf(repo, "checkpoint", "create", "-m", "mine").returncode == 0
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "util.py")
    hook(repo, "claude-code", "turn-end")
    turns = as_json(vf(repo, "rewind", "--json"))["turns"]
    return str(next(t for t in turns if t["turn"] == 1)["checkpoint_before"])


def test_drift_of_an_earlier_turn_is_restored_from_before_that_turn(repo: Path) -> None:
    """Turn 1 drifts, turn 2 starts (its checkpoint holds that drift) and does in-scope
    work: the safe point is turn 1's checkpoint, so a partial restore really puts the
    drift back instead of "restoring" it as it is."""
    first = _two_turns(repo)
    plan = as_json(vf(repo, "recover", "--preview", "--json"))
    assert [d["path"] for d in plan["drift_candidates"]] == ["src/app.py"]
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == first
    partial = next(o for o in plan["options"] if o["level"] == 3)
    assert partial["affected_paths"] == ["src/app.py"]
    assert "already as the checkpoint holds" not in partial["estimated_impact"]


def test_a_checkpoint_the_user_took_after_the_drift_never_costs_their_own_edit(
    repo: Path,
) -> None:
    """The same turns with the user's own edit and checkpoint between them. The turn
    records prove app.py's drift was turn 1's tools' alone, so the safe point steps back
    to turn 1 for it (``turn_proof``) — but nothing the user did is rolled back: their
    notes.md edit is in scope and outside every restore that can run, and the full
    rollback, which would reach past their checkpoint, is held back with the command
    that rolls everything back to that checkpoint instead."""
    first = _two_turns(repo, user_checkpoint=True)
    listed = as_json(vf(repo, "checkpoint", "list", "--json"))["checkpoints"]
    (mine,) = [c["checkpoint_id"] for c in listed if c["reason"] == "manual"]
    plan = as_json(vf(repo, "recover", "--preview", "--json"))
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == first
    assert mine in plan["safe_checkpoint_candidate"]["why"]
    zone = {z["path"]: z["source"] for z in plan["intent_zone"]}
    assert zone["notes.md"] == "user_edit"
    for option in plan["options"]:
        if option["level"] == 4:
            assert f"`vibflow checkpoint restore {mine}`" in option["blocked_reason"]
        else:
            assert "notes.md" not in option["affected_paths"]


def test_the_users_checkpoint_is_theirs_even_on_an_unchanged_tree(repo: Path) -> None:
    """Right after a turn, nothing changed since its checkpoint: `checkpoint create`
    still makes the user's own (reason manual) instead of answering with the turn's,
    so recovery treats it as the user's word for "safe from here"."""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/app.py", "app = 2\n")
    hook(repo, "claude-code", "turn-end")
    turn_end = as_json(vf(repo, "rewind", "--json"))["turns"][0]["checkpoint_after"]
    made = as_json(vf(repo, "checkpoint", "create", "-m", "mine", "--json"))
    assert made["checkpoint_id"] != turn_end
    listed = as_json(vf(repo, "checkpoint", "list", "--json"))["checkpoints"]
    assert {c["checkpoint_id"]: c["reason"] for c in listed}[made["checkpoint_id"]] == "manual"
    again = as_json(vf(repo, "checkpoint", "create", "--json"))  # nothing new said
    assert again["checkpoint_id"] == made["checkpoint_id"]  # the user's own is reused


def _drifting_turn(repo: Path) -> str:
    """One turn: in-scope work on src/util.py plus drift (src/app.py edited, docs moved
    with a shell `mv`, which keeps the file's old time). Its checkpoint before."""
    write(repo, "docs/guide.md", "# guide\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "guide"], check=True)
    _working_on_util(repo)
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "util.py")
    write(repo, "src/app.py", "app = 'drifted'\n")
    (repo / "docs" / "guide.md").rename(repo / "docs" / "manual.md")
    hook(repo, "claude-code", "turn-end")
    turns = as_json(vf(repo, "rewind", "--json"))["turns"]
    return str(turns[0]["checkpoint_before"])


def test_a_turns_checkpoint_holding_the_drift_by_content_is_stepped_past(repo: Path) -> None:
    """After the turn, the user edits a file of theirs and the files are rewritten with
    the same content (a `git stash -u` and `pop`): every file is newer than the turn's
    end checkpoint, which holds the drift exactly. By content, the safe point is the
    checkpoint before the turn, and the partial restore really puts the drift back."""
    before = _drifting_turn(repo)
    subprocess.run(["git", "-C", str(repo), "stash", "-u", "-q"], check=True)
    subprocess.run(["git", "-C", str(repo), "stash", "pop", "-q"], check=True)
    write(repo, "notes.md", "mine\n")
    plan = as_json(vf(repo, "recover", "--preview", "--json"))
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == before
    partial = next(o for o in plan["options"] if o["level"] == 3)
    assert {"src/app.py", "docs/guide.md", "docs/manual.md"} <= set(partial["affected_paths"])
    assert "already as the checkpoint holds" not in partial["estimated_impact"]


def test_work_held_before_the_agents_turns_is_never_stepped_back_from(repo: Path) -> None:
    """The user's own uncommitted edit from before the session (flagged for review, as
    nothing links it to the intent) is held by every turn checkpoint: it is theirs, so
    the safe point does not step back past the turns for it."""
    _working_on_util(repo)
    write(repo, "notes.md", "my notes, from before the agent\n")
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "util.py")
    hook(repo, "claude-code", "turn-end")
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 3\n")
    hook(repo, "claude-code", "edit", repo / "src" / "util.py")
    hook(repo, "claude-code", "turn-end")
    turns = as_json(vf(repo, "rewind", "--json"))["turns"]
    plan = as_json(vf(repo, "recover", "--preview", "--json"))
    chosen = plan["safe_checkpoint_candidate"]
    assert chosen["kind"] == "checkpoint"
    assert chosen["checkpoint_id"] in {t["checkpoint_before"] for t in turns}
    partial = next(o for o in plan["options"] if o["level"] == 3)
    assert "notes.md" not in partial["affected_paths"] or (
        "already as the checkpoint holds" in partial["estimated_impact"]
    )
