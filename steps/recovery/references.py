"""References between files: does a changed file import, or name, a file of the
intent (and the other way round)? Pure: texts in, links out.

Small rules per language, read line by line from the files themselves — no
build system, no network, no model:

* Python — ``import a.b`` / ``from a.b import c`` (dotted names matched against
  the tail of a file's module path, so ``src/`` layouts work), relative
  ``from .x import y``;
* JS/TS — ``import … from '…'``, ``export … from``, ``require('…')``,
  ``import('…')``: relative specifiers resolved against the importing file;
* Go — an import path whose tail is the folder (package) of the file;
* Rust — ``use crate::a::b`` / ``mod a;`` / a path in code (``a::b::run()``):
  a segment naming the module;
* Java/Kotlin — ``import a.b.C`` (and ``a.b.*``);
* Ruby and Elixir — a constant or module (``Project``, ``Admin::User``,
  ``Shop.Accounts.UserNotifier``) is the file its snake_case path camelizes
  from (Rails' autoloading, Mix's layout: the code names a file's module, it
  has no import line for it);
* every language — a file name (``install.md``, ``logo.png``, ``foo.h``)
  written in the text, a distinctive identifier equal to a file's stem
  (``InvoiceService``: mixed case or with ``_``, 5+ characters), and a view
  named by its last folders and name (``view('admin.users.index')`` for
  ``resources/views/admin/users/index.blade.php``).

Each link records the line it was found on, so the caller can ask whether the
reference is part of the change (that line was added or removed) or only
already there — which is what separates "the report screen now imports the
new csv helper" from "the billing screen has always used the table".
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

_PY_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?\s*([\w*,\s]+)")
_PY_IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)")
_JS_SPEC = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|@import\s+(?:url\()?\s*)['"]([^'"\n]+)['"]"""
)
_GO_IMPORT = re.compile(r'^\s*(?:import\s+)?(?:[\w.]+\s+)?"([\w.\-/~]+)"\s*$')
_RUST_USE = re.compile(r"^\s*(?:pub(?:\([\w\s]+\))?\s+)?(?:use|mod)\s+([\w:{}, ]+)")
_RUST_PATH = re.compile(r"\b([a-z_][a-z0-9_]*)::")
_JVM_IMPORT = re.compile(r"^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;?\s*$")
_JS_NAMES = re.compile(
    r"""^\s*(?:import|export)\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*['"]([^'"\n]+)['"]"""
)
_KEYWORD = re.compile(r"^(?:import|export|from|use|mod|require)\b\s*")
_FILE_NAME = re.compile(r"[\w.\-@~+]*\w\.\w{1,12}")
_IDENT = re.compile(r"\b[A-Za-z_]\w{4,}\b")
_CONST = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:(?:::|\.)[A-Z][A-Za-z0-9]*)*")
#: A view or template named in code, without its extension: ``view('admin.users.index')``,
#: ``render "entries/form"``, ``$this->render('invoice/index')``.
_VIEW = re.compile(r"""['"]([A-Za-z_][\w-]*(?:[./][A-Za-z_][\w-]*){1,5})['"]""")
#: Lines longer than this are not read for references.
_LONGEST = 2000
_JS_EXT = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte")
_PY = (".py", ".pyi")
_JVM = (".java", ".kt", ".kts", ".scala", ".groovy")
_JS_LIKE = (*_JS_EXT, ".css", ".scss", ".sass", ".less")
_RUBY = (".rb", ".erb", ".rake")
_ELIXIR = (".ex", ".exs", ".heex", ".eex")
#: Where a file's module is its camelized path.
MODULE_NAMED = (".rb", ".ex", ".exs")


def _noext(path: str) -> str:
    head, dot, ext = path.rpartition(".")
    return head if dot and "/" not in ext and head and not head.endswith("/") else path


def normal(line: str) -> str:
    """A line as references and changes are compared: stripped, without a leading
    import keyword or trailing separators — so moving ``import "x"`` into an
    import block, or a trailing comma, is no change of what is referenced."""
    return _KEYWORD.sub("", line.strip()).rstrip(";,").strip()


def camelize(stem: str) -> str:
    """A snake_case file stem as Ruby names its class (``projects_controller`` →
    ``ProjectsController``)."""
    return "".join(part[:1].upper() + part[1:] for part in stem.split("_"))


def _distinctive(stem: str) -> bool:
    """A stem unlikely to appear as an ordinary word: CamelCase or snake_case, 5+."""
    return len(stem) >= 5 and (
        "_" in stem.strip("_")
        or (any(c.isupper() for c in stem[1:]) and any(c.islower() for c in stem))
    )


