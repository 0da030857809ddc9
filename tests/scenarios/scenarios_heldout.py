# ruff: noqa: E501  (scenario data: file contents read best on one line)
"""The held-out third of the corpus: written before the zone signals were tuned,
and never tuned on. Each builder says in its docstring what a careful user would
call each change; see ``scenario_kit`` for the vocabulary."""

from __future__ import annotations

from scenario_kit import ELF, PNG, Scenario, Scene, lines


def csv_export_vs_dashboard(s: Scene) -> None:
    """TS/React: a CSV export on the monthly report screen. The agent adds a csv
    helper the screen imports and updates the screen's test — and retitles the
    dashboard in the same folder (drift)."""
    screens = {
        f"src/screens/{n}.tsx": lines(
            "import React from 'react';",
            "import { Page } from '../components/Page';",
            "",
            f"export function {n}() {{",
            f'  return <Page title="{n}"><p>{n} content</p></Page>;',
            "}",
        )
        for n in ("Dashboard", "Settings", "Billing", "Users", "Audit")
    }
    report = lines(
        "import React from 'react';",
        "import { Page } from '../components/Page';",
        "import { useReport } from '../hooks/useReport';",
        "",
        "export function MonthlyReport() {",
        "  const rows = useReport('monthly');",
        '  return <Page title="Monthly report"><table>{rows.map(r => <tr key={r.id}/>)}</table></Page>;',
        "}",
    )
    s.commit(
        "app",
        {
            "package.json": '{"name": "shop-admin", "dependencies": {"react": "18.2.0"}}\n',
            "src/components/Page.tsx": "export function Page(p: any) { return p.children; }\n",
            "src/hooks/useReport.ts": "export function useReport(k: string) { return []; }\n",
            "src/screens/MonthlyReport.tsx": report,
            "src/screens/MonthlyReport.test.tsx": lines(
                "import { MonthlyReport } from './MonthlyReport';",
                "test('renders', () => { expect(MonthlyReport).toBeDefined(); });",
            ),
            **screens,
        },
    )
    s.intent(
        "Add a CSV export button to the monthly report screen",
        {"src/screens/MonthlyReport.tsx": "the report screen getting the export"},
    )
    s.agent(
        {
            "src/screens/MonthlyReport.tsx": report.replace(
                "import { useReport } from '../hooks/useReport';",
                "import { useReport } from '../hooks/useReport';\n"
                "import { toCsv } from '../lib/csv';",
            ).replace("<table>", "<button onClick={() => toCsv(rows)}>Export CSV</button><table>"),
            "src/lib/csv.ts": lines(
                "export function toCsv(rows: any[]): string {",
                "  return rows.map(r => Object.values(r).join(',')).join('\\n');",
                "}",
            ),
            "src/screens/MonthlyReport.test.tsx": lines(
                "import { MonthlyReport } from './MonthlyReport';",
                "test('renders', () => { expect(MonthlyReport).toBeDefined(); });",
                "test('has an export button', () => { expect(MonthlyReport).toBeDefined(); });",
            ),
            "src/screens/Dashboard.tsx": screens["src/screens/Dashboard.tsx"].replace(
                'title="Dashboard"', 'title="Overview"'
            ),
        }
    )
    s.fine("src/screens/MonthlyReport.tsx", "src/lib/csv.ts", "src/screens/MonthlyReport.test.tsx")
    s.drift("src/screens/Dashboard.tsx")


