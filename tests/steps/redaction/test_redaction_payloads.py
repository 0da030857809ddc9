"""Summaries keep head, tail and counts within budget with secrets masked before the cut;
payloads are walked, masked, marked and counted; the fail-closed check refuses absolute
paths without echoing them.

Part of the redaction contract (DESIGN §4.7); the planted secrets are in
``vibflow_testing.redaction``."""

from __future__ import annotations

import dataclasses
from pathlib import Path, PurePosixPath

import pytest
from pydantic import BaseModel
from vibflow_testing.redaction import AWS, B64, red

from vibflow.engine.audit import RedactionCounts
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.redaction import (
    Redacted,
    assert_no_absolute_paths,
    redact_payload,
    redact_text,
)
from vibflow.steps.redaction.summarize import summarize

# --- summaries -------------------------------------------------------------------------


def test_long_output_is_summarized_with_head_tail_and_counts() -> None:
    """Long output keeps its head and tail, says what it dropped, and stays in budget."""
    lines = [f"step {i}: ok" for i in range(2000)]
    lines[1500] = "ERROR: disk full"
    lines[-1] = "FAILED: 1 error"
    result = redact_text("\n".join(lines), max_chars=1000, field="verification.0.output")
    assert len(result.value) <= 1000
    assert result.value.startswith("step 0: ok")
    assert result.value.endswith("FAILED: 1 error")
    assert "lines (" in result.value
    assert "1 of them errors/warnings" in result.value
    assert result.counts == RedactionCounts(summarized_fields=1)
    assert result.marks == {"verification.0.output": "summarized"}


def test_summary_never_exceeds_budget_and_is_stable() -> None:
    """For any budget the summary fits, and summarizing it again changes nothing."""
    text = "x" * 50_000 + "\n" + "y " * 20_000
    for budget in (0, 5, 119, 120, 121, 500, 4000):
        once = summarize(text, budget)
        assert len(once.text) <= budget
        assert summarize(once.text, budget).text == once.text


def test_secrets_are_masked_before_the_cut() -> None:
    """A key straddling the summary cut cannot leave half of itself behind."""
    text = "a " * 300 + B64 + " b" * 300
    out = red(text, max_chars=300)
    for i in range(len(B64) - 9):
        assert B64[i : i + 10] not in out


# --- payloads ---------------------------------------------------------------------------


class _Model(BaseModel):
    note: str


@dataclasses.dataclass
class _DC:
    path: str


def test_payload_walks_masks_marks_and_omits(tmp_path: Path) -> None:
    """redact_payload masks strings and keys, marks dotted paths, omits listed fields."""
    data = {
        "bullets": ["fine", "also fine", f"uses {AWS}"],
        "verification": [{"command": f"pytest {tmp_path}/proj/tests", "output": "x" * 5000}],
        "raw_terminal": "anything",
        "meta": {"token_note": "ok", "drop_me": 1},
        "/Users/bob/notes.md": ("a", 2, None, True),
        "when": PurePosixPath("/Users/bob/x"),
        "model": _Model(note=f"pw password={'hunter2xyz'}"),
        "dc": _DC(path="/home/carol/x"),
        "blob": b"bytes with AKIAQ7FAKEX3M9ZP2LT4",
    }
    result = redact_payload(
        data, root=tmp_path / "proj", omit=["raw_terminal", "meta.drop_me"], max_field_chars=500
    )
    value = result.value
    assert value["bullets"] == ["fine", "also fine", "uses [REDACTED:aws_key]"]
    assert value["verification"][0]["command"] == "pytest tests"
    assert len(value["verification"][0]["output"]) <= 500
    assert "raw_terminal" not in value
    assert value["meta"] == {"token_note": "ok"}
    assert value["[PATH]"] == ["a", 2, None, True]
    assert value["when"] == "[PATH]"
    assert value["model"] == {"note": "pw password=[REDACTED:credential]"}
    assert value["dc"] == {"path": "[PATH]"}
    assert value["blob"] == "bytes with [REDACTED:aws_key]"
    assert result.marks == {
        "bullets.2": "redacted",
        "verification.0.command": "redacted",
        "verification.0.output": "summarized",
        "raw_terminal": "omitted",
        "meta.drop_me": "omitted",
        "[PATH]": "redacted",
        "when": "redacted",
        "model.note": "redacted",
        "dc.path": "redacted",
        "blob": "redacted",
    }
    assert result.counts == RedactionCounts(
        secret_hits=3, privacy_hits=4, summarized_fields=1, omitted_fields=2
    )
    assert_no_absolute_paths(value, root=tmp_path / "proj")


def test_keys_that_redact_alike_both_survive() -> None:
    """Two different secret keys that both become one placeholder are both kept."""
    other = "AKIAZ9FAKEQ3M9ZP2LT7"
    value = redact_payload({AWS: 1, other: 2}).value
    assert value == {"[REDACTED:aws_key]": 1, "[REDACTED:aws_key]#2": 2}


def test_redacted_is_a_frozen_value() -> None:
    """Redacted is immutable: callers cannot swap the value after redaction."""
    result = redact_text("x")
    assert isinstance(result, Redacted)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.value = "y"  # type: ignore[misc]


# --- fail closed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "leak",
    [
        "{root}/src/a.py",
        "{home}/x",
        "/Users/bob/x",
        "/home/carol/x",
        r"C:\Users\d\x",
        "/tmp/x/y",  # noqa: S108 -- a path to refuse, not one we use
    ],
)
def test_absolute_paths_fail_closed_without_echoing(
    leak: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """assert_no_absolute_paths raises INTERNAL naming the field, never the path."""
    home = tmp_path / "h" / "zed"
    monkeypatch.setenv("HOME", str(home))
    root = tmp_path / "proj"
    path = leak.format(root=root, home=home)
    with pytest.raises(VibflowError) as err:
        assert_no_absolute_paths({"a": [{"b": f"see {path}"}]}, root=root)
    assert err.value.code is ErrorCode.INTERNAL
    assert "a.0.b" in str(err.value)
    for piece in (path, str(tmp_path), "bob", "carol"):
        assert piece not in str(err.value)


def test_fail_closed_check_does_not_echo_a_path_in_a_key() -> None:
    """A dict key holding the path is reported as 'a field', not by its text."""
    with pytest.raises(VibflowError) as err:
        assert_no_absolute_paths({"/Users/bob/x": 1})
    assert "bob" not in str(err.value)


def test_clean_output_passes_the_fail_closed_check() -> None:
    """Relative paths, ~ paths, URL paths and redacted output pass."""
    assert_no_absolute_paths(
        {"files": ["src/a.py", "~/notes.md"], "url": "https://x.io/home/a", "n": 3, "p": None}
    )
