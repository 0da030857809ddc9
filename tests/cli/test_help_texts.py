"""Every command's ``--help``, walked from ``vibflow --help``: plain metavars (``TEXT``,
``[RUN]``, ``KEY=VALUE`` — never typer's ``{text}``, ``[[RUN]]`` or ``<list[str]>``), no
reference a user does not have (the spec, its appendices), list options that say how to
pass several values, and ``--json`` on every command but the schema printers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from vibflow_testing.cli import vf_many

#: What typer draws on its own and a user should never see.
TYPER_METAVARS = re.compile(
    r"\{[A-Za-z_]+\}"  # a required argument: {text}
    r"|\[\[[A-Z_a-z]+\]\]"  # an optional one whose metavar has brackets: [[RUN]]
    r"|<(?:str|int|float|bool|path|text|list\[[a-z]+\]|[a-z]+ range)>",  # a Python type
    re.IGNORECASE,
)
#: References to documents only the project's authors have.
PRIVATE_REFERENCES = re.compile(r"\bspec\b|appendix|§|\bseed \d|\bP0\b", re.IGNORECASE)
#: Commands that print a document for editors rather than an answer.
# The schema printers print JSON Schema; `mcp serve` speaks JSON-RPC on stdout itself.
NO_JSON = {"flows schema", "memory schema", "mcp serve"}


def _commands(help_text: str) -> list[str]:
    """The subcommand names a group's help lists."""
    if "\nCommands:\n" not in help_text:
        return []
    section = help_text.split("\nCommands:\n", 1)[1]
    names = []
    for line in section.splitlines():
        if not line.startswith("  ") or line.startswith("   "):
            if line.strip():
                continue
            break
        names.append(line.split()[0])
    return names


@pytest.fixture(scope="module")
def helps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """``--help`` of the root and every command under it, level by level (each a real
    process; a level's processes run side by side)."""
    where: Path = tmp_path_factory.mktemp("help")
    found: dict[str, str] = {}
    level: list[tuple[str, ...]] = [()]
    while level:
        procs = vf_many(where, *((*cmd, "--help") for cmd in level))
        following: list[tuple[str, ...]] = []
        for cmd, proc in zip(level, procs, strict=True):
            assert proc.returncode == 0, (cmd, proc.stderr)
            found[" ".join(cmd)] = proc.stdout
            following += [(*cmd, name) for name in _commands(proc.stdout)]
        level = following
    return found


def test_the_walk_reaches_every_command_group(helps: dict[str, str]) -> None:
    """The walk sees the groups and their commands (so the checks below see them too)."""
    for name in ("run", "step", "demo", "memory intent", "memory relevant", "hooks install"):
        assert name in helps
    assert "flows show" in helps
    assert "checkpoint diff" in helps


def test_help_uses_plain_metavars(helps: dict[str, str]) -> None:
    """No `{text}`, `[[RUN]]` or `<list[str]>` anywhere; the usage line names arguments in
    capitals (`[RUN]` when optional)."""
    for name, text in helps.items():
        assert not TYPER_METAVARS.search(text), (name, TYPER_METAVARS.findall(text), text)
        usage = text.splitlines()[0]
        for piece in usage.split("[OPTIONS]", 1)[-1].split():
            if piece in ("COMMAND", "[ARGS]..."):
                continue
            bare = piece.strip("[]").removesuffix("...")
            assert bare == bare.upper(), (name, usage)


def test_help_cites_nothing_a_user_does_not_have(helps: dict[str, str]) -> None:
    """Help never points at the spec or its appendices."""
    for name, text in helps.items():
        assert not PRIVATE_REFERENCES.search(text), (name, text)


def test_help_says_how_to_pass_a_list(helps: dict[str, str]) -> None:
    """--input shows KEY=VALUE, says to repeat it and that a list is comma-separated (as
    the engine parses it); every option given once per item says to repeat it."""
    for name in ("run", "step"):
        text = " ".join(helps[name].split())
        assert "-i, --input KEY=VALUE" in text
        assert "repeat the option for each one" in text
        assert "comma-separated" in text
    for name, option in (("memory verify", "--files"), ("recover feedback", "--correct")):
        line = " ".join(helps[name].split(option, 1)[1].split("--", 1)[0].split())
        assert "repeat" in line.lower(), (name, line)


def test_every_command_answers_json(helps: dict[str, str]) -> None:
    """Each command (not a group) has --json, except the schema printers and the MCP server."""
    leaves = {name for name, text in helps.items() if name and "\nCommands:\n" not in text}
    missing = sorted(n for n in leaves - NO_JSON if "--json" not in helps[n])
    assert missing == []