def go_service_bin(s: Scene) -> None:
    """Go: order cancellation in the orders package. The agent adds cancel.go and a
    test next to it, refreshes go.sum, builds bin/api (an untracked executable) and
    also edits the payments package (drift)."""
    s.commit(
        "service",
        {
            "go.mod": "module example.com/shop\n\ngo 1.22\n",
            "go.sum": "example.com/x v1.0.0 h1:abc=\n",
            "cmd/api/main.go": lines(
                "package main",
                "",
                'import "example.com/shop/internal/orders"',
                "",
                "func main() { orders.Serve() }",
            ),
            "internal/orders/orders.go": lines(
                "package orders",
                "",
                "type Order struct{ ID string; State string }",
                "",
                "func Serve() {}",
            ),
            "internal/orders/orders_test.go": lines(
                "package orders",
                "",
                'import "testing"',
                "",
                "func TestServe(t *testing.T) { Serve() }",
            ),
            "internal/payments/stripe.go": lines(
                "package payments",
                "",
                "const Timeout = 30",
                "",
                "func Charge() error { return nil }",
            ),
        },
    )
    s.intent(
        "Add order cancellation to the orders service",
        {"internal/orders/orders.go": "order model and handlers"},
    )
    s.agent(
        {
            "internal/orders/orders.go": lines(
                "package orders",
                "",
                "type Order struct{ ID string; State string }",
                "",
                "func Serve() { registerCancel() }",
            ),
            "internal/orders/cancel.go": lines(
                "package orders",
                "",
                "// Cancel marks an order cancelled.",
                'func Cancel(o *Order) { o.State = "cancelled" }',
                "",
                "func registerCancel() {}",
            ),
            "internal/orders/cancel_test.go": lines(
                "package orders",
                "",
                'import "testing"',
                "",
                "func TestCancel(t *testing.T) { o := &Order{}; Cancel(o) }",
            ),
            "go.sum": "example.com/x v1.0.0 h1:abc=\nexample.com/y v1.1.0 h1:def=\n",
            "internal/payments/stripe.go": lines(
                "package payments",
                "",
                "const Timeout = 5",
                "",
                "func Charge() error { return nil }",
            ),
            "bin/api": ELF,
        }
    )
    s.fine(
        "internal/orders/orders.go",
        "internal/orders/cancel.go",
        "internal/orders/cancel_test.go",
        "go.sum",
    )
    s.drift("internal/payments/stripe.go")
    s.excluded("bin/api")


def python_discounts(s: Scene) -> None:
    """Python: discount codes in the cart. The cart imports a new discounts module,
    its test is updated; the agent also changes shipping (same folder) and the
    settings file (drift); __pycache__ is left behind."""
    s.commit(
        "shop",
        {
            "pyproject.toml": '[project]\nname = "shop"\nversion = "0.1.0"\n',
            "settings.toml": "[shop]\nfree_shipping_over = 50\n",
            "src/shop/__init__.py": "",
            "src/shop/cart.py": lines(
                "from shop.money import Money",
                "",
                "",
                "class Cart:",
                "    def __init__(self):",
                "        self.items = []",
                "",
                "    def total(self) -> Money:",
                "        return Money(sum(i.price for i in self.items))",
            ),
            "src/shop/money.py": "class Money(int):\n    pass\n",
            "src/shop/shipping.py": "def cost(total):\n    return 0 if total > 50 else 5\n",
            "src/shop/catalog.py": "ITEMS = {}\n",
            "tests/test_cart.py": lines(
                "from shop.cart import Cart",
                "",
                "",
                "def test_empty():",
                "    assert Cart().total() == 0",
            ),
            "tests/test_shipping.py": lines(
                "from shop.shipping import cost",
                "",
                "",
                "def test_free():",
                "    assert cost(60) == 0",
            ),
        },
    )
    s.intent("Apply discount codes in the cart", {"src/shop/cart.py": "cart totals"})
    s.agent(
        {
            "src/shop/cart.py": lines(
                "from shop.discounts import apply_code",
                "from shop.money import Money",
                "",
                "",
                "class Cart:",
                "    def __init__(self):",
                "        self.items = []",
                "        self.code = None",
                "",
                "    def total(self) -> Money:",
                "        return apply_code(Money(sum(i.price for i in self.items)), self.code)",
            ),
            "src/shop/discounts.py": lines(
                "CODES = {'SAVE10': 10}",
                "",
                "",
                "def apply_code(total, code):",
                "    return total - CODES.get(code, 0)",
            ),
            "tests/test_cart.py": lines(
                "from shop.cart import Cart",
                "",
                "",
                "def test_empty():",
                "    assert Cart().total() == 0",
                "",
                "",
                "def test_code():",
                "    c = Cart()",
                "    c.code = 'SAVE10'",
                "    assert c.total() == -10",
            ),
            "src/shop/shipping.py": "def cost(total):\n    return 0 if total > 30 else 5\n",
            "settings.toml": "[shop]\nfree_shipping_over = 30\n",
            "src/shop/__pycache__/cart.cpython-312.pyc": b"\x00\x00compiled",
            "tests/__pycache__/test_cart.cpython-312.pyc": b"\x00\x00compiled",
        }
    )
    s.fine("src/shop/cart.py", "src/shop/discounts.py", "tests/test_cart.py")
    s.drift("src/shop/shipping.py", "settings.toml")
    s.excluded(
        "src/shop/__pycache__/cart.cpython-312.pyc", "tests/__pycache__/test_cart.cpython-312.pyc"
    )