@dataclass
class Index:
    """The files links may point at, by every key a reference could use."""

    by_noext: dict[str, set[str]] = field(default_factory=dict)
    by_path: dict[str, set[str]] = field(default_factory=dict)
    by_dotted: dict[str, set[str]] = field(default_factory=dict)
    by_package: dict[str, set[str]] = field(default_factory=dict)  # dotted/slashed folder
    by_rust: dict[str, set[str]] = field(default_factory=dict)
    by_basename: dict[str, set[str]] = field(default_factory=dict)
    by_stem: dict[str, set[str]] = field(default_factory=dict)
    by_export: dict[str, set[str]] = field(default_factory=dict)  # any stem, exact case
    by_constant: dict[str, set[str]] = field(default_factory=dict)  # Admin.User (Ruby, Elixir)
    #: The last folders and the extension-less name: ``admin/users/index`` for
    #: ``resources/views/admin/users/index.blade.php`` (a view named in code).
    by_tail: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, targets: Mapping[str, str]) -> Index:
        """``targets``: each name a file may be referred to by → the file (a renamed
        file is listed under its old name too)."""
        index = cls()
        for name, target in targets.items():
            index._add(name, target)
        return index

    def _add(self, name: str, target: str) -> None:
        def put(table: dict[str, set[str]], key: str) -> None:
            if key:
                table.setdefault(key, set()).add(target)

        folder, _, base = name.rpartition("/")
        stem = _noext(base)
        self._add_tails(folder, base, target)
        put(self.by_path, name)
        put(self.by_noext, _noext(name))
        if stem in ("index", "__init__", "mod", "lib"):
            put(self.by_noext, folder)
        put(self.by_basename, base)
        if _distinctive(stem):
            put(self.by_stem, stem)
        if len(stem) >= 3 and base.lower().endswith(_JS_LIKE):
            put(self.by_export, stem)
        lower = base.lower()
        if lower.endswith(_PY) or lower.endswith(_JVM):
            parts = _noext(name).split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            for k in range(len(parts)):
                put(self.by_dotted, ".".join(parts[k:]))
            dirs = folder.split("/") if folder else []
            for k in range(len(dirs)):
                put(self.by_package, ".".join(dirs[k:]))
        elif lower.endswith(".go") and folder:
            dirs = folder.split("/")
            for k in range(len(dirs)):
                put(self.by_package, "/".join(dirs[k:]))
        elif lower.endswith(".rs"):
            put(self.by_rust, folder.rpartition("/")[2] if stem in ("mod", "lib") else stem)
        elif lower.endswith(MODULE_NAMED) and len(stem) >= 3:
            # app/models/admin/user.rb is Admin::User, lib/shop/accounts.ex is
            # Shop.Accounts; a bare User (after an alias) names it too.
            put(self.by_constant, camelize(stem))
            dirs = [d for d in folder.split("/") if d]
            for k in range(len(dirs)):
                put(self.by_constant, ".".join([*map(camelize, dirs[k:]), camelize(stem)]))

    def _add_tails(self, folder: str, base: str, target: str) -> None:
        name = base.split(".", maxsplit=1)[0]
        parts = [*(folder.split("/") if folder else []), name.removeprefix("_")]
        for k in range(max(0, len(parts) - 4), len(parts) - 1):
            # A Rails partial (``_form.html.erb``) is rendered as ``entries/form``.
            self.by_tail.setdefault("/".join(parts[k:]), set()).add(target)

    def __bool__(self) -> bool:
        return bool(self.by_path)


@dataclass(frozen=True)
class Found:
    """A reference from a file's lines to a target file."""

    target: str
    line: str  # the first line that refers to it, as :func:`normal` makes it
    how: str  # "imports" or "names" (the first line's)
    #: Every line that refers to it: the new route naming a controller that an old
    #: ``use`` line already named is part of the change.
    lines: frozenset[str] = frozenset()


def scan(path: str, text: str, index: Index, *, skip: Iterable[str] = ()) -> dict[str, Found]:
    """The targets ``text`` (the content of ``path``) refers to, each with the lines
    that do; ``skip``: targets not to report (the file itself)."""
    if not index:
        return {}
    folder = path.rpartition("/")[0]
    lower = path.lower()
    lang = (
        "py"
        if lower.endswith(_PY)
        else "js"
        if lower.endswith(_JS_LIKE) or lower.endswith((".html", ".md", ".mdx"))
        else "go"
        if lower.endswith(".go")
        else "rs"
        if lower.endswith(".rs")
        else "jvm"
        if lower.endswith(_JVM)
        else "const"
        if lower.endswith(_RUBY) or lower.endswith(_ELIXIR)
        else ""
    )
    first: dict[str, tuple[str, str]] = {}
    every: dict[str, set[str]] = {}
    excluded = set(skip)
    for raw in text.splitlines():
        line = raw.strip()
        if not line or len(line) > _LONGEST:
            continue  # a minified or data line: no import rule reads it, and it is slow
        key = normal(line)
        for target, how in _refs(line, lang, folder, index):
            if target not in excluded:
                first.setdefault(target, (key, how))
                every.setdefault(target, set()).add(key)
    return {t: Found(t, k, how, frozenset(every[t])) for t, (k, how) in first.items()}


