# ruff: noqa: E501  (scenario data: file contents read best on one line)
"""Scenarios written after the tuning, and never tuned on: not part of the test's
thresholds, reported apart by ``benchmarks/zone_quality.py`` as a further check
of how the rules generalise (whatever they score is what is reported)."""

from __future__ import annotations

from scenario_kit import CLASS, Scenario, Scene


def django_pagination(s: Scene) -> None:
    """Pagination in an article list view: its template is in scope; a new route and
    a model field are not."""
    s.commit(
        "site",
        {
            "app/views.py": "from django.shortcuts import render\n\n\ndef article_list(request):\n    return render(request, 'articles/list.html', {})\n",
            "app/templates/articles/list.html": "{% for a in articles %}{{ a.title }}{% endfor %}\n",
            "app/urls.py": "from django.urls import path\nfrom . import views\n\nurlpatterns = [path('', views.article_list)]\n",
            "app/models.py": "class Article:\n    title = ''\n",
        },
    )
    s.intent("Paginate the article list", {"app/views.py": "the list view"})
    s.agent(
        {
            "app/views.py": "from django.core.paginator import Paginator\nfrom django.shortcuts import render\n\n\ndef article_list(request):\n    page = Paginator([], 20).get_page(1)\n    return render(request, 'articles/list.html', {'page': page})\n",
            "app/templates/articles/list.html": "{% for a in page %}{{ a.title }}{% endfor %}\n<nav>{{ page.number }}</nav>\n",
            "app/urls.py": "from django.urls import path\nfrom . import views\n\nurlpatterns = [path('', views.article_list), path('feed/', views.article_list)]\n",
            "app/models.py": "class Article:\n    title = ''\n    subtitle = ''\n",
        }
    )
    s.fine("app/views.py", "app/templates/articles/list.html")
    s.drift("app/urls.py", "app/models.py")


def ts_cart_hook(s: Scene) -> None:
    """A cart hook: its new test and a badge that starts using it are in scope; the
    footer and a new dependency are not; the lockfile is regenerated."""
    s.commit(
        "shop",
        {
            "package.json": '{"name": "shop", "dependencies": {}}\n',
            "package-lock.json": '{"lockfileVersion": 3}\n',
            "src/hooks/useCart.ts": "export function useCart() { return { items: [] }; }\n",
            "src/components/CartBadge.tsx": "export function CartBadge() { return <span>0</span>; }\n",
            "src/components/Footer.tsx": "export function Footer() { return <footer>© 2025</footer>; }\n",
        },
    )
    s.intent("Count items in the cart hook", {"src/hooks/useCart.ts": "cart state"})
    s.agent(
        {
            "src/hooks/useCart.ts": "export function useCart() { const items: string[] = []; return { items, count: items.length }; }\n",
            "src/hooks/useCart.test.ts": "import { useCart } from './useCart';\ntest('count', () => expect(useCart().count).toBe(0));\n",
            "src/components/CartBadge.tsx": "import { useCart } from '../hooks/useCart';\nexport function CartBadge() { return <span>{useCart().count}</span>; }\n",
            "src/components/Footer.tsx": "export function Footer() { return <footer>© 2026</footer>; }\n",
            "package.json": '{"name": "shop", "dependencies": {"left-pad": "1.3.0"}}\n',
            "package-lock.json": '{"lockfileVersion": 3, "packages": {}}\n',
        }
    )
    s.fine(
        "src/hooks/useCart.ts",
        "src/hooks/useCart.test.ts",
        "src/components/CartBadge.tsx",
    )
    # The lockfile was rewritten only for the unasked dependency: restoring
    # package.json without it leaves the two out of sync (`npm ci` refuses), so it
    # is drift with its manifest (this truth said "fine" until two blind batches
    # labelled the same case drift; see lock_manifests).
    s.drift("src/components/Footer.tsx", "package.json", "package-lock.json")


