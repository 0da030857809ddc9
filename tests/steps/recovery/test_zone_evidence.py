"""The zone's evidence, pure parts: per-language references, what counts as part of
the change, distinctive name words, co-change counting, and how the evidence is
judged (strong: in the zone with a reason; weak: a hint that makes drift "unsure"
only in the intent's category; category alone: nothing)."""

from __future__ import annotations

import re
import sys

import pytest
from vibflow_testing.recovery_inputs import CATEGORIES, changed, mem

from vibflow.steps.recovery import cochange, proximity
from vibflow.steps.recovery.evidence import Evidence, Link, judge
from vibflow.steps.recovery.proximity import common_words, name_tokens, stem_under_test, words
from vibflow.steps.recovery.references import Index, changed_lines, scan
from vibflow.steps.recovery.zone import drift, infer_zone


def _targets(*paths: str) -> Index:
    return Index.of({p: p for p in paths})


@pytest.mark.parametrize(
    ("path", "line", "target"),
    [
        ("src/shop/cart.py", "from shop.discounts import apply_code", "src/shop/discounts.py"),
        ("src/shop/cart.py", "from .discounts import apply_code", "src/shop/discounts.py"),
        ("src/shop/cart.py", "from shop import discounts", "src/shop/discounts.py"),
        ("src/shop/cart.py", "import shop.discounts as d", "src/shop/discounts.py"),
        ("src/screens/R.tsx", "import { toCsv } from '../lib/csv';", "src/lib/csv.ts"),
        ("src/screens/R.tsx", "export * from './parts';", "src/screens/parts/index.ts"),
        ("src/screens/R.tsx", "const x = require('./Table.css')", "src/screens/Table.css"),
        ("apps/web/Home.tsx", "import { Button } from '@acme/ui';", "packages/ui/src/Button.tsx"),
        ("cmd/main.go", '"example.com/svc/internal/orders"', "internal/orders/orders.go"),
        ("src/main.rs", "use crate::lexer::Token;", "src/lexer.rs"),
        ("src/main.rs", "mod parser;", "src/parser/mod.rs"),
        (
            "A.java",
            "import com.acme.invoice.InvoiceService;",
            "src/main/java/com/acme/invoice/InvoiceService.java",
        ),
        ("A.java", "import com.acme.invoice.*;", "src/main/java/com/acme/invoice/Invoice.java"),
        ("docs/index.md", "- [Windows](install.md#windows)", "docs/install.md"),
        ("x.c", '#include "util/strbuf.h"', "src/util/strbuf.h"),
        ("T.java", "new InvoiceService().total(x);", "src/InvoiceService.java"),
        ("app/c.rb", "@projects = Project.active", "app/models/project.rb"),
        ("app/c.rb", "OrderItem.where(order: o)", "app/models/order_item.rb"),
        ("app/c.rb", "Admin::User.find(id)", "app/models/admin/user.rb"),
        ("lib/shop/accounts.ex", "UserNotifier.deliver(u)", "lib/shop/accounts/user_notifier.ex"),
        ("test/a_test.exs", "Shop.Accounts.register(x)", "lib/shop/accounts.ex"),
        ("src/main.rs", "Cmd::List(a) => commands::list::run(a),", "src/commands/list.rs"),
    ],
)
def test_references_per_language(path: str, line: str, target: str) -> None:
    """Each language's small rule finds the file a line refers to."""
    found = scan(path, f"{line}\n", _targets(target, "unrelated/other.py"))
    assert set(found) == {target}


def test_common_words_are_not_references() -> None:
    """A short or ordinary stem is no mention ('report' in prose); a relative import
    that resolves elsewhere is none either."""
    index = _targets("src/report.py", "src/a/csv.ts")
    text = "we report numbers\nimport { x } from '../b/csv';\n"
    assert scan("src/a/x.ts", text, index) == {}


def test_moving_an_import_into_a_block_is_no_change_of_it() -> None:
    """Lines compare without their import keyword: `import "x"` becoming a line of an
    import block is not a new reference; a new import is."""
    old = 'package main\n\nimport "example.com/svc/config"\n'
    new = 'package main\n\nimport (\n\t"example.com/svc/config"\n\t"example.com/svc/health"\n)\n'
    lines = changed_lines(old, new)
    assert '"example.com/svc/config"' not in lines
    assert '"example.com/svc/health"' in lines