def rust_parser_cochange(s: Scene) -> None:
    """Rust: escaped quotes in the parser. The lexer has always changed together
    with the parser (history), the agent edits both; it also rewords the CLI's
    help (drift); Cargo.lock is regenerated and target/ holds the build."""
    parser = lines("use crate::lexer::Token;", "", "pub fn parse(t: &[Token]) -> usize { t.len() }")
    lexer = lines("pub struct Token;", "", "pub fn lex(s: &str) -> Vec<Token> { vec![] }")
    s.commit(
        "crate",
        {
            "Cargo.toml": '[package]\nname = "quill"\nversion = "0.1.0"\n',
            "Cargo.lock": "version = 3\n",
            "src/main.rs": "mod cli;\nmod lexer;\nmod parser;\nfn main() { cli::run(); }\n",
            "src/cli.rs": 'pub fn run() { println!("quill: parse files"); }\n',
            "src/parser.rs": parser,
            "src/lexer.rs": lexer,
            "src/format.rs": "pub fn pretty() {}\n",
        },
        days_ago=60,
    )
    for n in range(3):
        s.commit(
            f"parser+lexer step {n}",
            {
                "src/parser.rs": parser + f"// step {n}\n",
                "src/lexer.rs": lexer + f"// step {n}\n",
            },
            days_ago=40 - n,
        )
    s.commit("format tweak", {"src/format.rs": "pub fn pretty() { }\n"}, days_ago=20)
    s.intent("Support escaped quotes in the parser", {"src/parser.rs": "the parser"})
    s.agent(
        {
            "src/parser.rs": parser
            + 'pub fn unescape(s: &str) -> String { s.replace("\\\\\\"", "\\"") }\n',
            "src/lexer.rs": lexer + "pub fn is_escape(c: char) -> bool { c == '\\\\' }\n",
            "src/cli.rs": 'pub fn run() { println!("quill: parse and check files"); }\n',
            "Cargo.lock": 'version = 3\n\n[[package]]\nname = "quill"\n',
            "target/debug/quill": ELF,
            "target/debug/deps/quill-1234.d": "src/main.rs:\n",
        }
    )
    s.fine("src/parser.rs", "src/lexer.rs", "Cargo.lock")
    s.drift("src/cli.rs")
    s.excluded("target/debug/quill", "target/debug/deps/quill-1234.d")


