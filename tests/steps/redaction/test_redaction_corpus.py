"""Recall and precision of the redaction contract on a corpus of fake secrets.

``tests/redaction_corpus/secrets/*`` plants secrets as ``⟦name|value⟧``;
``near_misses/*`` must come out unchanged. detect-secrets alone (its file
scan, same plugins) is run over the same text to keep the list of what it
misses honest — and each of those must be caught by us.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from vibflow_testing import REDACTION_CORPUS

from vibflow.steps.redaction import redact_text
from vibflow.steps.redaction.secrets import DETECT_SECRETS_PLUGINS

CORPUS = REDACTION_CORPUS
MARK = re.compile(r"⟦([a-z0-9_]+)\|(.*?)⟧", re.DOTALL)
ROOT = Path("/home/dev/projects/widgets")
NO_LIMIT = 10**9


def load(path: Path) -> tuple[str, dict[str, str]]:
    """The file's text with markers stripped, and its planted secrets by name."""
    raw = path.read_text(encoding="utf-8")
    planted = {m.group(1): m.group(2) for m in MARK.finditer(raw)}
    return MARK.sub(lambda m: m.group(2), raw), planted


def secret_files() -> list[Path]:
    return sorted((CORPUS / "secrets").iterdir())


def near_miss_files() -> list[Path]:
    return sorted((CORPUS / "near_misses").iterdir())


def leaked_pieces(value: str, output: str) -> list[str]:
    """Pieces of ``value`` still in ``output``: the whole, or any 10 characters of a long one."""
    if len(value) < 16:
        return [value] if value in output else []
    pieces = {value[i : i + 10] for i in range(len(value) - 9)}
    return sorted(p for p in pieces if p in output)


def all_planted() -> Iterator[tuple[str, str]]:
    for path in secret_files():
        yield from load(path)[1].items()


def test_corpus_has_many_shapes() -> None:
    """The corpus plants at least 60 secrets and 6 near-miss files (it must stay broad)."""
    assert len(dict(all_planted())) >= 60
    assert len(near_miss_files()) >= 6


@pytest.mark.parametrize("path", secret_files(), ids=lambda p: p.name)
def test_every_planted_secret_is_masked(path: Path) -> None:
    """No planted secret — nor any 10-character piece of a long one — survives redaction."""
    text, planted = load(path)
    result = redact_text(text, root=ROOT, max_chars=NO_LIMIT)
    leaks = {name: leaked_pieces(v, result.value) for name, v in planted.items()}
    assert {name: p for name, p in leaks.items() if p} == {}
    assert result.counts.secret_hits >= len(set(planted.values()))
    assert result.marks == {"": "redacted"}


@pytest.mark.parametrize("path", near_miss_files(), ids=lambda p: p.name)
def test_near_misses_come_out_unchanged(path: Path) -> None:
    """UUIDs, git hashes, identifiers, prose, relative paths, versions, colors stay as they are."""
    text = path.read_text(encoding="utf-8")
    result = redact_text(text, root=ROOT, max_chars=NO_LIMIT)
    assert result.value == text
    assert result.counts.secret_hits == 0
    assert result.counts.privacy_hits == 0
    assert result.marks == {}


# --- detect-secrets alone -------------------------------------------------------


def detect_secrets_alone(text: str, workdir: Path) -> set[str]:
    """Values detect-secrets' own file scan reports for ``text``, with our plugin set."""
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import transient_settings

    target = workdir / "corpus.txt"
    target.write_text(text, encoding="utf-8")
    with transient_settings({"plugins_used": [{"name": n} for n in DETECT_SECRETS_PLUGINS]}):
        return {s.secret_value for s in scan_file(str(target)) if s.secret_value}


def covered_by(text: str, values: set[str]) -> list[bool]:
    """Which characters of ``text`` a naive "mask every found value" pass would hide."""
    cover = [False] * len(text)
    for value in values:
        i = text.find(value)
        while i != -1:
            for k in range(i, i + len(value)):
                cover[k] = True
            i = text.find(value, i + 1)
    return cover


def detect_secrets_misses(tmp_path: Path) -> set[str]:
    misses: set[str] = set()
    for path in secret_files():
        text, planted = load(path)
        cover = covered_by(text, detect_secrets_alone(text, tmp_path))
        for name, value in planted.items():
            start = text.find(value)
            if not all(cover[start : start + len(value)]):
                misses.add(name)
    return misses


def pinned_misses() -> set[str]:
    lines = (CORPUS / "detect_secrets_misses.txt").read_text(encoding="utf-8").splitlines()
    return {ln.split("#", 1)[0].strip() for ln in lines} - {""}


def test_detect_secrets_misses_list_is_accurate(tmp_path: Path) -> None:
    """detect_secrets_misses.txt names exactly the planted secrets detect-secrets alone misses."""
    assert detect_secrets_misses(tmp_path) == pinned_misses()


def test_we_catch_every_secret_detect_secrets_misses() -> None:
    """Each secret detect-secrets alone misses is fully masked by the contract."""
    planted = dict(all_planted())
    missing = pinned_misses()
    assert missing <= planted.keys()
    for path in secret_files():
        text, file_planted = load(path)
        out = redact_text(text, max_chars=NO_LIMIT).value
        for name in missing & file_planted.keys():
            assert leaked_pieces(file_planted[name], out) == [], name


def test_recall_at_least_detect_secrets(tmp_path: Path) -> None:
    """Our recall on the corpus is 100 % and so at least detect-secrets' own."""
    planted = dict(all_planted())
    ours = 0
    for path in secret_files():
        text, file_planted = load(path)
        out = redact_text(text, max_chars=NO_LIMIT).value
        ours += sum(1 for v in file_planted.values() if not leaked_pieces(v, out))
    theirs = len(planted) - len(detect_secrets_misses(tmp_path))
    assert ours == len(planted)
    assert ours >= theirs