def test_name_words_and_common_words() -> None:
    """Names split at case, digits and punctuation, without stop words; a word most
    names of a folder share is not distinctive (stems count once)."""
    assert words("Add a CSV export button to the monthly report screen") == [
        "csv",
        "export",
        "monthly",
        "report",
    ]
    assert name_tokens("src/InvoiceRow.test.tsx") == {"invoice", "row"}
    panels = ("DashboardPanel.tsx", "ReportPanel.tsx", "UsersPanel.tsx", "Billing.tsx")
    assert common_words(panels) == {"panel"}
    assert common_words(("Table.tsx", "Table.css", "Modal.tsx", "Tooltip.tsx")) == frozenset()
    # Three names are enough to tell a family word: 'users' in two of three.
    assert common_words(("UsersTable.vue", "UsersFilter.vue", "AppHeader.vue")) == {"users"}
    assert common_words(("Table.tsx", "Modal.tsx")) == frozenset()


def test_ruby_constants_name_only_their_file() -> None:
    """A Ruby constant names the file its snake_case name camelizes from; a comment,
    a lower-case word and another constant do not."""
    index = _targets("app/models/project.rb", "app/models/order_item.rb")
    text = "# Project notes\nproject = 1\nProjectX.new\nOrderItems.count\n"
    assert scan("app/x.rb", text, index) == {}
    found = scan("app/x.rb", "Project.find(1)\n", index)
    assert set(found) == {"app/models/project.rb"}
    assert found["app/models/project.rb"].how == "names"


def test_cochange_skips_root_sweeping_and_creating_commits() -> None:
    """Commits without a parent, with more than max_files files, or that created an
    explicit file say nothing; the rest are counted per candidate with the explicit
    file they shared."""
    sha = b"a" * 40

    def commit(parents: bytes, *changes: bytes) -> bytes:
        return b"\x1e" + sha + b"\x1f" + parents + b"\0\n" + b"".join(c + b"\0" for c in changes)

    raw = b"".join(
        [
            commit(b"", b"A", b"src/p.rs", b"A", b"src/l.rs", b"A", b"src/c.rs"),  # root
            commit(sha, b"A", b"src/p.rs", b"A", b"src/c.rs"),  # creates the explicit file
            commit(sha, b"M", b"src/p.rs", b"A", b"src/l.rs"),
            commit(sha, b"M", b"src/p.rs", b"M", b"src/l.rs"),
            commit(sha, b"M", b"src/p.rs", *[x for i in range(9) for x in (b"M", b"f%d" % i)]),
        ]
    )
    history = cochange.parse(raw, max_files=5, created=["src/p.rs"])
    assert history == [("src/p.rs", "src/l.rs"), ("src/p.rs", "src/l.rs")]
    counts = cochange.count(history, ["src/p.rs"], ["src/l.rs", "src/c.rs"])
    assert counts == {"src/l.rs": cochange.CoChange("src/p.rs", 2, 2, created=1)}


def _ev(**kw: object) -> Evidence:
    return Evidence(**kw)  # type: ignore[arg-type]


def test_judging_references() -> None:
    """A reference in the changed lines is strong; one already there is strong only with
    a shared name word; otherwise it is a hint."""
    c = changed("src/screens/Billing.tsx")
    seeds = ["src/components/Table.tsx"]
    old = Link("src/components/Table.tsx", "from", "imports", in_change=False)
    found, hint = judge(c, seeds, _ev(links={c.path: [old]}))
    assert found.source is None
    assert "imports your file 'src/components/Table.tsx'" in hint
    new = Link("src/components/Table.tsx", "from", "imports", in_change=True)
    found, _ = judge(c, seeds, _ev(links={c.path: [new]}))
    assert found.source == "reference"
    assert found.reason == "imports your file 'src/components/Table.tsx' in the lines that changed"
    test = changed("tests/test_table.py")
    found, _ = judge(test, seeds, _ev(links={test.path: [old]}))
    assert found.source == "reference"
    assert found.reason.endswith("and both names have 'table'")