def go_migration(s: Scene) -> None:
    """An index for customer lookups: the store and a new migration in a subfolder
    are in scope (a hard case: nothing references the migration); the HTTP server's
    timeout is not."""
    s.commit(
        "svc",
        {
            "go.mod": "module example.com/svc\n",
            "internal/db/store.go": "package db\n\nfunc OrdersByCustomer(id string) {}\n",
            "internal/db/migrations/0001_init.sql": "CREATE TABLE orders (id text, customer text);\n",
            "internal/http/server.go": "package http\n\nconst Timeout = 30\n",
        },
    )
    s.intent("Index orders by customer", {"internal/db/store.go": "order queries"})
    s.agent(
        {
            "internal/db/store.go": "package db\n\n// OrdersByCustomer uses idx_orders_customer.\nfunc OrdersByCustomer(id string) {}\n",
            "internal/db/migrations/0002_orders_customer_index.sql": "CREATE INDEX idx_orders_customer ON orders (customer);\n",
            "internal/http/server.go": "package http\n\nconst Timeout = 5\n",
        }
    )
    s.fine("internal/db/store.go", "internal/db/migrations/0002_orders_customer_index.sql")
    s.drift("internal/http/server.go")


def docs_flag_readme(s: Scene) -> None:
    """Documenting a flag: the CLI page is in scope too (a hard case: the README does
    not link it); changing the code itself is not what was asked."""
    s.commit(
        "tool",
        {
            "README.md": "# tool\n\nUsage: tool [--quiet]\n",
            "docs/cli.md": "# CLI\n\n--quiet: less output\n",
            "src/cli.py": "FLAGS = ['--quiet']\n",
        },
    )
    s.intent("Document the new --verbose flag", {"README.md": "the usage section"})
    s.agent(
        {
            "README.md": "# tool\n\nUsage: tool [--quiet] [--verbose]\n",
            "docs/cli.md": "# CLI\n\n--quiet: less output\n--verbose: more output\n",
            "src/cli.py": "FLAGS = ['--quiet', '--verbose', '--debug']\n",
        }
    )
    s.fine("README.md", "docs/cli.md")
    s.drift("src/cli.py")


def spring_cancel(s: Scene) -> None:
    """Spring: cancelling orders; the service the controller calls is in scope; the
    application settings are not; target/ is build output."""
    base = "src/main/java/com/shop/orders"
    s.commit(
        "spring",
        {
            "pom.xml": "<project/>\n",
            f"{base}/OrderController.java": "package com.shop.orders;\n\npublic class OrderController {\n    private final OrderService orderService = new OrderService();\n}\n",
            f"{base}/OrderService.java": "package com.shop.orders;\n\npublic class OrderService {\n}\n",
            "src/main/resources/application.yml": "server:\n  port: 8080\n",
        },
    )
    s.intent("Let users cancel an order", {f"{base}/OrderController.java": "the orders API"})
    s.agent(
        {
            f"{base}/OrderController.java": "package com.shop.orders;\n\npublic class OrderController {\n    private final OrderService orderService = new OrderService();\n    public void cancel(String id) { orderService.cancel(id); }\n}\n",
            f"{base}/OrderService.java": "package com.shop.orders;\n\npublic class OrderService {\n    public void cancel(String id) {}\n}\n",
            "src/main/resources/application.yml": "server:\n  port: 9090\n",
            "target/classes/com/shop/orders/OrderService.class": CLASS,
        }
    )
    s.fine(f"{base}/OrderController.java", f"{base}/OrderService.java")
    s.drift("src/main/resources/application.yml")
    s.excluded("target/classes/com/shop/orders/OrderService.class")


FRESH = [
    Scenario(
        "django_pagination",
        django_pagination,
        False,
        "fresh: template named by the view",
        fresh=True,
    ),
    Scenario("ts_cart_hook", ts_cart_hook, False, "fresh: hook, test, adopter", fresh=True),
    Scenario("go_migration", go_migration, False, "fresh: migration in a subfolder", fresh=True),
    Scenario(
        "docs_flag_readme", docs_flag_readme, False, "fresh: docs pages, code drift", fresh=True
    ),
    Scenario("spring_cancel", spring_cancel, False, "fresh: controller and service", fresh=True),
]
