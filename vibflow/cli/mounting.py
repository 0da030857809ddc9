"""Commands mounted by name and built only when a command line reaches them.

Typer builds the whole command tree for every invocation: it imports every
command module and reads every command function's signature, although a
command line runs one command. The root group here holds a
:class:`LazyCommands` table instead — command name to ``"module:attribute"``
(a command function or a typer sub-app) — and builds an entry the first
time it is looked up, so ``vibflow recover --preview`` imports and builds
``recover`` alone. Listing the commands (``--help``, a typo's suggestions)
needs only the names; showing their help builds them all, through the same
typer functions as before, so the help text is unchanged.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any

import typer
from typer.core import TyperGroup

from vibflow.cli.helpstyle import plain_help

Command = Any  # typer's bundled click.Command (typer does not re-export the type)


def resolve(where: str) -> object:
    """The object ``"package.module:attribute"`` names (imported now)."""
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)


def build(targets: Mapping[str, object], settings: Mapping[str, Any]) -> dict[str, Command]:
    """Each of ``targets`` (name -> a command function or a typer sub-app) as a command
    of a root app made with ``settings``: built by typer exactly as mounting them on
    that root would build them."""
    holder = typer.Typer(**settings)
    for name, target in targets.items():
        if isinstance(target, typer.Typer):
            holder.add_typer(target, name=name)
        elif callable(target):
            holder.command(name)(target)
        else:
            raise TypeError(f"command {name!r} is neither a function nor a typer app")
    holder.callback()(_nothing)  # a group, so the commands are found by their names
    group = typer.main.get_command(holder)
    commands = {name: group.commands[name] for name in targets}  # type: ignore[attr-defined]
    for command in commands.values():
        plain_help(command)
    return commands


def _nothing() -> None:
    """The placeholder group's callback (never invoked)."""


class LazyCommands(MutableMapping[str, Command]):
    """A group's commands by name, each built on first lookup from its table entry."""

    def __init__(
        self,
        table: Mapping[str, str],
        make: Callable[[Mapping[str, object]], dict[str, Command]],
    ) -> None:
        self._table = table
        self._make = make
        self._built: dict[str, Command] = {}

    def load_all(self) -> None:
        """Build every entry not built yet, together (what a help listing needs)."""
        pending = {n: resolve(w) for n, w in self._table.items() if n not in self._built}
        if pending:
            self._built.update(self._make(pending))

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            if name not in self._table:
                raise KeyError(name)
            self._built.update(self._make({name: resolve(self._table[name])}))
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError("mounted commands are not removed")

    def __contains__(self, name: object) -> bool:
        return name in self._table or name in self._built

    def __iter__(self) -> Iterator[str]:
        yield from self._table
        yield from (name for name in self._built if name not in self._table)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class LazyGroup(TyperGroup):
    """A typer group whose commands come from a :class:`LazyCommands` table."""

    table: Mapping[str, str] = {}
    settings: Mapping[str, Any] = {}

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        settings = self.settings
        built = dict(self.commands)
        self.commands = LazyCommands(self.table, lambda targets: build(targets, settings))
        self.commands.update(built)

    def list_commands(self, ctx: Any) -> list[str]:
        del ctx
        return list(self.commands)  # names only: nothing is built to list them

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        # The listing shows every command's help line: build them in one go.
        if isinstance(self.commands, LazyCommands):
            self.commands.load_all()
        super().format_commands(ctx, formatter)


def mounted_group(table: Mapping[str, str], settings: Mapping[str, Any]) -> type[LazyGroup]:
    """The group class (``typer.Typer(cls=...)``) of a root app made with ``settings``
    whose commands are ``table``."""
    return type("MountedGroup", (LazyGroup,), {"table": table, "settings": settings})