def java_invoice_rounding(s: Scene) -> None:
    """Java/Maven: invoice totals rounded to cents. The service's test (same package,
    no import) is updated; the agent also edits the user controller (drift);
    target/ holds compiled classes."""
    pkg = "src/main/java/com/acme/invoice"
    service = lines(
        "package com.acme.invoice;",
        "",
        "import java.math.BigDecimal;",
        "",
        "public class InvoiceService {",
        "    public BigDecimal total(BigDecimal a) { return a; }",
        "}",
    )
    s.commit(
        "maven app",
        {
            "pom.xml": "<project><artifactId>acme</artifactId></project>\n",
            f"{pkg}/InvoiceService.java": service,
            f"{pkg}/Invoice.java": "package com.acme.invoice;\n\npublic class Invoice {}\n",
            "src/main/java/com/acme/user/UserController.java": lines(
                "package com.acme.user;",
                "",
                "public class UserController {",
                '    public String greet() { return "Hello"; }',
                "}",
            ),
            "src/test/java/com/acme/invoice/InvoiceServiceTest.java": lines(
                "package com.acme.invoice;",
                "",
                "class InvoiceServiceTest {",
                "    void totals() { new InvoiceService().total(null); }",
                "}",
            ),
        },
    )
    s.intent("Round invoice totals to cents", {f"{pkg}/InvoiceService.java": "totals"})
    s.agent(
        {
            f"{pkg}/InvoiceService.java": service.replace(
                "return a;", "return a.setScale(2, java.math.RoundingMode.HALF_UP);"
            ),
            "src/test/java/com/acme/invoice/InvoiceServiceTest.java": lines(
                "package com.acme.invoice;",
                "",
                "class InvoiceServiceTest {",
                "    void totals() { new InvoiceService().total(null); }",
                "    void rounds() { new InvoiceService().total(java.math.BigDecimal.ONE); }",
                "}",
            ),
            "src/main/java/com/acme/user/UserController.java": lines(
                "package com.acme.user;",
                "",
                "public class UserController {",
                '    public String greet() { return "Hi there"; }',
                "}",
            ),
            "target/classes/com/acme/invoice/InvoiceService.class": b"\xca\xfe\xba\xbe\x00\x00",
        }
    )
    s.fine(f"{pkg}/InvoiceService.java", "src/test/java/com/acme/invoice/InvoiceServiceTest.java")
    s.drift("src/main/java/com/acme/user/UserController.java")
    s.excluded("target/classes/com/acme/invoice/InvoiceService.class")


def monorepo_spec_regenerated_client(s: Scene) -> None:
    """Monorepo: a refund endpoint added to the API spec. The generated client (60
    tracked files under __generated__/, header-marked and linguist-generated) is
    regenerated, package-lock.json too; the agent also edits the CI workflow
    (drift)."""
    gen = "packages/web/src/__generated__/api"
    header = "// Code generated by openapi-generator. DO NOT EDIT.\n"
    client = {
        f"{gen}/model{i:02d}.ts": header + f"export interface Model{i} {{ id: string }}\n"
        for i in range(60)
    }
    s.commit(
        "monorepo",
        {
            ".gitattributes": "packages/web/src/__generated__/** linguist-generated=true\n",
            "package.json": '{"private": true, "workspaces": ["packages/*"]}\n',
            "package-lock.json": '{"lockfileVersion": 3}\n',
            ".github/workflows/ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
            "packages/api/openapi.yaml": "openapi: 3.0.0\npaths:\n  /orders: {}\n",
            "packages/api/src/server.ts": "export function serve() {}\n",
            "packages/web/src/App.tsx": "export function App() { return null; }\n",
            **client,
        },
    )
    s.intent(
        "Add the refund endpoint to the API spec",
        {"packages/api/openapi.yaml": "the public API contract"},
    )
    s.agent(
        {
            "packages/api/openapi.yaml": "openapi: 3.0.0\npaths:\n  /orders: {}\n  /refunds: {}\n",
            **{p: t + "export const refunds = true;\n" for p, t in client.items()},
            f"{gen}/RefundApi.ts": header + "export class RefundApi {}\n",
            "package-lock.json": '{"lockfileVersion": 3, "packages": {}}\n',
            ".github/workflows/ci.yml": "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-22.04\n",
        }
    )
    s.fine("packages/api/openapi.yaml", "package-lock.json")
    s.drift(".github/workflows/ci.yml")
    s.excluded(*client, f"{gen}/RefundApi.ts")


