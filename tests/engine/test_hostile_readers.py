"""A generated corpus of hostile files for the policy, flow and journal readers
(issue 16): alias bombs, deep nesting, huge scalars, odd tags, bad bytes,
special files and damaged SQLite pages. Each is run through the real CLI in
its own process (``hostile_driver.py``: a fork with a 200 MB address-space
limit and a deadline), and each must end with no traceback and either exit 2
(bad input, located) or a damaged journal backed up and reported.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import clean_env, vf
from vibflow_testing.repo import make_repo

from vibflow.engine.sourcefile import MAX_SOURCE_BYTES

pytestmark = pytest.mark.slow

DRIVER = Path(__file__).with_name("hostile_driver.py")
PAGE = 4096
SEED = 16


# -- YAML texts ------------------------------------------------------------------------------


def alias_bombs() -> Iterator[tuple[str, str]]:
    names = "abcdefghijklmnopqrstuvwxyz"
    for levels in (6, 8, 10, 14):
        for width in (4, 9, 16):
            lst = [f"{names[0]}: &{names[0]} [{', '.join(['lol'] * width)}]"]
            mp = [f"{names[0]}: &{names[0]} {{k: lol}}"]
            for i in range(1, levels):
                refs = ", ".join([f"*{names[i - 1]}"] * width)
                lst.append(f"{names[i]}: &{names[i]} [{refs}]")
                keys = ", ".join(f"k{j}: *{names[i - 1]}" for j in range(width))
                mp.append(f"{names[i]}: &{names[i]} {{{keys}}}")
            yield f"bomb_list_{levels}x{width}", "\n".join(lst) + "\n"
            yield f"bomb_map_{levels}x{width}", "\n".join(mp) + "\n"
    # A long string repeated by aliases, and merge keys that repeat mappings.
    big = "x" * 20_000
    yield "bomb_scalar", f"s: &s {big}\nl: [{', '.join(['*s'] * 40)}]\n"
    merge = ["a: &a {k0: 1, k1: 2, k2: 3}"]
    for i in range(1, 12):
        merge.append(f"m{i}: &m{i} {{<<: [*{'a' if i == 1 else f'm{i - 1}'}], n{i}: [*a, *a, *a]}}")
    yield "bomb_merge", "\n".join(merge) + "\n"
    yield "alias_self", "a: &a [1, *a]\n"
    yield "alias_undefined", "engine: *nowhere\n"


def nesting() -> Iterator[tuple[str, str]]:
    for depth in (65, 200, 1000, 20000, 200000):
        yield f"deep_flow_seq_{depth}", "[" * depth + "]" * depth + "\n"
        yield f"deep_flow_map_{depth}", "{a: " * depth + "1" + "}" * depth + "\n"
    for depth in (65, 300, 2000):
        yield (
            f"deep_block_{depth}",
            "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v\n",
        )
        yield f"deep_dash_{depth}", "".join("  " * i + "-\n" for i in range(depth)) + "\n"


def big_documents() -> Iterator[tuple[str, str]]:
    cap = MAX_SOURCE_BYTES
    yield "huge_scalar_over_cap", "engine: " + "x" * (cap + 10) + "\n"
    yield "huge_scalar_under_cap", "engine: " + "x" * (cap - 100) + "\n"
    yield "huge_key", "x" * (cap - 10) + ": 1\n"
    yield "many_keys_over_cap", "".join(f"k{i}: {i}\n" for i in range(150_000))
    yield "many_keys_under_cap", "".join(f"k{i}: {i}\n" for i in range(150_000))[: cap - 1]
    yield "many_items", "engine: [" + ", ".join("1" for _ in range(cap // 3)) + "]\n"
    yield "long_lines", ("engine:\n  note: " + "y" * (cap // 8) + "\n") * 5
    yield "many_docs", "---\na: 1\n" * 5000
    yield "wide_char_over_cap", "engine: " + "\u00e9" * (cap // 2 + 10) + "\n"


def tags_and_types() -> Iterator[tuple[str, str]]:
    yield "python_object", "engine: !!python/object/apply:os.system ['echo pwned']\n"
    yield "python_name", "engine: !!python/name:os.system\n"
    yield "binary", "engine: !!binary aGVsbG8=\n"
    yield "set", "engine: !!set {a, b}\n"
    yield "omap", "engine: !!omap [{a: 1}, {b: 2}]\n"
    yield "custom_tag", "engine: !vibflow [journal]\n"
    yield "timestamp", "engine: {context_max_bytes: 2001-12-14t21:59:43.10-05:00}\n"
    yield "float_inf", "engine: {context_max_bytes: .inf}\n"
    yield "int_huge", "engine: {context_max_bytes: " + "9" * 5000 + "}\n"
    yield "null_key", "? null\n: 1\n"
    yield "complex_key", "? [a, b]\n: 1\n"
    yield "bool_keys", "true: 1\nfalse: 2\n"
    yield "int_keys", "1: a\n2: b\n"
    yield "top_scalar", "just words\n"
    yield "top_list", "- engine\n- memory\n"
    yield "empty_mapping_value", "engine:\nrecovery:\nmemory: []\n"


def broken_syntax() -> Iterator[tuple[str, str]]:
    yield "unclosed_seq", "engine: [1, 2\n"
    yield "unclosed_map", "engine: {a: 1\n"
    yield "unclosed_quote", "engine: 'abc\n"
    yield "tab_indent", "engine:\n\tjournal: {}\n"
    yield "duplicate_keys", "engine: {}\nengine: {}\n"
    yield "bad_indent", "engine:\n  a: 1\n b: 2\n"
    yield "directive", "%YAML 9.9\n---\nengine: {}\n"
    yield "anchor_only", "&a [1]\n"
    yield "nul_byte", "engine: {a: \x00}\n"
    yield "control_chars", "engine: \x07\x1b[31m\n"
    yield "bidi", "engine: {\u202ejournal: 1}\n"
    yield "document_end", "...\n...\n"
    yield "stray_colon", ":::\n"
    yield "only_comment_and_bad", "# hi\n  - : -\n"


def random_garbage(rng: random.Random) -> Iterator[tuple[str, bytes]]:
    alphabet = b"[]{}:,-&*!|>'\"#%@`?\n\t  abcxyz019\xff\xfe\x00\xc3\x28"
    for i in range(16):
        size = rng.choice((10, 200, 5000, 60_000))
        yield f"garbage_{i}", bytes(rng.choice(alphabet) for _ in range(size))
    for i in range(6):
        yield f"random_bytes_{i}", rng.randbytes(rng.choice((100, 10_000, 300_000)))
    yield "bom_then_garbage", b"\xef\xbb\xbf\xff\xfe\x00engine"
    yield "utf16", "engine: {}\n".encode("utf-16")


SPECIALS = [
    "fifo",
    "folder",
    "link:/dev/zero",
    "link:/dev/urandom",
    "link_loop",
    "link:/nonexistent/x",
]


def yaml_corpus(rng: random.Random) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    for gen in (alias_bombs, nesting, big_documents, tags_and_types, broken_syntax):
        out += [(name, text.encode("utf-8", "surrogatepass")) for name, text in gen()]
    out += list(random_garbage(rng))
    return out


# -- journals ----------------------------------------------------------------------------------


def journal_corpus(template: bytes, rng: random.Random) -> list[tuple[str, bytes]]:
    pages = len(template) // PAGE
    out: list[tuple[str, bytes]] = []
    for page in range(pages):
        raw = bytearray(template)
        raw[page * PAGE : (page + 1) * PAGE] = bytes(PAGE)
        out.append((f"zero_page_{page + 1}", bytes(raw)))
    for i in range(12):
        raw = bytearray(template)
        for _ in range(rng.choice((1, 8, 64))):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        out.append((f"flipped_{i}", bytes(raw)))
    for cut in (100, PAGE - 1, PAGE, PAGE * 2 + 17, len(template) - 1):
        out.append((f"truncated_{cut}", template[:cut]))
    out.append(("header_only_garbage", b"SQLite format 3\x00" + bytes(100)))
    out.append(("not_sqlite", b"this is not a database\n" * 300))
    out.append(("random", rng.randbytes(PAGE * 3)))
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Every hostile case run once through the driver; the results by case."""
    base = tmp_path_factory.mktemp("hostile")
    rng = random.Random(SEED)
    repo = make_repo(base / "project")
    (repo / ".vibflow" / "flows").mkdir(parents=True, exist_ok=True)
    # A real journal with runs in it, its WAL folded in: the template to damage.
    for _ in range(3):
        vf(repo, "run", "waits")
    db = repo / ".vibflow" / "runs.db"
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    template = db.read_bytes()
    for path in (repo / ".vibflow").glob("runs.db*"):
        path.unlink()
    for extra in (repo / ".vibflow" / "flows").glob("*.yaml"):
        extra.unlink()  # the product CLI runs the cases; the test kit's flows are not needed

    files = base / "files"
    files.mkdir()
    cases: list[dict[str, Any]] = []

    def add(
        target: str, name: str, data: bytes | None, argv: list[str], special: str | None = None
    ) -> None:
        source = None
        if data is not None:
            source = files / f"{target}-{name}"
            source.write_bytes(data)
        cases.append(
            {
                "id": f"{target}:{name}",
                "target": target,
                "source": str(source) if source else None,
                "special": special,
                "argv": argv,
            }
        )

    for name, data in yaml_corpus(rng):
        add("policy", name, data, ["runs", "list"])
        add(
            "flow",
            name,
            b"flow: fz\n" + data
            if not name.startswith(("random", "garbage", "utf16", "bom"))
            else data,
            ["run", "fz"],
        )
    for special in SPECIALS:
        add("policy", special, None, ["recap"], special)
        add("flow", special, None, ["flows", "validate", ".vibflow/flows/fz.yaml"], special)
        add("journal", special, None, ["runs", "list", "--json"], special)
    for name, data in journal_corpus(template, rng):
        add("journal", name, data, ["runs", "list", "--json"])

    manifest = base / "manifest.json"
    scratch = base / "scratch"
    scratch.mkdir()
    manifest.write_text(json.dumps({"repo": str(repo), "scratch": str(scratch), "cases": cases}))
    results = base / "results.jsonl"
    subprocess.run(
        [sys.executable, str(DRIVER), str(manifest), str(results)],
        env=clean_env(),
        check=True,
        timeout=1200,
    )
    found = [json.loads(line) for line in results.read_text("utf-8").splitlines()]
    assert [r["id"] for r in found] == [c["id"] for c in cases]
    return found


