"""Plain help text: ``TEXT``, ``[RUN]``, ``KEY=VALUE`` where typer draws ``{text}``,
``[[RUN]]`` and ``<list[str]>``.

Typer (0.29) writes a required argument as ``{name}`` with its Python type beside it,
wraps an optional one in a second pair of brackets when its metavar already has them,
and shows an option's value as its Python type. A user reads command lines as click
and git write them, so :func:`plain_help` re-dresses the command tree, which typer
builds afresh for every invocation: each argument shows its metavar (its name in
capitals unless the command names it) and nothing else, each option its metavar or
a plain word for its type, and an option given once per item says so. Only the
drawing changes; parsing is typer's own.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperOption

#: Plain words for the Python types typer would print.
_TYPE_WORDS = {"str": "TEXT", "int": "N", "float": "NUMBER", "path": "PATH", "bool": "BOOL"}


class _PlainArgument(TyperArgument):
    def get_usage_pieces(self, ctx: Any) -> list[str]:
        del ctx
        name = self.metavar or (self.name or "").upper()
        piece = name if self.required else f"[{name}]"
        return [piece + ("..." if self.nargs != 1 else "")]

    def display_type_rich(self, ctx: Any) -> str:
        del ctx
        return ""  # the Arguments list shows the name and its help, not a Python type


class _PlainOption(TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        del ctx
        return self.metavar


def plain_help(command: Any, *, recurse: bool = True) -> None:
    """Give every parameter of ``command`` (and of its subcommands) a plain metavar."""
    for param in command.params:
        if type(param) is TyperArgument:
            bare = (param.metavar or "").strip("[]")  # "[RUN]" would read "[[RUN]]"
            param.metavar = bare or (param.name or "").upper()
            param.__class__ = _PlainArgument
        elif type(param) is TyperOption and not param.is_flag and not param.count:
            param.metavar = param.metavar or _type_word(param.bare_type())
            if param.multiple and "repeat" not in (param.help or "").lower():
                # A list option is given once per item; say so where the command did not.
                param.help = f"{param.help or ''} Repeat the option for each one.".lstrip()
            param.__class__ = _PlainOption
    if recurse:
        for sub in getattr(command, "commands", {}).values():
            plain_help(sub)


def _type_word(label: str) -> str:
    inner = label.removeprefix("list[").removesuffix("]")
    return _TYPE_WORDS.get(inner.lower(), inner.upper())