def test_judging_cochange_and_proximity() -> None:
    """Two commits in common are strong, one is a hint; the same folder counts only
    with a distinctive shared word."""
    seeds = ["src/billing/Invoice.tsx"]
    co = {
        "src/a.ts": cochange.CoChange(seeds[0], 2, 9),
        "src/b.ts": cochange.CoChange(seeds[0], 1, 9),
    }
    ev = _ev(cochange=co, intent_words=frozenset({"due", "date"}))
    assert judge(changed("src/a.ts"), seeds, ev)[0].source == "anchor_co_occurrence"
    assert judge(changed("src/b.ts"), seeds, ev)[1] == (
        "changed together with your file 'src/billing/Invoice.tsx' once recently"
    )
    row, _ = judge(changed("src/billing/InvoiceRow.tsx"), seeds, ev)
    assert row.source == "name_proximity"
    other, hint = judge(changed("src/billing/Refunds.tsx"), seeds, ev)
    assert other.source is None
    assert hint == "it is in the same folder as your file 'src/billing/Invoice.tsx'"


@pytest.mark.parametrize(
    ("test", "tested"),
    [
        ("tests/test_orders.py", "orders"),
        ("pkg/orders_test.go", "orders"),
        ("src/Orders.test.ts", "orders"),
        ("src/Table.spec.tsx", "table"),
        ("src/test/java/OrdersTest.java", "orders"),
        ("Api.Tests/InvoicesControllerTests.cs", "invoicescontroller"),
        ("spec/orders_spec.rb", "orders"),
        ("test/shop/accounts_test.exs", "accounts"),
        ("src/it/SettingsIT.java", "settings"),
        ("src/latest.py", None),
        ("src/Contest.java", None),
        ("src/testing.py", None),
        ("tests/list_json.rs", None),
    ],
)
def test_test_files_name_what_they_test(test: str, tested: str | None) -> None:
    """Each ecosystem's test naming gives the stem of the file tested; a word that
    merely contains 'test' does not."""
    assert stem_under_test(test) == tested


def test_tests_named_for_an_explicit_file_and_young_cochange() -> None:
    """A test named for an explicit file is in scope wherever it is; in a young
    history, every commit on your file touching this one is enough."""
    seeds = ["app/routers/orders.py"]
    ev = _ev(
        tested={"orders": "app/routers/orders.py"},
        cochange={
            "src/graphql/posts.graphql": cochange.CoChange(seeds[0], 1, 1),
            "src/x.ts": cochange.CoChange(seeds[0], 1, 2),
        },
    )
    found, _ = judge(changed("tests/test_orders.py"), seeds, ev)
    assert found.source == "test_of"
    assert found.reason == "the test named for your file 'app/routers/orders.py'"
    young, _ = judge(changed("src/graphql/posts.graphql"), seeds, ev)
    assert young.source == "anchor_co_occurrence"
    assert "in the only recent commit that touched it" in young.reason
    assert judge(changed("src/x.ts"), seeds, ev)[0].source is None


def test_judging_the_intents_words() -> None:
    """Two of the intent's words in a name are strong wherever the file is; one is a
    hint only; a documentation page whose added lines use an intent word is strong."""
    seeds = ["app/models/project.rb"]
    ev = _ev(
        intent_words=frozenset(words("Let users archive projects")),
        mentions={"docs/faq.md": ("archive",)},
    )
    mig = changed("db/migrate/20261120_add_archived_at_to_projects.rb", "added")
    found, _ = judge(mig, seeds, ev)
    assert found.source == "intent_words"
    assert found.reason == "its name has the intent's words 'archive' and 'projects'"
    one, hint = judge(changed("config/projects.yml"), seeds, ev)
    assert one.source is None
    assert hint == "its name shares 'projects' with the intent"
    page, _ = judge(changed("docs/faq.md"), seeds, ev)
    assert page.source == "intent_words"
    assert page.reason == "a documentation page whose added lines mention 'archive'"


def test_one_word_of_a_name_is_one_of_the_intents_words() -> None:
    """``player.gd`` for "play a sound when the player opens a door" has one word,
    however many of the intent's words (``play``, ``player``) it matches: a hint, not
    two words. ``door_open.gd`` has two."""
    seeds = ["scenes/door.gd"]
    ev = _ev(intent_words=frozenset(words("Play a sound when the player opens a door")))
    one, hint = judge(changed("scenes/player/player.gd"), seeds, ev)
    assert one.source is None
    assert hint.startswith("its name shares")
    two, _ = judge(changed("scenes/props/door_open.gd"), seeds, ev)
    assert two.source == "intent_words"


