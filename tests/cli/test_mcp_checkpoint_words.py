"""An agent's (checkpoint_create) and a user's (``checkpoint create -m``) new words over
an unchanged tree are kept: a new checkpoint of the same files, naming the earlier
one; ``checkpoint list`` shows every message, the last said last."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, with_servers


def test_new_words_are_kept_through_mcp_and_the_cli(repo: Path) -> None:
    """MCP 'first', MCP 'second' (nothing changed), MCP with no message (reused),
    CLI -m 'third': three checkpoints of one tree, listed with their own words."""

    async def create(client: Client) -> list[Any]:
        out = []
        for args in ({"message": "first"}, {"message": "second"}, {}):
            failed, data, _ = await call(client, "checkpoint_create", args)
            assert not failed, data
            out.append(data)
        return out

    first, second, again = with_servers(repo, create)
    assert not second["reused"]
    assert second["checkpoint_id"] != first["checkpoint_id"]
    assert second["message"] == "second"
    assert second["same_tree_as"] == first["checkpoint_id"]
    assert (again["checkpoint_id"], again["reused"]) == (second["checkpoint_id"], True)
    proc = vf(repo, "checkpoint", "create", "-m", "third", "--json")
    assert proc.returncode == 0, proc.stderr
    third = json.loads(proc.stdout)
    assert third["message"] == "third"
    assert third["same_tree_as"] == second["checkpoint_id"]
    listed = json.loads(vf(repo, "checkpoint", "list", "--json").stdout)["checkpoints"]
    assert [c["message"] for c in listed] == ["first", "second", "third"]
    assert len({c["tree"] for c in listed}) == 1