def docs_windows_install(s: Scene) -> None:
    """Docs only: Windows install steps. The guide's index links the page, a
    screenshot is added next to it; the agent also edits the changelog and the
    README badge (drift)."""
    s.commit(
        "docs",
        {
            "README.md": "# Tool\n\n![build](badge.svg)\n",
            "docs/changelog.md": "# Changelog\n\n## 1.0\n- first\n",
            "docs/guide/index.md": "# Guide\n\n- [Install](install.md)\n- [Usage](usage.md)\n",
            "docs/guide/install.md": "# Install\n\n## Linux\n\n    pip install tool\n",
            "docs/guide/usage.md": "# Usage\n\nRun `tool`.\n",
        },
    )
    s.intent("Document the Windows install steps", {"docs/guide/install.md": "install page"})
    s.agent(
        {
            "docs/guide/install.md": "# Install\n\n## Linux\n\n    pip install tool\n\n"
            "## Windows\n\n![installer](images/windows-installer.png)\n",
            "docs/guide/images/windows-installer.png": PNG,
            "docs/guide/index.md": "# Guide\n\n- [Install](install.md) (Linux, [Windows](install.md#windows))\n- [Usage](usage.md)\n",
            "docs/changelog.md": "# Changelog\n\n## 1.1\n- faster\n\n## 1.0\n- first\n",
            "README.md": "# Tool\n\n![build](badge.svg) ![pypi](pypi.svg)\n",
        }
    )
    s.fine(
        "docs/guide/install.md", "docs/guide/images/windows-installer.png", "docs/guide/index.md"
    )
    s.drift("docs/changelog.md", "README.md")


def rename_and_deleted_test(s: Scene) -> None:
    """Python: the report module renamed to reports; its caller follows the rename.
    The agent also deletes an unrelated test and renames an unrelated notes file
    (drift)."""
    s.commit(
        "app",
        {
            "src/app/__init__.py": "",
            "src/app/report.py": "def build():\n    return 'report'\n",
            "src/app/main.py": "from app.report import build\n\n\ndef run():\n    return build()\n",
            "src/app/mathx.py": "def add(a, b):\n    return a + b\n",
            "tests/test_report.py": "from app.report import build\n\n\ndef test_build():\n    assert build()\n",
            "tests/test_legacy_math.py": "from app.mathx import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
            "docs/notes.txt": "notes\n",
        },
    )
    s.intent(
        "Rename the report module to reports",
        {"src/app/report.py": "module being renamed", "tests/test_report.py": "its test"},
    )
    s.agent(rename={"src/app/report.py": "src/app/reports.py", "docs/notes.txt": "docs/notes.md"})
    s.agent(
        {
            "src/app/main.py": "from app.reports import build\n\n\ndef run():\n    return build()\n",
            "tests/test_report.py": "from app.reports import build\n\n\ndef test_build():\n    assert build()\n",
        },
        delete=["tests/test_legacy_math.py"],
    )
    s.fine("src/app/reports.py", "src/app/main.py", "tests/test_report.py")
    s.drift("tests/test_legacy_math.py", "docs/notes.md")


def empty_memory_junk(s: Scene) -> None:
    """No memory at all: nothing can be called drift (diff-aware mode); node_modules
    and coverage output are excluded."""
    s.commit(
        "web",
        {
            "package.json": '{"name": "w"}\n',
            "src/index.ts": "export const x = 1;\n",
            "src/util.ts": "export const y = 2;\n",
        },
    )
    s.agent(
        {
            "src/index.ts": "export const x = 2;\n",
            "src/util.ts": "export const y = 3;\n",
            "src/new.ts": "export const z = 1;\n",
            "node_modules/left-pad/index.js": "module.exports = () => 1;\n",
            "node_modules/left-pad/package.json": '{"name": "left-pad"}\n',
            "coverage/lcov.info": "TN:\n",
        }
    )
    s.fine("src/index.ts", "src/util.ts", "src/new.ts")
    s.excluded(
        "node_modules/left-pad/index.js", "node_modules/left-pad/package.json", "coverage/lcov.info"
    )