def _refs(line: str, lang: str, folder: str, index: Index) -> Iterable[tuple[str, str]]:
    rule = _RULES.get(lang)
    if rule is not None:
        yield from ((t, "imports") for t in rule(line, folder, index))
    elif lang == "const":
        yield from ((t, "names") for t in _constants(line, folder, index))
    if "." in line:
        for name in _FILE_NAME.findall(line):
            base = name.rpartition("/")[2]
            yield from ((t, "names") for t in index.by_basename.get(base, ()))
    if index.by_stem:
        for ident in _IDENT.findall(line):
            yield from ((t, "names") for t in index.by_stem.get(ident, ()))
    if index.by_tail and ("'" in line or '"' in line):
        for view in _VIEW.findall(line):
            key = view if "/" in view else view.replace(".", "/")
            yield from ((t, "names") for t in index.by_tail.get(key, ()))


def _js(line: str, folder: str, index: Index) -> Iterable[str]:
    for spec in _JS_SPEC.findall(line):
        yield from _js_spec(spec, folder, index)
    found = _JS_NAMES.match(line)
    if found and not found.group(3).startswith("."):
        # A package import (`import { Button } from '@acme/ui'`): the names it
        # imports are the components' files by convention.
        default, named, _ = found.groups()
        names = [default] if default else []
        names += [n.split(" as ")[0].strip() for n in (named or "").split(",")]
        for name in names:
            yield from index.by_export.get(name, ())


def _go(line: str, _folder: str, index: Index) -> Iterable[str]:
    found = _GO_IMPORT.match(line)
    if found:
        segs = found.group(1).split("/")
        for k in range(len(segs)):
            yield from index.by_package.get("/".join(segs[k:]), ())


def _rust(line: str, _folder: str, index: Index) -> Iterable[str]:
    found = _RUST_USE.match(line)
    if found:
        for seg in re.split(r"[:{}, ]+", found.group(1)):
            yield from index.by_rust.get(seg, ())
        return
    # A path in code (`commands::list::run(args)`) names its modules too.
    for seg in _RUST_PATH.findall(line):
        yield from index.by_rust.get(seg, ())


def _jvm(line: str, _folder: str, index: Index) -> Iterable[str]:
    found = _JVM_IMPORT.match(line)
    if found:
        name = found.group(1)
        table = index.by_package if name.endswith(".*") else index.by_dotted
        yield from table.get(name.removesuffix(".*"), ())


def _constants(line: str, _folder: str, index: Index) -> Iterable[str]:
    if index.by_constant and not line.startswith("#"):
        for name in _CONST.findall(line):
            yield from index.by_constant.get(name.replace("::", "."), ())


def _python(line: str, folder: str, index: Index) -> Iterable[str]:
    found = _PY_FROM.match(line)
    if found:
        dots, module, names = found.groups()
        members = [n.strip() for n in names.replace("(", " ").split(",") if n.strip()]
        if dots:
            base = folder
            for _ in range(len(dots) - 1):
                base = base.rpartition("/")[0]
            stem = "/".join(p for p in (base, module.replace(".", "/")) if p)
            for key in [stem, *(f"{stem}/{m}" for m in members)]:
                yield from index.by_noext.get(key, ())
            return
        for key in [module, *(f"{module}.{m}" for m in members)]:
            yield from index.by_dotted.get(key, ())
        return
    found = _PY_IMPORT.match(line)
    if found:
        for module in found.group(1).split(","):
            name = module.strip().split(" ")[0]
            yield from index.by_dotted.get(name, ())


def _js_spec(spec: str, folder: str, index: Index) -> Iterable[str]:
    if not spec.startswith("."):
        return ()
    joined = (
        posixpath.normpath(posixpath.join(folder, spec)) if folder else posixpath.normpath(spec)
    )
    if joined.startswith("../") or joined == "..":
        return ()
    if joined in index.by_path:
        return index.by_path[joined]
    key = _noext(joined) if joined.lower().endswith(_JS_EXT) else joined
    return index.by_noext.get(key, ())


_RULES: dict[str, Callable[[str, str, Index], Iterable[str]]] = {
    "py": _python,
    "js": _js,
    "go": _go,
    "rs": _rust,
    "jvm": _jvm,
}


def changed_lines(old: str | None, new: str | None) -> frozenset[str]:
    """The lines (as :func:`normal` makes them) one version has and the other does
    not: what the change added or removed. A missing side counts as empty."""
    before = {normal(line) for line in (old or "").splitlines()}
    after = {normal(line) for line in (new or "").splitlines()}
    return frozenset((before ^ after) - {""})
