"""The zone's sixth round of rules, pure parts: sibling copies (mirrors), the
dependency a new import needs, the literals an intent spells out, routes and
URLs, style classes and query columns as shared names, and co-change from the
commit that created a file."""

from __future__ import annotations

import pytest
from vibflow_testing.recovery_inputs import changed

from vibflow.steps.recovery import (
    cochange,
    dependencies,
    literals,
    mirrors,
    proximity,
    shared_names,
)
from vibflow.steps.recovery.evidence import Evidence, judge
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone

SAID = mirrors.intent_tokens("turn on versioning for the prod logs bucket")


def test_a_sibling_folder_the_intent_does_not_name_is_a_mirror() -> None:
    """envs/staging/main.tf mirrors envs/prod/main.tf when the intent names prod; not
    when it names both, and not a file of another name."""
    assert mirrors.mirror_of("envs/staging/main.tf", ["envs/prod/main.tf"], SAID) == (
        "envs/prod/main.tf",
        "prod",
        "staging",
    )
    both = mirrors.intent_tokens("versioning in prod and staging")
    assert mirrors.mirror_of("envs/staging/main.tf", ["envs/prod/main.tf"], both) is None
    assert mirrors.mirror_of("envs/staging/vars.tf", ["envs/prod/main.tf"], SAID) is None


def test_a_sibling_name_differing_in_one_word_is_a_mirror() -> None:
    """worker-resources-patch.yaml mirrors api-resources-patch.yaml for an api intent
    (stop words like 'api' count here), staging.rb production.rb, .env.staging
    .env.production; an interface is no copy of its class."""
    said = mirrors.intent_tokens("raise the api memory limit in production")
    assert mirrors.mirror_of(
        "overlays/prod/worker-resources-patch.yaml",
        ["overlays/prod/api-resources-patch.yaml"],
        said,
    ) == ("overlays/prod/api-resources-patch.yaml", "api", "worker")
    envs = ["config/environments/production.rb"]
    assert mirrors.mirror_of("config/environments/staging.rb", envs, said) is not None
    assert mirrors.mirror_of(".env.staging", [".env.production"], said) is not None
    invoice = mirrors.intent_tokens("the invoice service")
    assert mirrors.mirror_of("Svc/IInvoiceService.cs", ["Svc/InvoiceService.cs"], invoice) is None


def test_a_mirror_carries_the_same_edit() -> None:
    """The same setting with other values is one edit made twice; two files of one
    shape changed for different reasons (list.go's flag and root.go's registration)
    are not."""
    assert mirrors.same_edit(
        ["    limits: { cpu: 500m, memory: 512Mi }"], ['    limits: { cpu: "1", memory: 1Gi }']
    )
    assert not mirrors.same_edit(["      - name: status"], ["      - name: lifetime_value"])
    assert not mirrors.same_edit(["}"], ["}"])
    assert not mirrors.same_edit(
        ['\tlistCmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")'],
        ["\trootCmd.AddCommand(listCmd)"],
    )


def test_mirrors_stay_out_of_the_zone_when_the_file_they_copy_is_in() -> None:
    """A copy in the zone by inferred evidence is dropped when the file it copies is in
    the zone, and its drift reason says whose edit it repeats."""
    files = [changed("envs/prod/main.tf"), changed("envs/staging/main.tf")]
    memory = MemorySignals({"envs/prod/main.tf": ""}, [], True)
    ev = Evidence(
        cochange={"envs/staging/main.tf": cochange.CoChange("envs/prod/main.tf", 2, 2)},
        mirrors={"envs/staging/main.tf": ("envs/prod/main.tf", "prod", "staging")},
    )
    zone = infer_zone(files, memory, {}, (), ev)
    assert [z.path for z in zone] == ["envs/prod/main.tf"]
    (flagged,) = drift(files, zone, memory, {}, ev)
    assert flagged.path == "envs/staging/main.tf"
    assert "same edit as 'envs/prod/main.tf', for 'staging'" in flagged.why_outside_zone


