"""Dependencies a change needs: the manifest or settings line that goes with a new
import. Pure: lines in, names out.

A feature that starts using a library adds it in two places: the code imports
it (``from django_filters.rest_framework import …``, ``require('express-rate-
limit')``, ``use League\\Csv\\Writer;``, ``require "csv"``) and a manifest or
settings file declares it (``django-filter==24.2``, ``"express-rate-limit":
"^7.1.5"``, ``"league/csv": "^9.15"``, ``gem "csv"``, ``"django_filters"`` in
``INSTALLED_APPS``). Only an import the in-scope change *adds* counts, and only
one the file did not have before, and only a manifest or settings file whose
change *adds* a name it did not hold: a version bump stays drift.

Names are compared as ecosystems spell them apart: lower-cased, without
punctuation (``django-filter`` / ``django_filters``), a trailing ``s`` aside, and
an import path by each of its leading parts (``League\\Csv\\Writer`` needs
``league/csv``); a Composer package named apart from its namespace by its vendor
and the namespace's next part (``Barryvdh\\DomPDF\\…`` needs
``barryvdh/laravel-dompdf``). Elixir's ``alias``/``use``/``import`` are imports, and
its settings name a library as an atom (``config :hammer``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

_PY = re.compile(r"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*))")
_JS = re.compile(r"""(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(?\s*)['"]([^'"./][^'"]*)['"]""")
_RUBY = re.compile(r"""^\s*require\s*\(?\s*['"]([\w/-]+)['"]""")
_PHP = re.compile(r"^\s*use\s+\\?([A-Za-z_][\w\\]*)\s*(?:;|\s+as\b)")
_GO = re.compile(r'^\s*(?:import\s+)?(?:[\w.]+\s+)?"([\w.-]+\.[\w.-]+/[\w./-]+)"\s*$')
_RUST = re.compile(r"^\s*(?:pub\s+)?(?:use|extern\s+crate)\s+([a-z_][a-z0-9_]*)\b")
_JVM = re.compile(r"^\s*import\s+(?:static\s+)?([a-z][\w.]*)")
_INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"]([\w./-]+)[>\"]")
_ELIXIR = re.compile(r"^\s*(?:alias|use|import|require)\s+([A-Z][\w.]*)")
_SPLIT = re.compile(r"[./\\:]+")
_NAME = re.compile(r"[@A-Za-z_][\w@./\\-]*")
#: Names every project has: importing them says nothing about a dependency.
_TOO_COMMON = frozenset({"crate", "self", "super", "std", "core", "test", "tests", "app", "src"})
_MANIFESTS = frozenset(
    {
        "package.json",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "pipfile",
        "gemfile",
        "cargo.toml",
        "go.mod",
        "composer.json",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "build.sbt",
        "mix.exs",
        "cmakelists.txt",
        "conanfile.txt",
        "vcpkg.json",
        "pubspec.yaml",
        "podfile",
        "packages.yml",
        "environment.yml",
    }
)
_SETTINGS_STEMS = frozenset({"settings", "config", "configuration", "conf"})
_SETTINGS_EXT = (".yml", ".yaml", ".toml", ".json", ".ini", ".cfg", ".conf", ".properties")


