"""Names a change defines in one file and uses in another. Pure: lines in, names out.

A feature spread over files is held together by the names it introduces: the
settings screen's change calls ``viewModel.setDarkTheme``, the view model's
change defines ``fun setDarkTheme``, the strings file's change defines
``name="settings_dark_theme"`` that the screen now reads. So a name one file's
*added* lines define and another file's *added* lines use links the two.

A name both sides merely use links nothing: the same ``return NotFound();``
pasted into a sibling controller is the framework's name, not the feature's,
and that paste is exactly the drift a user wants shown. Definitions are read
with small, language-blind patterns (declaration keywords, typed method heads,
Terraform blocks, ``name="…"`` attributes, keys of settings files, routes,
style classes, query aliases, model fields and migration columns); a name must
be distinctive (5+ characters, or a capitalised 4, not an everyday word) to count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from vibflow.steps.recovery.proximity import STOP
from vibflow.steps.recovery.proximity import words as proximity_words

_DECLARED = re.compile(
    r"\b(?:def|defp|defmodule|fun|func|fn|function|class|struct|enum|interface|trait|message|"
    r"type|val|var|let|const|object|record|module|macro_rules!)[ \t]+"
    # A dotted name defines its last part (``module Ledger.Report``, Elixir's
    # ``defmodule Shop.RateLimiter``, Lua's ``function M.setup``): its first part
    # is the project's namespace, which every one of its files uses.
    r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"
)
#: ``public async Task<Invoice> FindAsync(`` — a typed method or function head.
_METHOD = re.compile(
    r"^[ \t]*(?:(?:public|private|protected|internal|static|async|override|virtual|final|"
    r"abstract|suspend|open|synchronized)[ \t]+)+[\w<>\[\],.?]+[ \t]+([A-Za-z_]\w*)[ \t]*\(",
    re.M,
)
_GO_METHOD = re.compile(r"^[ \t]*func[ \t]+\([^)\n]*\)[ \t]+([A-Za-z_]\w*)", re.M)
_TERRAFORM = re.compile(
    r'^[ \t]*(?:(?:resource|data)[ \t]+"[\w-]+"[ \t]+"([\w-]+)"'
    r'|(?:output|variable|module)[ \t]+"([\w-]+)")',
    re.M,
)
_NAME_ATTR = re.compile(r'\bname="([A-Za-z_][\w.]*)"')
#: A key a settings file defines: ``serde = "1"``, ``  max-page-size: 50``. Only
#: in settings files: in code, ``x = 1`` is everywhere, and in Terraform the same
#: ``replica_count = 1`` sets production and (unasked) staging alike.
#: A dotted key (``"settings.darkMode": "Dark mode"``, a translation's) is one name:
#: the code reads it whole (``t('settings.darkMode')``).
_KEY = re.compile(
    r"""^[ \t]*["']?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)["']?[ \t]*(?::(?!:)|=(?!=))""", re.M
)
#: A dotted key as code quotes it: ``t('settings.darkMode')``, ``$t("nav.home")``.
_DOTTED = re.compile(r"""["'`]([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+)["'`]""")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: A hyphenated name (a CSS class, a chart key): one name, not its words.
_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)+")
#: A route a file declares: ``get "/entries.csv" do``, ``r.Get("/readyz", …)``,
#: ``@GetMapping("/books")``, ``#[get("/ready")]``, ``router.post('/login', …)``.
_ROUTE = re.compile(
    r"""(?i)\b(?:get|post|put|patch|delete|route|handle\w*|\w*mapping|match|any)\s*"""
    r"""\(?\s*["'](/[^"'\s]*)["']"""
)
#: A URL path a line points at (``href="/entries.csv"``, ``path: /readyz``,
#: ``fetch("/api/preferences")``).
_PATH = re.compile(r"(?<![\w.:/])(/[A-Za-z_][\w.-]*(?:/[\w.-]+)*)")
#: An entry a settings file names: ``- name: lifetime_value`` (a documented column,
#: a declared job or volume).
_NAMED = re.compile(r"""^[ \t]*-?[ \t]*name[ \t]*:[ \t]*["']?([A-Za-z_][\w-]*)["']?[ \t]*$""", re.M)
#: A model's field or a table's column: ``archived_at = models.DateTimeField(``,
#: ``archived_at: Mapped[datetime] = mapped_column(``, Ecto's ``field :archived_at``,
#: a Rails migration's ``add_column :projects, :archived_at`` or ``t.datetime :x``.
_FIELD = re.compile(
    r"^[ \t]*(?:(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*(?:[\w.]+\.)?"
    r"(?:Column|mapped_column|Field|relationship|ForeignKey|[A-Z]\w*Field)\("
    r"|field[ \t]+:(\w+)|add_column[ \t]+:\w+,[ \t]*:(\w+)|t\.\w+[ \t]+:(\w+))",
    re.M,
)
#: A style rule's class: ``.button-export {``.
_CSS_CLASS = re.compile(r"^[ \t]*\.([A-Za-z_][\w-]*)[^\n{]*\{", re.M)
#: A column a query names: ``sum(amount) as lifetime_value``.
_SQL_ALIAS = re.compile(r"(?i)\bas[ \t]+([A-Za-z_]\w*)")
#: A field of a schema file: ``weeklyDigest Boolean @default(false)`` (Prisma),
#: ``weeklyDigest: Boolean!`` (GraphQL).
_SCHEMA_FIELD = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*:?[ \t]+\[?[A-Z]\w*", re.M)
_SCHEMA = (".prisma", ".graphql", ".graphqls", ".gql", ".proto")
#: A JavaScript object's method written as a property (``onUpdateReady: (cb) =>``,
#: ``save: async function (``): what a preload bridge or an API object defines.
_JS_PROPERTY = re.compile(
    r"^[ \t]*([A-Za-z_$][\w$]*)[ \t]*:[ \t]*(?:async[ \t]+)?"
    # function (…) | (args, maybe with one level of parentheses): Type => | arg =>
    r"(?:function\b|\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*(?::[^=\n]+)?=>|[A-Za-z_$][\w$]*[ \t]*=>)",
    re.M,
)
#: A Python module's constant, a Django setting: ``DIGEST_BATCH_SIZE = 500``.
_PY_CONSTANT = re.compile(r"^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[ \t]*(?::[^=\n]*)?=(?!=)", re.M)
#: R's function, ``is_complete_row <- function(data) {``.
_R_FUNCTION = re.compile(r"^[ \t]*([A-Za-z.][\w.]*)[ \t]*(?:<-|=)[ \t]*function\b", re.M)
#: A BibTeX entry's key, ``@article{efron1979,`` — what ``\cite{efron1979}`` reads.
_BIB_KEY = re.compile(r"^[ \t]*@[A-Za-z]+[ \t]*\{[ \t]*([^,\s{}]+)[ \t]*,", re.M)
#: A Clojure definition, ``(defn wrap-rate-limit [handler] …)``: names may hold '-'.
_CLOJURE_DEF = re.compile(
    r"\((?:defn-?|def|defmacro|defmulti|defprotocol|defrecord|deftype|defonce)[ \t]+"
    r"(?:\^[:\w-]+[ \t]+)?([A-Za-z*+!?<>_][\w*+!?<>=-]*)"
)
#: A keyword an EDN map defines, ``:rate-limit {:per-minute 60}``.
_EDN_KEY = re.compile(r"(?<![\w:/-]):([A-Za-z][\w-]*)(?=[ \t]+[^\s}\]])")
#: Python's annotated attribute, a dataclass's or a settings class's field:
#: ``csv_delimiter: str = ","``.
_PY_ATTR = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*:[ \t]*[A-Za-z_][\w\[\], .|]*=(?!=)", re.M)
#: Definitions only one kind of file writes so: (its endings, the patterns).
_BY_LANGUAGE: tuple[tuple[tuple[str, ...], tuple[re.Pattern[str], ...]], ...] = (
    ((".py",), (_PY_ATTR, _PY_CONSTANT)),
    # (An object's methods are everyone's ``onSubmit``: read on the explicit side only.)
    (
        (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte"),
        (_JS_PROPERTY,),
    ),
    ((".R", ".r"), (_R_FUNCTION,)),
    ((".bib",), (_BIB_KEY,)),
    ((".clj", ".cljs", ".cljc"), (_CLOJURE_DEF,)),
    ((".edn",), (_EDN_KEY,)),
)


def _of_language(path: str, text: str, *, loose: bool) -> list[str]:
    for endings, patterns in _BY_LANGUAGE:
        if path.endswith(endings):
            return [
                name
                for pattern in patterns
                if loose or pattern is not _JS_PROPERTY
                for name in pattern.findall(text)
            ]
    return []


#: Files a file-system router serves (Next.js, SvelteKit, Nuxt, Astro, Remix).
_PAGE_EXT = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".svelte", ".vue", ".astro", ".md", ".mdx")
#: Names too ordinary to tie two files together, whatever defines them.
_ORDINARY_NAMES = """
    value values index result results render props state setup options params
    request response error errors items data input output string number boolean
    return print import export default public private static const class super
    function object false true null none self this update create delete remove
    handle handler name names label title count total start close open reset
    version load save read write open find send init main list show edit call next
    stop copy move sort push pull join keys size text html body home user item path
    node kind mode file line form page view test done fail info warn debug exit
    resource resources metadata labels annotations template containers selector
"""
_ORDINARY = frozenset(_ORDINARY_NAMES.split())
#: Lines longer than this are data, not code: not read.
_LONGEST = 2000


def _worth(name: str) -> bool:
    if name.startswith("/"):
        return len(name) >= 4  # a route: ``/ready`` is as specific as a URL gets
    folded = name.casefold()
    # Four letters are enough for an exported name (``Ping``, ``Slug``): a type or
    # method a change declares with a capital is the codebase's own word.
    shortest = 4 if name[:1].isupper() and name[1:].islower() else 5
    return len(name) >= shortest and folded not in _ORDINARY and folded not in STOP


_SETTINGS = (".yml", ".yaml", ".toml", ".json", ".ini", ".cfg", ".conf", ".properties", ".env")


def is_settings(path: str) -> bool:
    """A file of keys and values, where a new key is a definition (``.env.example``
    and the like too)."""
    lower = path.lower()
    return lower.endswith(_SETTINGS) or lower.rpartition("/")[2].startswith(".env.")


def _text(lines: Iterable[str]) -> str:
    # One text, read by multi-line patterns: a few regex calls per file, not per line.
    return "\n".join(line for line in lines if len(line) <= _LONGEST)


def defined(
    lines: Iterable[str], *, keys: bool = False, path: str = "", loose: bool = False
) -> frozenset[str]:
    """The distinctive names ``lines`` define (``keys``: a settings file's keys too;
    ``path``: the file they are from, for rules of one kind of file; ``loose``: also
    what is a definition only on the explicit side of a link, a JavaScript object's
    methods)."""
    text = _text(lines)
    found = _DECLARED.findall(text) + _NAME_ATTR.findall(text)
    found += _METHOD.findall(text) + _GO_METHOD.findall(text)
    found += [a or b for a, b in _TERRAFORM.findall(text)]
    # Each rule only where its text can be: most files have no style rule or URL.
    if "{" in text:
        found += _CSS_CLASS.findall(text)
    if "(" in text or ":" in text:
        found += [next(g for g in groups if g) for groups in _FIELD.findall(text)]
    if " as " in text or " AS " in text:
        found += _SQL_ALIAS.findall(text)
    dotted: list[str] = []
    if keys:
        # A dotted key is one name, never its last part: the controller's
        # ``username`` is not what ``spring.datasource.username=`` defines.
        for key in _KEY.findall(text):
            (dotted if "." in key else found).append(key)
        found += _NAMED.findall(text)
    if path.lower().endswith(_SCHEMA):
        found += _SCHEMA_FIELD.findall(text)
    found += _of_language(path, text, loose=loose)
    names = {name.rpartition(".")[2] for name in found if name}
    names.update(dotted)
    if "/" in text:
        names.update(route for route in _ROUTE.findall(text) if route.strip("/"))
    return frozenset(n for n in names if _worth(n))


_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def spelled_for(names: Iterable[str], words: frozenset[str]) -> frozenset[str]:
    """``names`` with the other spellings (:func:`spellings`) of each that shares a
    word with the intent (``words``): ``delivery_window`` for "show the delivery
    window" is looked for as ``DeliveryWindow`` too, while an everyday
    ``max_retries`` links only as written — everyone's ``MAX_RETRIES`` is not the
    feature's."""
    out = set(names)
    if words:
        for name in names:
            if len(name) >= 8 and not words.isdisjoint(proximity_words(name)):
                out |= spellings(name)
    return frozenset(out)


def spellings(name: str) -> frozenset[str]:
    """``name`` as each language spells a name of several words: a proto field
    ``delivery_window`` is ``DeliveryWindow`` in Go, ``deliveryWindow`` in
    TypeScript, ``DELIVERY_WINDOW`` in an environment (one word, a route or a
    dotted key: only itself)."""
    if (not name[:1].isalpha() and name[:1] != "_") or "." in name:
        return frozenset({name})
    parts = _PARTS.findall(name)
    if len(parts) < 2 or "".join(parts) != name.replace("_", "").replace("-", ""):
        return frozenset({name})
    lower = [p.lower() for p in parts]
    return frozenset(
        {
            name,
            "_".join(lower),
            "_".join(lower).upper(),
            "-".join(lower),
            lower[0] + "".join(p.capitalize() for p in lower[1:]),
            "".join(p.capitalize() for p in lower),
        }
    )


def used(lines: Iterable[str]) -> frozenset[str]:
    """The distinctive names ``lines`` mention (definitions included): words,
    hyphenated names, and URL paths."""
    text = _text(lines)
    found = set(_WORD.findall(text))
    if "-" in text:
        found.update(_HYPHENATED.findall(text))
    if "/" in text:
        found.update(p.rstrip("/.") for p in _PATH.findall(text))
    if "." in text:
        found.update(_DOTTED.findall(text))
    return frozenset(n for n in found if _worth(n))


def route_of(path: str) -> str | None:
    """The URL a file-system router serves a new page or handler at: the folders
    under ``app/``, ``pages/`` or ``routes/`` (``app/settings/notifications/page.tsx``
    is ``/settings/notifications``; groups like ``(shop)`` and the ``index`` page
    add nothing); None for any other file."""
    if not path.lower().endswith(_PAGE_EXT):
        return None  # Rails' app/models/user.rb is no page
    parts = path.split("/")
    roots = [i for i, part in enumerate(parts[:-1]) if part in ("app", "pages", "routes")]
    if not roots:
        return None
    stem = parts[-1].split(".")[0]
    tail = [p for p in parts[roots[-1] + 1 : -1] if not (p.startswith("(") and p.endswith(")"))]
    if stem not in ("page", "route", "+page", "+server", "+page.server", "index", "_index"):
        tail.append(stem)
    route = "/" + "/".join(tail)
    return route if len(tail) >= 1 and _worth(route) else None


def added(old: str | None, new: str) -> list[str]:
    """The lines ``new`` has that ``old`` does not (all of them for a new file)."""
    before = set((old or "").splitlines())
    return [line for line in new.splitlines() if line not in before]


def link(
    mine_added: list[str],
    theirs_defined: frozenset[str],
    theirs_used: frozenset[str],
    *,
    keys: bool = False,
    path: str = "",
    route: str | None = None,
    held: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """``("uses" | "defines", name)`` when my added lines use a name their change
    defines, or define one their change uses; None otherwise (``keys``: mine is a
    settings file; ``path``: mine; ``route``: the URL mine, a new page, serves;
    ``held``: the names mine defined before — a key whose value changed, a
    package bumped, defines nothing new)."""
    # A key whose value changed (``API_URL=…`` rewritten) names what it held before.
    mine_used = used(mine_added) - held if keys else used(mine_added)
    hit = sorted(mine_used & theirs_defined) or _under_prefix(mine_used, theirs_defined)
    if hit:
        return "uses", hit[0]
    mine_defined = defined(mine_added, keys=keys, path=path) - held
    if route is not None:
        mine_defined |= {route}
    hit = sorted(mine_defined & theirs_used) or _under_prefix(theirs_used, mine_defined)
    if hit:
        return "defines", hit[0]
    return None


def _under_prefix(urls: frozenset[str], routes: frozenset[str]) -> list[str]:
    """Routes of two segments or more that URLs reach under a prefix: a route group
    mounts ``/users/export`` at ``/admin/users/export``."""
    deep = [r for r in routes if r.startswith("/") and r.count("/") >= 2]
    if not deep:
        return []
    return sorted({r for r in deep for u in urls if u.startswith("/") and u.endswith(r)})