@pytest.mark.parametrize(
    ("import_line", "manifest_line", "manifest"),
    [
        ("from django_filters.rest_framework import X", "django-filter==24.2", True),
        ("const rl = require('express-rate-limit');", '    "express-rate-limit": "^7",', True),
        ("use League\\Csv\\Writer;", '        "league/csv": "^9.15",', True),
        ('require "csv"', 'gem "csv"', True),
        ("import django_filters", '    "django_filters",', False),
        ("use serde_json::Value;", 'serde_json = "1"', True),
        # Composer names a package apart from its namespace: same vendor, next part inside.
        ("use Barryvdh\\DomPDF\\Facade\\Pdf;", '"barryvdh/laravel-dompdf": "^2.1",', True),
        ("  use Hammer.Plug", '      {:hammer, "~> 6.1"}', True),
        ("  alias Hammer.Backend.ETS", "config :hammer,", False),
    ],
)
def test_a_manifest_line_for_a_new_import(
    import_line: str, manifest_line: str, manifest: bool
) -> None:
    """Each ecosystem's import finds the manifest or settings line that declares it,
    names compared without punctuation and a plural 's'."""
    imports = dependencies.imported([import_line])
    found = dependencies.needed([manifest_line], imports, manifest=manifest)
    assert found is not None


def test_a_version_bump_or_an_unquoted_word_declares_nothing() -> None:
    """A library the manifest already named is a bump, not a declaration; a settings
    value must be quoted and 5+ characters to count."""
    imports = dependencies.imported(["from fastapi import Query"])
    known = dependencies.names_in("fastapi==0.109\n")
    assert dependencies.needed(["fastapi==0.110"], imports, manifest=True, known=known) is None
    json_import = dependencies.imported(["import json"])
    assert dependencies.needed(["format: json"], json_import, manifest=False) is None
    assert dependencies.is_manifest("requirements-dev.txt")
    assert dependencies.is_settings("shop/settings.py")
    assert not dependencies.is_manifest("src/app.py")
    dompdf = dependencies.imported(["use Barryvdh\\DomPDF\\Facade\\Pdf;"])
    assert (
        dependencies.needed(['"barryvdh/laravel-ide-helper": "^2"'], dompdf, manifest=True) is None
    )
    assert dependencies.needed(['"acme/laravel-dompdf": "^2"'], dompdf, manifest=True) is None


def test_the_literals_an_intent_spells_out() -> None:
    """Flags, URL paths (cut before a query or placeholder), identifiers with an
    underscore or inner capital, dotted and backticked words; prose, hyphenated
    words and brand spellings none."""
    found = literals.literals(
        "add a --threads N option, /api/orders/?status=x, DELETE /projects/{id}, "
        "set archived_at and secretName in ingress.tls with `cert-manager`, `tasker list`"
    )
    assert set(found) >= {
        "--threads",
        "/api/orders",
        "/projects",
        "archived_at",
        "secretName",
        "ingress.tls",
        "cert-manager",
        "tasker list",
    }
    assert literals.literals("send a welcome e-mail on sign-up, also on iPhone and macOS") == ()
    pattern = literals.matcher(["--threads"])
    assert pattern is not None
    assert literals.first_in(['  if (arg == "--threads")'], pattern) == "--threads"
    assert literals.first_in(["  --threads-max"], pattern) is None


def test_routes_urls_classes_and_columns_are_shared_names() -> None:
    """A route a change declares links the file pointing at it (under a prefix too); a
    style rule's class links the template using it; a query's column alias links the
    schema documenting it."""
    assert "/entries.csv" in shared_names.defined(['  get "/entries.csv" do'])
    assert "/readyz" in shared_names.used(["              path: /readyz"])
    routes = shared_names.defined(["Route::get('/users/export', [C::class, 'export']);"])
    assert shared_names.link(["$this->get('/admin/users/export')"], routes, frozenset()) == (
        "uses",
        "/users/export",
    )
    css = shared_names.defined([".button-export { float: right; }"])
    assert shared_names.link(['<a class="button-export">'], css, frozenset()) == (
        "uses",
        "button-export",
    )
    assert "lifetime_value" in shared_names.defined(["    sum(amount) as lifetime_value"])
    assert "status" in shared_names.defined(["      - name: status"], keys=True)
    assert "Ping" in shared_names.defined(["func (p *Postgres) Ping(ctx context.Context) error {"])
    assert "Load" not in shared_names.defined(["func Load(path string) (*Config, error) {"])