def _verdict(result: dict[str, Any]) -> str | None:
    """What is wrong with one case's outcome, or None."""
    status, err = result["status"], result["stderr"]
    if "Traceback" in err or "Traceback" in result["stdout"]:
        return f"traceback: {err[-600:]}"
    if not isinstance(status, int):
        return f"{status} (the deadline or the 200 MB limit was hit)"
    if "internal error" in err:
        return f"internal error: {err[-300:]}"
    if result["id"].startswith("journal:"):
        if status != 0:
            return f"exit {status}: {err[-300:]}"
        data = json.loads(result["stdout"])
        if result["backed_up"] and not data.get("warnings"):
            return "backed up without a warning in the JSON output"
        if result["backed_up"] and "vibflow: warning: the run journal" not in err:
            return "backed up without a warning on stderr"
        return None
    if status != 2:
        return f"exit {status}: {err[-300:]}"
    if not err.startswith("vibflow: "):
        return f"no error message: {err[-300:]}"
    return None


def test_corpus_is_large_enough(corpus: list[dict[str, Any]]) -> None:
    """At least 200 hostile files, over all three readers."""
    assert len(corpus) >= 200
    kinds = {r["id"].split(":", 1)[0] for r in corpus}
    assert kinds == {"policy", "flow", "journal"}


def test_every_hostile_file_is_refused_or_recovered(corpus: list[dict[str, Any]]) -> None:
    """No traceback, no hang, no blow-up: exit 2 with a message, or a journal backed up and said."""
    bad = {r["id"]: v for r in corpus if (v := _verdict(r)) is not None}
    assert not bad, json.dumps(bad, indent=1)[:6000]


def test_yaml_errors_are_located(corpus: list[dict[str, Any]]) -> None:
    """A refused policy or flow text names the file (and, where it has one, line:col)."""
    for r in corpus:
        if r["id"].startswith(("policy:", "flow:")) and r["status"] == 2:
            assert ".vibflow/" in r["stderr"] or "fz.yaml" in r["stderr"], r


def test_damaged_journals_are_backed_up(corpus: list[dict[str, Any]]) -> None:
    """Every zeroed header, garbage or special journal file is set aside, not silently lost."""
    must = [
        r
        for r in corpus
        if r["id"].startswith("journal:")
        and (r["id"].split(":", 1)[1] in {"zero_page_1", "not_sqlite", "random", *SPECIALS})
    ]
    assert len(must) == 9
    for r in must:
        assert r["backed_up"], r["id"]
