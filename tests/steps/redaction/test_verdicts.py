"""The clean-verdict cache: a text the detectors passed is not scanned again by the same
detectors (they are not even built when every text is known), a text holding a secret is
never remembered, a planted secret is still masked after the cache is warm, and a
different fingerprint or a damaged file only means scanning again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from vibflow_testing.redaction import AWS, GHP

from vibflow.steps.redaction.contract import redact_payload
from vibflow.steps.redaction.verdicts import VerdictFile, digest, fingerprint

CLEAN = ["Add CSV export to the report", "src/report.py", "run tests before pushing"]


def test_clean_texts_are_remembered_and_secrets_never(tmp_path: Path) -> None:
    cache = VerdictFile(tmp_path / "clean_texts")
    red = redact_payload([*CLEAN, f"token {GHP}"], known=cache)
    assert GHP not in str(red.value)
    lines = (tmp_path / "clean_texts").read_text("ascii").split()
    assert lines[0] == fingerprint()
    assert set(lines[1:]) == {digest(t) for t in CLEAN}
    assert digest(f"token {GHP}") not in lines
    assert "Add CSV" not in (tmp_path / "clean_texts").read_text("ascii")


def test_a_warm_cache_still_masks_a_new_secret(tmp_path: Path) -> None:
    cache = VerdictFile(tmp_path / "clean_texts")
    redact_payload(CLEAN, known=cache)
    red = redact_payload([*CLEAN, f"key {AWS}"], known=VerdictFile(tmp_path / "clean_texts"))
    assert AWS not in str(red.value)
    assert red.counts.secret_hits == 1


def test_known_texts_do_not_build_the_detectors(tmp_path: Path) -> None:
    """A fresh process whose texts are all known never imports detect-secrets."""
    redact_payload(CLEAN, known=VerdictFile(tmp_path / "clean_texts"))
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from vibflow.steps.redaction.contract import redact_payload\n"
        "from vibflow.steps.redaction.verdicts import VerdictFile\n"
        f"cache = VerdictFile(Path({str(tmp_path)!r}) / 'clean_texts')\n"
        f"red = redact_payload({CLEAN!r}, known=cache)\n"
        f"assert red.value == {CLEAN!r}, red.value\n"
        "print('detect_secrets' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_another_fingerprint_or_a_damaged_file_scans_again(tmp_path: Path) -> None:
    path = tmp_path / "clean_texts"
    path.write_text("0" * 32 + "\n" + digest(f"token {GHP}") + "\n", "ascii")
    red = redact_payload([f"token {GHP}"], known=VerdictFile(path))
    assert GHP not in str(red.value)  # a digest under another fingerprint counts for nothing
    path.write_bytes(b"\xff\xfe garbage")
    red = redact_payload([f"token {GHP}"], known=VerdictFile(path))
    assert GHP not in str(red.value)


def test_a_dry_run_remembers_for_the_process_only(tmp_path: Path) -> None:
    cache = VerdictFile(tmp_path / "clean_texts", writable=lambda: False)
    redact_payload(CLEAN, known=cache)
    assert not (tmp_path / "clean_texts").exists()
    assert cache.known(digest(t) for t in CLEAN) == {digest(t) for t in CLEAN}