def test_a_file_system_router_serves_a_new_page_at_its_folder() -> None:
    """Next.js, SvelteKit and Astro pages serve their folder's URL; groups add nothing;
    a Rails model under app/ is no page."""
    assert shared_names.route_of("app/settings/notifications/page.tsx") == "/settings/notifications"
    assert shared_names.route_of("app/(shop)/cart/page.tsx") == "/cart"
    assert shared_names.route_of("src/routes/subscribe/+page.server.js") == "/subscribe"
    assert shared_names.route_of("app/models/user.rb") is None


def test_the_commit_that_created_a_file_is_no_young_cochange() -> None:
    """In a young history, the one commit that touched your file counts for a file it
    modified, not for one it created (a page added with its route)."""
    sha = b"a" * 40
    raw = b"\x1e" + sha + b"\x1f" + sha + b"\0\nM\0app.rb\0A\0views/entry.erb\0M\0views/x.erb\0"
    history = cochange.parse(raw, max_files=10)
    assert history == [("app.rb", "views/entry.erb", "views/x.erb")]
    counts = cochange.count(history, ["app.rb"], ["views/entry.erb", "views/x.erb"])
    ev = Evidence(cochange=counts)
    created, _ = judge(changed("views/entry.erb"), [], ev)
    modified, _ = judge(changed("views/x.erb"), [], ev)
    assert created.source is None
    assert modified.source == "anchor_co_occurrence"


def test_views_named_in_code_are_references() -> None:
    """A view named by its last folders and name, dotted or slashed (a Rails partial
    without its underscore), refers to the template; a file name with an extension
    in quotes is no view name."""
    from vibflow.steps.recovery.references import Index, scan

    index = Index.of(
        {
            "resources/views/admin/users/index.blade.php": "blade",
            "app/views/entries/_form.html.erb": "partial",
        }
    )
    assert set(scan("app/C.php", "return view('admin.users.index');", index)) == {"blade"}
    assert set(scan("app/x.erb", '<%= render "entries/form" %>', index)) == {"partial"}
    assert scan("app/x.rb", 'send_file "entries.csv"', index) == {}


def test_a_file_with_your_files_name_next_to_it_is_its_other_half() -> None:
    """index.html.heex next to your index.ex is in scope by proximity; show.ex is not."""
    ev = Evidence(folders={"lib/web/live": ("index.ex", "index.html.heex", "show.ex")})
    seeds = ["lib/web/live/index.ex"]
    half, _ = judge(changed("lib/web/live/index.html.heex"), seeds, ev)
    other, hint = judge(changed("lib/web/live/show.ex"), seeds, ev)
    assert half.source == "name_proximity"
    assert "same name" in half.reason
    assert other.source is None
    assert hint == "it is in the same folder as your file 'lib/web/live/index.ex'"


def test_the_same_edit_to_a_sibling_screen_of_another_name() -> None:
    """Dashboard.tsx next to MonthlyReport.tsx, for a monthly-report intent, copies it
    when its change repeats half of the report's (two lines at least); a one-line echo
    or a file named for the intent is no such copy."""
    said = mirrors.intent_tokens("Add a CSV export button to the monthly report screen")
    siblings = mirrors.Siblings(["src/screens/MonthlyReport.tsx", "src/screens/Dashboard.tsx"])
    assert siblings.copies_in_folder("src/screens/Dashboard.tsx", said) == [
        ("src/screens/MonthlyReport.tsx", "monthly", "dashboard")
    ]
    assert siblings.copies_in_folder("src/screens/ReportChart.tsx", said) == []
    button = [
        "import { exportCsv } from '../lib/csv';",
        "      <button onClick={() => exportCsv(rows)}>Export CSV</button>",
    ]
    assert mirrors.same_edit(button, [*button, "  const rows = useRows();"], strict=True)
    assert not mirrors.same_edit(button[:1], button, strict=True)


def test_model_fields_and_migration_columns_are_definitions() -> None:
    """A model's field (Django, SQLAlchemy, Ecto) and a Rails migration's column are
    names a change defines, so the migration or serializer using them links; a plain
    assignment is not."""
    lines = [
        "    archived_at = models.DateTimeField(null=True)",
        "    deleted_at: Mapped[datetime | None] = mapped_column(nullable=True)",
        "    field :confirmed_at, :utc_datetime",
        "    add_column :projects, :pinned_at, :datetime",
        "    total = price * qty",
    ]
    # (each also spelled as other languages write it: ArchivedAt, archivedAt …)
    snake = {n for n in shared_names.defined(lines) if n.islower() and "_" in n}
    assert snake == {"archived_at", "deleted_at", "confirmed_at", "pinned_at"}


