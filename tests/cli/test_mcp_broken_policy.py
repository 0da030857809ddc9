"""A broken `.vibflow/policy.yaml` does not silence the audit: the server answers
every call with a typed error naming the policy, and each answer still writes its
one count-only row (with the shipped audit policy, since the project's cannot be
read), so `audit verify` and the P0 summary see every answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APPLY, drifted
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, mcp_rows, with_servers

BROKEN = {
    "yaml syntax": b"recovery: [unclosed\n  x: {\n",
    "wrong type": b"recovery:\n  max_files: lots\n",
    "unknown section": b"nonsense_section:\n  foo: 1\n",
    "not text": b"\x00\x01\x02\xff",
    "a secret and a home path": b"recovery: [ /root/.ssh/id_rsa password=hunter2abc\n",
    "broken audit section": b"audit:\n  retention_days: forever\n",
}
CALLS = [
    ("memory_summary_read", {}),
    ("recovery_preview", {"limit": 1}),
    ("recovery_apply", {}),
    ("checkpoint_create", {}),
    ("no_such_tool", {}),
]


def test_every_answer_under_a_broken_policy_writes_one_audit_row(repo: Path) -> None:
    """For each way a policy file can be broken, every tool call is a typed error
    that leaks neither the policy's text nor a path, and every answer (tools/list
    too) adds exactly one mcp.* row; once the policy is fixed the log verifies."""
    drifted(repo)
    assert vf(repo, "grant", "recovery_apply").returncode == 0
    policy = repo / ".vibflow" / "policy.yaml"

    async def body(client: Client) -> list[tuple[str, str, bool, Any, str, int]]:
        seen = []
        for name, text in BROKEN.items():
            policy.write_bytes(text)
            for tool, args in CALLS:
                before = len(mcp_rows(repo))
                failed, data, answer = await call(client, tool, args)
                seen.append((name, tool, failed, data, answer, len(mcp_rows(repo)) - before))
            before = len(mcp_rows(repo, protocol=True))
            listed = await client.list_tools()  # an answer outside tools/call's boundary
            assert listed.tools
            added = len(mcp_rows(repo, protocol=True)) - before
            seen.append((name, "tools/list", True, None, "", added))
        return seen

    for name, tool, failed, data, answer, added in with_servers(repo, body, env=APPLY):
        assert failed, (name, tool, data)
        assert added == 1, (name, tool, answer)
        assert "Traceback" not in answer
        assert "hunter2" not in answer, (name, tool)
        assert "/root" not in answer, (name, tool)
    rows = mcp_rows(repo)
    assert len(rows) == len(BROKEN) * len(CALLS)
    listed = [r for r in mcp_rows(repo, protocol=True) if r["event"] == "mcp.tools_list"]
    assert len(listed) == len(BROKEN)
    assert {r["result"] for r in rows} <= {"refused", "failed"}
    policy.unlink()
    assert vf(repo, "audit", "verify").returncode == 0