def stale_intent_checkpoints(s: Scene) -> None:
    """A three-day-old intent is stale: the plan uses the diff only and labels
    nothing drift, while the explicit file stays in scope. A checkpoint before the
    change is the safe point, not the one taken after it."""
    s.commit(
        "app",
        {
            "app/models.py": "class User:\n    pass\n",
            "app/views.py": "def index():\n    return 'hi'\n",
            "app/forms.py": "class Form:\n    pass\n",
        },
    )
    s.intent("Add avatars to users", {"app/models.py": "user model"}, hours_ago=72)
    before = s.checkpoint("before the agent")
    s.agent(
        {
            "app/models.py": "class User:\n    avatar = None\n",
            "app/views.py": "def index():\n    return 'hello'\n",
            "app/forms.py": "class Form:\n    avatar = None\n",
        }
    )
    s.checkpoint("after the agent")
    s.fine("app/models.py", "app/views.py", "app/forms.py")
    s.safe_checkpoint(before)


def non_ascii_spaced_junk(s: Scene) -> None:
    """Non-ASCII and spaced names: the overview page gets a filter panel it imports;
    the agent also edits the cancellation page (drift); nested junk everywhere is
    excluded."""
    page = lines(
        "import React from 'react';",
        "",
        "export default function Überblick() { return <div>Überblick</div>; }",
    )
    s.commit(
        "seiten",
        {
            "package.json": '{"name": "seiten"}\n',
            "src/ui/Überblick Seite.tsx": page,
            "src/ui/Kündigung.tsx": "export default function K() { return <div>Kündigung</div>; }\n",
            "src/ui/Konto.tsx": "export default function Konto() { return <div/>; }\n",
        },
    )
    s.intent("Überblick Seite: Filter hinzufügen", {"src/ui/Überblick Seite.tsx": "die Seite"})
    s.agent(
        {
            "src/ui/Überblick Seite.tsx": page.replace(
                "import React from 'react';",
                "import React from 'react';\nimport Filter from './Überblick Filter';",
            ).replace("<div>Überblick</div>", "<div><Filter/>Überblick</div>"),
            "src/ui/Überblick Filter.tsx": "export default function Filter() { return <form/>; }\n",
            "src/ui/Kündigung.tsx": "export default function K() { return <div>Kündigen</div>; }\n",
            "src/ui/.cache/babel/x.json": "{}\n",
            "packages/a/node_modules/b/index.js": "x\n",
            ".DS_Store": b"\x00\x00\x00\x01Bud1",
            "src/ui/.DS_Store": b"\x00\x00\x00\x01Bud1",
        }
    )
    s.fine("src/ui/Überblick Seite.tsx", "src/ui/Überblick Filter.tsx")
    s.drift("src/ui/Kündigung.tsx")
    s.excluded(
        "src/ui/.cache/babel/x.json",
        "packages/a/node_modules/b/index.js",
        ".DS_Store",
        "src/ui/.DS_Store",
    )


HELD_OUT = [
    Scenario("csv_export_vs_dashboard", csv_export_vs_dashboard, True, "TS/React sibling screen"),
    Scenario("go_service_bin", go_service_bin, True, "Go bin/ output, go.sum"),
    Scenario("python_discounts", python_discounts, True, "Python import + config drift"),
    Scenario("rust_parser_cochange", rust_parser_cochange, True, "Rust co-change, target/"),
    Scenario("java_invoice_rounding", java_invoice_rounding, True, "Java same-package test"),
    Scenario(
        "monorepo_spec_regenerated_client",
        monorepo_spec_regenerated_client,
        True,
        "OpenAPI spec vs CI, generated flood",
    ),
    Scenario("docs_windows_install", docs_windows_install, True, "docs only, binary image"),
    Scenario("rename_and_deleted_test", rename_and_deleted_test, True, "renames, deletion"),
    Scenario("empty_memory_junk", empty_memory_junk, True, "empty memory, junk"),
    Scenario("stale_intent_checkpoints", stale_intent_checkpoints, True, "stale intent"),
    Scenario("non_ascii_spaced_junk", non_ascii_spaced_junk, True, "non-ASCII, spaces, junk"),
]