def test_a_translation_key_is_one_dotted_name() -> None:
    """A strings file's new dotted key is defined whole (never by its last part: the
    code's `username` is not `spring.datasource.username=`), and a component
    quoting it whole uses it: the two changes are linked."""
    en = ['  "settings.title": "Settings",', '  "settings.darkMode": "Dark mode"']
    defined = shared_names.defined(en, keys=True, path="src/i18n/en.json")
    assert "settings.darkMode" in defined
    assert "darkMode" not in defined
    spring = ["spring.datasource.username=postgres"]
    props = shared_names.defined(spring, keys=True, path="application.properties")
    assert "username" not in props
    assert "settings.darkMode" in shared_names.used(["<Toggle label={$t('settings.darkMode')} />"])
    found = shared_names.link(
        en[1:], frozenset(), shared_names.used(["{t('settings.darkMode')}"]), keys=True
    )
    assert found is not None
    assert found[0] == "defines"
    # In code a dotted name is no key: `a.b = 1` defines nothing.
    assert "settings.darkMode" not in shared_names.defined(["settings.darkMode = 1"])


def test_env_templates_dataclass_fields_and_sbt_dependencies() -> None:
    """A new variable in `.env.example` is a key the route reads; a dataclass field is
    a definition the command reads (Python only: `x: int = 0` means nothing in YAML);
    build.sbt declares the library a Scala import needs."""
    assert shared_names.is_settings(".env.example")
    assert shared_names.is_settings("web/.env.local")
    assert not shared_names.is_settings("src/env.ts")
    env = shared_names.defined(["NEWSLETTER_DOUBLE_OPT_IN=true"], keys=True, path=".env.example")
    assert "NEWSLETTER_DOUBLE_OPT_IN" in env
    field = ['    csv_delimiter: str = ","']
    assert "csv_delimiter" in shared_names.defined(field, path="src/tallyho/config.py")
    assert "csv_delimiter" not in shared_names.defined(field, path="src/config.ts")
    assert dependencies.is_manifest("build.sbt")
    imports = dependencies.imported(["import com.github.blemale.scaffeine.Scaffeine"])
    line = '      "com.github.blemale" %% "scaffeine" % "5.3.0",'
    assert dependencies.needed([line], imports, manifest=True) is not None


def test_a_name_of_several_words_links_across_languages() -> None:
    """A proto field `delivery_window` is `DeliveryWindow` in Go and `deliveryWindow` in
    TypeScript, a settings key `delivery_window_days` is `cfg.DeliveryWindowDays` —
    for names of the intent's words ("show the delivery window"). An everyday
    `max_retries` links only as written: another module's `MAX_RETRIES` is not the
    feature's (an attack found it hiding drift)."""
    assert shared_names.spellings("delivery_window") >= {"DeliveryWindow", "deliveryWindow"}
    assert shared_names.spellings("windowFor") >= {"window_for", "WINDOW_FOR"}
    assert shared_names.spellings("/readyz") == {"/readyz"}
    assert shared_names.spellings("settings.darkMode") == {"settings.darkMode"}
    intent = frozenset(proximity.words("Show the delivery window on each quote"))
    proto = ["  DeliveryWindow delivery_window = 3;", "message DeliveryWindow {"]
    theirs = shared_names.spelled_for(shared_names.defined(proto, path="shipping.proto"), intent)
    page = ["{q.deliveryWindow && <p>Arrives {formatWindow(q.deliveryWindow)}</p>}"]
    assert shared_names.link(page, theirs, frozenset()) == ("uses", "deliveryWindow")
    key = ["delivery_window_days: [2, 4]"]
    go = ["q.DeliveryWindow = windowFor(c, cfg.DeliveryWindowDays)"]
    uses = shared_names.spelled_for(shared_names.used(go), intent)
    assert shared_names.link(key, frozenset(), uses, keys=True, path="config/base.yaml")
    login = shared_names.spelled_for(shared_names.used(["n = settings.max_retries"]), intent)
    assert "MAX_RETRIES" not in login
    webhooks = ["MAX_RETRIES = 10"]
    assert shared_names.link(webhooks, frozenset(), login, path="app/webhooks.py") is None


