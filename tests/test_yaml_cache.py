"""The parsed-policy cache gives exactly what parsing gives, and is never trusted blindly."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from vibflow.engine.errors import VibflowError
from vibflow.engine.policy import EnginePolicy, PolicySet
from vibflow.engine.yamlcache import YamlCache
from vibflow.engine.yamlsource import parse_yaml
from vibflow.steps.recovery.policy import RecoveryPolicy

DEFAULTS = files("vibflow.policies")
USER = "recovery:\n  lease_seconds: 30\n  checkpoints:\n    keep_last: 7\n"


def policy(tmp_path: Path, user: str | None = USER) -> PolicySet:
    path = tmp_path / "policy.yaml"
    if user is not None:
        path.write_text(user, encoding="utf-8")
    return PolicySet(DEFAULTS, path, cache=tmp_path / "cache.json")


def test_a_cached_policy_equals_a_parsed_one(tmp_path: Path) -> None:
    first = policy(tmp_path)
    assert (tmp_path / "cache.json").is_file()
    second = policy(tmp_path)
    plain = PolicySet(DEFAULTS, tmp_path / "policy.yaml")
    assert first.raw() == second.raw() == plain.raw()
    assert first.digest() == second.digest() == plain.digest()
    assert second.section("recovery", RecoveryPolicy).lease_seconds == 30
    assert second.section("engine", EnginePolicy) == plain.section("engine", EnginePolicy)


def test_errors_from_a_cached_document_point_at_the_same_place(tmp_path: Path) -> None:
    bad = "recovery:\n  checkpoints:\n    keep_last: many\n"
    messages = []
    for _ in range(2):  # the second time from the cache
        with pytest.raises(VibflowError) as caught:
            policy(tmp_path, bad).section("recovery", RecoveryPolicy)
        messages.append((caught.value.message, caught.value.location))
    assert messages[0] == messages[1]
    assert messages[0][1] is not None
    assert (messages[0][1].line, messages[0][1].col) == (3, 5)


def test_an_edit_is_read_again_and_broken_yaml_is_never_cached(tmp_path: Path) -> None:
    policy(tmp_path)
    assert (
        policy(tmp_path, "recovery:\n  lease_seconds: 90\n").raw()["recovery"]["lease_seconds"]
        == 90
    )
    with pytest.raises(VibflowError) as caught:
        policy(tmp_path, "recovery: [unclosed\n")
    assert caught.value.location is not None
    with pytest.raises(VibflowError):
        policy(tmp_path, "recovery: [unclosed\n")


@pytest.mark.parametrize("junk", ["", "{", "[]", '{"format": "other", "entries": {}}', "\x00"])
def test_a_damaged_or_foreign_cache_file_is_ignored_and_replaced(tmp_path: Path, junk: str) -> None:
    (tmp_path / "cache.json").write_text(junk, encoding="utf-8")
    assert policy(tmp_path).section("recovery", RecoveryPolicy).lease_seconds == 30
    saved = json.loads((tmp_path / "cache.json").read_text(encoding="utf-8"))
    assert saved["format"] == "vibflow-yaml-cache-1"


def test_a_tampered_entry_shape_falls_back_to_parsing(tmp_path: Path) -> None:
    policy(tmp_path)
    saved = json.loads((tmp_path / "cache.json").read_text(encoding="utf-8"))
    for entry in saved["entries"].values():
        entry["positions"] = "not a list"
    (tmp_path / "cache.json").write_text(json.dumps(saved), encoding="utf-8")
    assert policy(tmp_path).section("recovery", RecoveryPolicy).lease_seconds == 30


def test_documents_that_are_not_plain_json_are_not_kept(tmp_path: Path) -> None:
    """An integer key would come back from JSON as a string: such a document is
    parsed every time instead."""
    cache = YamlCache(tmp_path / "c.json")
    text = "1: int key\n"
    cache.put(text, "x.yaml", parse_yaml(text, "x.yaml"))
    assert cache.get(text, "x.yaml") is None
    cache.save()
    assert not (tmp_path / "c.json").exists()
    dated = "when: 2024-01-01\n"  # the parser already gives plain text for dates
    cache.put(dated, "y.yaml", parse_yaml(dated, "y.yaml"))
    cache.save()
    cached = YamlCache(tmp_path / "c.json").get(dated, "y.yaml")
    assert cached is not None
    assert cached == parse_yaml(dated, "y.yaml")


def test_a_warm_cache_needs_no_yaml_parser(tmp_path: Path) -> None:
    """The point of it: with the cache warm, ruamel is not even imported."""
    policy(tmp_path)
    code = (
        "import sys; from pathlib import Path; from importlib.resources import files\n"
        "from vibflow.engine.policy import PolicySet\n"
        f"p = Path({str(tmp_path)!r})\n"
        "PolicySet(files('vibflow.policies'), p / 'policy.yaml', cache=p / 'cache.json')\n"
        "print('ruamel' in ' '.join(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