def test_category_alone_is_no_evidence_and_breaks_ties_only() -> None:
    """Same category and nothing else: drift, saying the category alone is no evidence.
    A hint in the intent's category: drift marked unsure. A hint in another category:
    plain drift."""
    files_ = [
        changed("src/ui/report.py"),
        changed("src/ui/dashboard.py"),
        changed("src/ui/header.py"),
        changed("src/services/auth.py"),
    ]
    memory = mem({"src/ui/report.py": "the report"})
    ev = _ev(
        links={
            "src/ui/header.py": [Link("src/ui/report.py", "to", "imports", in_change=False)],
            "src/services/auth.py": [Link("src/ui/report.py", "to", "imports", in_change=False)],
        },
        proximity=False,
    )
    zone = infer_zone(files_, memory, CATEGORIES, evidence=ev)
    assert [z.path for z in zone] == ["src/ui/report.py"]
    cands = {d.path: d for d in drift(files_, zone, memory, CATEGORIES, ev)}
    assert "alone is no evidence" in cands["src/ui/dashboard.py"].why_outside_zone
    assert not cands["src/ui/dashboard.py"].unsure
    assert cands["src/ui/header.py"].unsure
    assert not cands["src/services/auth.py"].unsure
    assert all(d.requires_user_review for d in cands.values())


def test_lockfiles_are_regenerated_not_drift_not_hidden() -> None:
    """A changed lockfile is neither in the zone nor drift: the plan lists it as
    regenerated, a partial restore leaves it, a full rollback restores it; an explicit
    lockfile stays explicit."""
    from vibflow_testing.recovery_inputs import ACTIVE, SAFE, ckpt, signals, ts

    from vibflow.steps.recovery import planner

    lock = changed("package-lock.json").model_copy(update={"lockfile": True})
    files_ = [changed("src/ui/login.py"), changed("src/services/auth.py"), lock]
    memory = mem({"src/ui/login.py": "the form"})
    found = signals(
        files_,
        memory,
        checkpoints=[ckpt(1, SAFE.created_at)],
        started=ts("2026-01-01T10:00:00Z"),
    )
    plan = planner.plan(found, CATEGORIES, ACTIVE, apply_blocked_reason=None)
    assert plan.regenerated == ["package-lock.json"]
    assert "package-lock.json" not in {z.path for z in plan.intent_zone}
    assert "package-lock.json" not in {d.path for d in plan.drift_candidates}
    by_level = {o.level: o for o in plan.options}
    assert "package-lock.json" not in by_level[3].affected_paths
    assert "package-lock.json" in by_level[4].affected_paths
    explicit = mem({"src/ui/login.py": "the form", "package-lock.json": "the upgrade"})
    plan = planner.plan(signals(files_, explicit), CATEGORIES, ACTIVE, apply_blocked_reason=None)
    assert ("package-lock.json", "explicit") in {(z.path, z.source) for z in plan.intent_zone}
    assert plan.regenerated == []


def test_intent_words_alone_never_narrow_the_zone() -> None:
    """With an intent but no file the user named, a name holding the intent's words
    does not make every other change drift: the zone falls back to the whole diff."""
    files_ = [changed("db/add_archived_projects.sql", "added"), changed("config/puma.rb")]
    ev = _ev(intent_words=frozenset(words("Let users archive projects")))
    zone = infer_zone(files_, mem(), CATEGORIES, evidence=ev)
    assert {z.path: z.source for z in zone} == {
        "db/add_archived_projects.sql": "diff_fallback",
        "config/puma.rb": "diff_fallback",
    }


def test_words_split_at_exactly_the_characters_they_always_split_at() -> None:
    """The word separator, spelled as ranges, is the negated class it replaced, over
    every code point: ASCII digits and letters and U+00C0 to U+FFFF are word
    characters, everything else separates."""
    every = "".join(chr(c) for c in range(sys.maxunicode + 1))
    negated = re.compile(r"[^0-9A-Za-z\u00c0-\uffff]")
    assert [m.start() for m in re.finditer(proximity._SPLIT.pattern.removesuffix("+"), every)] == [
        m.start() for m in negated.finditer(every)
    ]


def test_a_command_is_a_role_word_like_a_screen() -> None:
    """Subcommands of a CLI all end in 'command' (stats_command.cpp, import_command.cpp):
    the shared role word says nothing about what either is about."""
    assert name_tokens("src/cli/stats_command.cpp") == {"stats"}
    assert name_tokens("src/cli/import_command.cpp") == {"import"}
    assert name_tokens("cmd/listCmd.go") == {"list"}