def norm(name: str) -> str:
    """A package or module name as compared: lower-case letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


@lru_cache(maxsize=4096)
def is_manifest(path: str) -> bool:
    """A file that declares dependencies (``requirements*.txt``, ``package.json`` …)."""
    base = path.rpartition("/")[2].casefold()
    if base in _MANIFESTS or base.endswith((".csproj", ".gemspec", ".fsproj")):
        return True
    return base.startswith("requirements") and base.endswith((".txt", ".in"))


def is_settings(path: str) -> bool:
    """A file that registers apps, plugins and keys: a settings file by its name
    (``settings.py``, ``config.js``) or by its format."""
    base = path.rpartition("/")[2].casefold()
    return base.split(".")[0] in _SETTINGS_STEMS or base.endswith(_SETTINGS_EXT)


def _spec_keys(spec: str) -> list[str]:
    parts = [p for p in _SPLIT.split(spec) if p]
    if spec.startswith("@") and len(parts) >= 2:  # @scope/pkg
        parts = [parts[0] + "/" + parts[1], *parts[2:]]
    keys = []
    for k in range(1, min(len(parts), 3) + 1):
        keys.append(norm("".join(parts[:k])))
    keys.append(norm(spec))
    return [k for k in dict.fromkeys(keys) if len(k) >= 3 and k not in _TOO_COMMON]


def imported(lines: Iterable[str]) -> dict[str, str]:
    """The modules ``lines`` import, by every key a manifest may name them by →
    the import as written."""
    out: dict[str, str] = {}
    for line in lines:
        if len(line) > 500:
            continue
        specs: list[str] = []
        for rule in (_PY, _RUBY, _PHP, _GO, _RUST, _JVM, _INCLUDE, _ELIXIR):
            found = rule.match(line)
            if found:
                specs += [g for g in found.groups() if g]
        specs += _JS.findall(line)
        for spec in specs:
            for key in _spec_keys(spec.strip()):
                out.setdefault(key, spec.strip())
    return out


def _variants(key: str) -> tuple[str, ...]:
    return (key, key + "s", key[:-1]) if key.endswith("s") and len(key) > 4 else (key, key + "s")


def names_in(text: str) -> frozenset[str]:
    """Every name ``text`` holds, as :func:`needed` compares them."""
    return frozenset(norm(name) for name in _NAME.findall(text))


def needed(
    lines: Iterable[str],
    imports: dict[str, str],
    *,
    manifest: bool,
    known: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """``(the name as declared, the import it is for)`` when ``lines`` (a manifest's
    or settings file's added lines) declare one of ``imports``; None otherwise.
    ``known``: the names the file held before (see :func:`names_in`) — a version
    bump of a library already there declares nothing new. A settings file must
    quote the name and it must be 5+ characters: its values are words too
    (``format: json``)."""
    if not imports:
        return None
    for line in lines:
        found = declares(line, imports, manifest=manifest, known=known)
        if found is not None:
            return found
    return None


def _quoted(name: str, line: str) -> bool:
    """``name`` written as a value, not a word: quoted, or an atom or symbol
    (Elixir's ``config :hammer``, Ruby's ``:redis``)."""
    return f'"{name}"' in line or f"'{name}'" in line or f":{name}" in line


def _by_vendor(name: str, imports: dict[str, str]) -> str | None:
    """The import a ``vendor/package`` name declares when the package is named
    apart from its namespace: Composer's ``barryvdh/laravel-dompdf`` for
    ``use Barryvdh\\DomPDF\\…`` — the same vendor, and the namespace's next part
    (four letters at least) inside the package's name."""
    vendor, _, package = name.partition("/")
    if not package or name.startswith("@"):
        return None
    want, within = norm(vendor), norm(package)
    for spec in dict.fromkeys(imports.values()):
        parts = [p for p in _SPLIT.split(spec) if p]
        if len(parts) >= 2 and norm(parts[0]) == want:
            inner = norm(parts[1])
            if len(inner) >= 4 and inner in within:
                return spec
    return None


def declares(
    line: str, imports: dict[str, str], *, manifest: bool, known: frozenset[str]
) -> tuple[str, str] | None:
    """What one added line declares of ``imports`` (see :func:`needed`), or None."""
    if len(line) > 500 or line.lstrip().startswith(("#", "//")):
        return None
    for name in _NAME.findall(line):
        if not manifest and not _quoted(name, line):
            continue
        key = norm(name)
        if len(key) < (3 if manifest else 5) or key in known:
            continue
        for variant in _variants(key):
            spec = imports.get(variant)
            if spec is not None:
                return name, spec
        spec = _by_vendor(name, imports) if manifest else None
        if spec is not None:
            return name, spec
    return None


#: A line that only opens a block (``"dependencies": {``, ``require (``, ``[deps]``)
#: or only closes one: what the block holds is judged line by line.
_OPENER = re.compile(r"^(?:\[[^\]]*\]|[^{}()\[\]]*[{(\[])$")


def unexplained(
    old: str,
    new: str,
    imports: dict[str, str],
    *,
    manifest: bool,
    known: frozenset[str],
) -> list[str]:
    """The changed lines of a manifest or settings file that the dependencies its
    in-scope change needs do not explain — ``- line`` removed, then ``+ line``
    added, each in file order. Explained: a line declaring one of ``imports`` the file did not hold
    (:func:`declares`), a line that only gained or lost its trailing comma (JSON's
    separator moves when an entry is appended), a line only opening or closing a
    block, a blank one. Everything else — the package's own version bumped, a
    library nothing imports, a removed entry — is a change of its own."""
    before, after = old.splitlines(), new.splitlines()
    had, has = set(before), set(after)
    gone = [line for line in before if line not in has]
    came = [line for line in after if line not in had]
    # A line moved or re-punctuated is the same line on both sides.
    budget = Counter(_core(line) for line in gone) & Counter(_core(line) for line in came)
    # An entry rewritten for the dependency (``chrono = "0.4"`` → ``chrono = {
    # version = "0.4", features = ["serde"] }``): its old line goes with the new.
    rewritten = {
        _key(line) for line in came if declares(line, imports, manifest=manifest, known=known)
    }
    out: list[str] = []
    for sign, lines in (("-", gone), ("+", came)):
        left = Counter(budget)
        for line in lines:
            core = _core(line)
            if left[core] > 0:
                left[core] -= 1
                continue
            if not core or not any(ch.isalnum() for ch in core) or _OPENER.match(core):
                continue
            if sign == "+" and declares(line, imports, manifest=manifest, known=known):
                continue
            if sign == "+" and _names_module_of(line, imports):
                continue
            if sign == "-" and _key(line) in rewritten - {None}:
                continue
            out.append(f"{sign} {core}")
    return out


#: A module path written as a value (``Hammer.Backend.ETS``, ``serde_json::Value``).
_MODULE_PATH = re.compile(r"\b([A-Za-z_]\w*)(?:\.[A-Z]\w*|::\w+)+")


def _names_module_of(line: str, imports: dict[str, str]) -> bool:
    """``line`` names a module inside one of ``imports`` (``backend:
    {Hammer.Backend.ETS, …}`` configures the ``hammer`` the change calls)."""
    return any(
        len(key := norm(root)) >= 5 and key in imports for root in _MODULE_PATH.findall(line)
    )


def _core(line: str) -> str:
    return line.strip().rstrip(",").rstrip()


_KEY = re.compile(r"""^\s*["']?([@\w./-]+)["']?\s*[:=<>~!^ ]""")


def _key(line: str) -> str | None:
    """The entry a manifest line is about (``chrono`` in ``chrono = "0.4"``)."""
    found = _KEY.match(line)
    return found.group(1).casefold() if found else None


_PATH_USE = re.compile(r"\b([a-z_][a-z0-9_]*)::")
#: An Elixir remote call, ``Hammer.check_rate(…)``: a library's module is called by
#: its full name, with no ``alias`` or ``import`` needed.
_ELIXIR_CALL = re.compile(r"(?<![\w.:@])([A-Z]\w*)(?:\.[A-Z]\w*)*\.[a-z_]\w*[?!]?\(")
_ELIXIR_MODULE = re.compile(r"^\s*defmodule\s+([A-Z]\w*)")
#: Elixir's and OTP's own modules: a call to them needs no dependency.
_ELIXIR_STDLIB = frozenset(
    (
        "Access",
        "Agent",
        "Application",
        "Atom",
        "Base",
        "Bitwise",
        "Calendar",
        "Code",
        "Config",
        "Date",
        "DateTime",
        "Duration",
        "EEx",
        "Enum",
        "ExUnit",
        "Exception",
        "File",
        "Float",
        "Function",
        "GenServer",
        "IEx",
        "IO",
        "Inspect",
        "Integer",
        "Kernel",
        "Keyword",
        "List",
        "Logger",
        "Macro",
        "Map",
        "MapSet",
        "Mix",
        "Module",
        "NaiveDateTime",
        "Node",
        "OptionParser",
        "Path",
        "Port",
        "Process",
        "Protocol",
        "Range",
        "Record",
        "Regex",
        "Registry",
        "Stream",
        "String",
        "StringIO",
        "Supervisor",
        "System",
        "Task",
        "Time",
        "Tuple",
        "URI",
        "Version",
    )
)
_MIX_APP = re.compile(r"\bapp:\s*:([a-z_][a-z0-9_]*)")


def used(lines: Iterable[str]) -> dict[str, str]:
    """What ``lines`` use by a crate or namespace path without importing it
    (``serde_json::to_string(…)``), keyed as :func:`imported` keys its modules. Too
    loose to put a manifest in scope; enough to explain a line of one that is."""
    out: dict[str, str] = {}
    for line in lines:
        if len(line) > 500:
            continue
        for spec in _PATH_USE.findall(line):
            for key in _spec_keys(spec):
                out.setdefault(key, spec)
    return out


def called(lines: Iterable[str], own: Iterable[str] = ()) -> dict[str, str]:
    """The libraries Elixir ``lines`` call by a module's full name
    (``Hammer.check_rate(…)`` → ``Hammer``), keyed as :func:`imported` keys its
    modules; the project's own modules (``own``: the roots its files define, see
    :func:`elixir_roots`) left out."""
    mine = {norm(name) for name in own}
    out: dict[str, str] = {}
    for line in lines:
        if len(line) > 500 or line.lstrip().startswith("#"):
            continue
        for root in _ELIXIR_CALL.findall(line):
            if norm(root) in mine or root in _ELIXIR_STDLIB:
                continue
            for key in _spec_keys(root):
                out.setdefault(key, root)
    return out


def elixir_roots(lines: Iterable[str]) -> set[str]:
    """The module roots Elixir ``lines`` define (``defmodule ShopWeb.Plugs.X`` →
    ``ShopWeb``), and Phoenix's other half of each (``ShopWeb`` → ``Shop``)."""
    roots = {m.group(1) for line in lines if (m := _ELIXIR_MODULE.match(line))}
    return roots | {r.removesuffix("Web") for r in roots if r.endswith("Web") and r != "Web"}


def mix_app(text: str) -> set[str]:
    """The module root of the OTP application ``mix.exs`` names (``app: :storefront``
    → ``Storefront``, and ``StorefrontWeb``)."""
    found = _MIX_APP.search(text)
    if found is None:
        return set()
    root = "".join(part.capitalize() for part in found.group(1).split("_"))
    return {root, root + "Web"}


def is_elixir(path: str) -> bool:
    return path.endswith((".ex", ".exs"))
