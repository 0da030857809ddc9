"""Redaction under load and odd input: concurrent scans agree, no temp files are made,
pathological input completes in time, vibflow ids are identifiers, not secrets.

Part of the redaction contract (DESIGN §4.7); the planted secrets are in
``vibflow_testing.redaction``."""

from __future__ import annotations

import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from vibflow_testing import REDACTION_CORPUS
from vibflow_testing.redaction import AWS, B64, red

from vibflow.steps.redaction import (
    redact_payload,
    redact_text,
)
from vibflow.steps.redaction.secrets import (
    mask_secrets,
)

# --- concurrency, temp files, pathological input ----------------------------------------

_CORPUS = REDACTION_CORPUS / "secrets"


def _corpus_texts() -> list[str]:
    import re

    mark = re.compile(r"⟦[a-z0-9_]+\|(.*?)⟧", re.DOTALL)
    return [mark.sub(r"\1", p.read_text(encoding="utf-8")) for p in sorted(_CORPUS.iterdir())]


def test_concurrent_scans_give_the_same_results() -> None:
    """Eight threads scanning the corpus at once get exactly the sequential results."""
    texts = _corpus_texts() * 4
    expected = [mask_secrets(t) for t in texts]
    results: dict[int, list[tuple[str, int]]] = {}
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            results[n] = [mask_secrets(t) for t in texts]
        except BaseException as exc:  # noqa: BLE001 -- reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(results[n] == expected for n in range(8))


def test_scanning_creates_no_temp_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redaction is in memory: the temp directory listing is the same before and after."""
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    monkeypatch.setenv("TMPDIR", str(private_tmp))
    before = sorted(p.name for p in Path(tempfile.gettempdir()).iterdir())
    for text in _corpus_texts():
        redact_text(text * 3, max_chars=2000)
    redact_payload({"a": _corpus_texts()})
    assert sorted(p.name for p in Path(tempfile.gettempdir()).iterdir()) == before
    assert tempfile.gettempdir() == str(private_tmp)


@pytest.fixture
def alarm() -> Iterator[Callable[[int], int]]:
    """Fail (instead of hanging) if the body runs longer than a generous limit."""
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM")

    def on_alarm(*_: object) -> None:
        raise TimeoutError("redaction did not finish")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    yield signal.alarm
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "make",
    [
        lambda: "a" * 1_000_000,
        lambda: " " * 100_000 + "password=hunter2xyz" + " " * 100_000,
        lambda: ("word " * 200_000) + AWS,
        lambda: "password=abcdefgh1 " * 50_000,
        lambda: "https://u:p@h/" * 60_000,
        lambda: B64 * 25_000,
        lambda: "\t" * 50_000 + "=" * 50_000 + ":" * 50_000,
        lambda: "/Users/" * 150_000,
    ],
    ids=[
        "1MB-one-word",
        "100k-spaces",
        "1MB-line-words",
        "keywords-in-one-line",
        "urls-in-one-line",
        "1MB-base64-line",
        "separators",
        "path-prefixes",
    ],
)
def test_pathological_input_completes(make: Callable[[], str], alarm: Callable[[int], int]) -> None:
    """Megabyte lines, long blank runs and repeated triggers finish (no timing asserted)."""
    text = make()
    alarm(120)
    out = red(text, max_chars=4000)
    assert len(out) <= 4000
    assert AWS not in out
    assert "hunter2xyz" not in out


@pytest.mark.parametrize(
    "ident",
    [
        "run_3e9a0a97b86c4206b8e4ad4b0c5315cb",
        "ckpt_3e9a0a97b86c4206b8e4ad4b0c5315cb",
        "opt_0123456789abcdef0123456789abcdef",
        "rec_fedcba9876543210fedcba9876543210",
    ],
)
def test_vibflow_ids_are_identifiers_not_secrets(ident: str) -> None:
    """vibflow's own locally generated ids survive redaction; the same hex elsewhere does not."""
    assert redact_text(f"resume {ident} now").value == f"resume {ident} now"
    body = ident.split("_", 1)[1]
    assert body not in redact_text(f"api_key={body}").value