def test_a_rewritten_key_uses_nothing_new_and_a_prefixed_route_links() -> None:
    """`API_URL=…` whose value changed in `.env.production` is not "using" the
    in-scope `apiUrl`; a route mounted under a prefix links (it used to crash)."""
    uses = frozenset({"API_URL", "apiUrl"})
    old = ["API_URL=https://api.example.com"]
    held = shared_names.defined(old, keys=True, path=".env.production")
    new = ["API_URL=https://staging.example.com"]
    assert shared_names.link(new, uses, frozenset(), keys=True, held=held) is None
    assert shared_names.link(new, uses, frozenset(), keys=True) is not None


def test_a_key_the_file_held_before_defines_nothing_new() -> None:
    """Production's timeout raised, or a package bumped, is a value changed: the
    in-scope code reading that key does not pull the change into scope; a new key
    still does."""
    uses = shared_names.used(
        ["const t = cfg.carrier_timeout_ms; import { Queue } from 'aws-cdk-lib';"]
    )
    old = ["carrier_timeout_ms: 2000"]
    held = shared_names.defined(old, keys=True, path="config/prod.yaml")
    raised = ["carrier_timeout_ms: 9000"]
    assert shared_names.link(raised, frozenset(), uses, keys=True, held=held) is None
    assert shared_names.link(raised, frozenset(), uses, keys=True) is not None
    bump_old = ['    "aws-cdk-lib": "2.140.0",']
    held = shared_names.defined(bump_old, keys=True, path="package.json")
    bump = ['    "aws-cdk-lib": "2.160.0",']
    assert shared_names.link(bump, frozenset(), uses, keys=True, held=held) is None


def test_a_javascript_objects_methods_are_definitions() -> None:
    """An Electron preload bridge or an API object defines its methods as properties:
    the renderer's new banner calling them is linked to it; in Python the same text
    means nothing, and a plain value is no method."""
    bridge = [
        "  onUpdateReady: (cb: (version: string) => void) =>",
        "    ipcRenderer.on('update:ready', (_e, v: string) => cb(v)),",
        "  installUpdate: () => ipcRenderer.invoke('update:install'),",
        "  saveAll: async function (items) {",
        "  releaseName: 'Podwave',",
    ]
    found = shared_names.defined(bridge, path="src/preload/index.ts", loose=True)
    assert {"onUpdateReady", "installUpdate", "saveAll"} <= found
    assert "releaseName" not in found
    assert "installUpdate" not in shared_names.defined(bridge, path="bridge.py", loose=True)
    # A drifted file's own `onSubmit: (values) => …` is no definition the in-scope form
    # reads: everyone's forms have one (an attack found it hiding drift).
    assert "installUpdate" not in shared_names.defined(bridge, path="src/preload/index.ts")


def test_a_python_modules_constant_is_a_definition() -> None:
    """A Django setting (`DIGEST_BATCH_SIZE = 500`) is defined by the settings module the
    task reads it from; a one-word or lower-case assignment is not, nor in another
    language."""
    lines = ["DIGEST_BATCH_SIZE = 500", "DEBUG = False", "batch_size = 5", "    INNER_NAME = 1"]
    found = shared_names.defined(lines, path="config/settings/base.py")
    assert "DIGEST_BATCH_SIZE" in found
    assert not {"DEBUG", "INNER_NAME", "batch_size"} & found
    assert "DIGEST_BATCH_SIZE" not in shared_names.defined(lines, path="config.rb")


@pytest.mark.parametrize(
    ("path", "line", "name"),
    [
        ("R/utils.R", "is_complete_row <- function(data, prefix = 'req_') {", "is_complete_row"),
        ("refs.bib", "@article{efron1979, title={Bootstrap Methods}}", "efron1979"),
        ("src/acme/api/middleware.clj", "(defn wrap-rate-limit [handler opts]", "wrap-rate-limit"),
        ("resources/config/base.edn", " :rate-limit {:per-minute 60}", "rate-limit"),
    ],
)
def test_definitions_of_r_bibtex_clojure_and_edn(path: str, line: str, name: str) -> None:
    """An R function, a BibTeX key (what `\\cite{…}` reads), a Clojure definition and an
    EDN map's keyword — each only in its own kind of file."""
    assert name in shared_names.defined([line], path=path)
    assert name not in shared_names.defined([line], path="notes.txt")
