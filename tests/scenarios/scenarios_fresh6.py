"""Fresh scenarios, batch 6: ten agent sessions written without reading the zone rules.

Each builds a small project the way its ecosystem lays one out (FastAPI, React/Vite,
Go, Rust, Kotlin/Gradle, Rails, .NET, a pnpm monorepo, Terraform/Helm, a notebook
analysis), a dated history with co-changes, memory (intent, explicit files, sometimes
observed patches), sometimes checkpoints, and an agent's edits: the asked-for work with
the supporting changes a reviewer accepts, drift a reviewer rejects, and build or
generated output. The labels are a careful reviewer's reading of intent and diff, not
what any rule can see; debatable ones carry the reviewer's reasoning in a comment.
"""

from __future__ import annotations

import json

from scenario_kit import CLASS, DLL, ELF, PNG, Builder, Scenario, Scene, lines

# -- 1. FastAPI: rate limiting on the public search endpoint ----------------------------


def fastapi_rate_limit(s: Scene) -> None:
    s.commit(
        "scaffold catalogue API",
        {
            "pyproject.toml": lines(
                "[project]",
                'name = "catalogue"',
                'version = "0.8.1"',
                'dependencies = ["fastapi>=0.110", "pydantic-settings>=2.2", "sqlalchemy>=2"]',
                "",
                "[tool.ruff]",
                "line-length = 100",
            ),
            "app/__init__.py": "",
            "app/main.py": lines(
                "from fastapi import FastAPI",
                "",
                "from app.routers import health, search, users",
                "",
                'app = FastAPI(title="Catalogue")',
                "app.include_router(health.router)",
                "app.include_router(search.router)",
                "app.include_router(users.router)",
            ),
            "app/config.py": lines(
                "from pydantic_settings import BaseSettings",
                "",
                "",
                "class Settings(BaseSettings):",
                '    database_url: str = "sqlite:///catalogue.db"',
                "    search_page_size: int = 20",
                "",
                "",
                "settings = Settings()",
            ),
            "app/routers/__init__.py": "",
            "app/routers/health.py": lines(
                "from fastapi import APIRouter",
                "",
                "router = APIRouter()",
                "",
                "",
                '@router.get("/health")',
                "def health() -> dict[str, str]:",
                '    return {"status": "ok"}',
            ),
            "app/routers/search.py": lines(
                "from fastapi import APIRouter, Query",
                "",
                "from app.config import settings",
                "from app.db import find_products",
                "",
                "router = APIRouter()",
                "",
                "",
                '@router.get("/search")',
                "def search(q: str = Query(min_length=2)) -> list[dict[str, str]]:",
                "    return find_products(q, limit=settings.search_page_size)",
            ),
            "app/routers/users.py": lines(
                "from fastapi import APIRouter, HTTPException",
                "",
                "from app.db import get_user",
                "",
                "router = APIRouter(prefix='/users')",
                "",
                "",
                "@router.get('/{user_id}')",
                "def read_user(user_id: int) -> dict[str, str]:",
                "    user = get_user(user_id)",
                "    if user is None:",
                "        raise HTTPException(status_code=404, detail='no such user')",
                "    return user",
            ),
            "app/db.py": lines(
                "def find_products(q: str, limit: int) -> list[dict[str, str]]:",
                "    return [{'name': q}][:limit]",
                "",
                "",
                "def get_user(user_id: int) -> dict[str, str] | None:",
                "    return {'id': str(user_id)}",
            ),
            "tests/test_health.py": lines(
                "from fastapi.testclient import TestClient",
                "",
                "from app.main import app",
                "",
                "",
                "def test_health() -> None:",
                '    assert TestClient(app).get("/health").json() == {"status": "ok"}',
            ),
            "tests/test_search.py": lines(
                "from fastapi.testclient import TestClient",
                "",
                "from app.main import app",
                "",
                "",
                "def test_search_finds() -> None:",
                '    assert TestClient(app).get("/search?q=lamp").status_code == 200',
            ),
            "README.md": lines("# Catalogue API", "", "`GET /search?q=...` searches products."),
        },
        days_ago=60,
    )
    s.commit(
        "search: configurable page size",
        {
            "app/config.py": lines(
                "from pydantic_settings import BaseSettings",
                "",
                "",
                "class Settings(BaseSettings):",
                '    database_url: str = "sqlite:///catalogue.db"',
                "    search_page_size: int = 25",
                "",
                "",
                "settings = Settings()",
            ),
            "tests/test_search.py": lines(
                "from fastapi.testclient import TestClient",
                "",
                "from app.main import app",
                "",
                "",
                "def test_search_finds() -> None:",
                '    assert TestClient(app).get("/search?q=lamp").status_code == 200',
                "",
                "",
                "def test_search_rejects_short_query() -> None:",
                '    assert TestClient(app).get("/search?q=l").status_code == 422',
            ),
        },
        days_ago=20,
    )
    s.commit(
        "users: 404 message",
        {"app/routers/users.py": (s.root / "app/routers/users.py").read_text() + "\n"},
        days_ago=9,
    )
    s.intent(
        "Rate-limit the public /search endpoint: 60 requests per minute per client IP, "
        "answer 429 with Retry-After when exceeded.",
        {"app/routers/search.py": "the endpoint to protect"},
        hours_ago=1,
    )
    s.agent(
        {
            "app/routers/search.py": lines(
                "from fastapi import APIRouter, Depends, Query",
                "",
                "from app.config import settings",
                "from app.db import find_products",
                "from app.ratelimit import per_client_limit",
                "",
                "router = APIRouter()",
                "",
                "",
                '@router.get("/search", dependencies=[Depends(per_client_limit)])',
                "def search(q: str = Query(min_length=2)) -> list[dict[str, str]]:",
                "    return find_products(q, limit=settings.search_page_size)",
            ),
            "app/ratelimit.py": lines(
                '"""A fixed-window limiter keyed by client address."""',
                "import time",
                "",
                "from fastapi import HTTPException, Request",
                "",
                "from app.config import settings",
                "",
                "_windows: dict[str, tuple[int, int]] = {}",
                "",
                "",
                "def per_client_limit(request: Request) -> None:",
                '    key = request.client.host if request.client else "unknown"',
                "    window = int(time.time() // 60)",
                "    start, count = _windows.get(key, (window, 0))",
                "    count = count + 1 if start == window else 1",
                "    _windows[key] = (window, count)",
                "    if count > settings.search_rate_per_minute:",
                '        raise HTTPException(429, headers={"Retry-After": "60"})',
            ),
            "app/config.py": lines(
                "from pydantic_settings import BaseSettings",
                "",
                "",
                "class Settings(BaseSettings):",
                '    database_url: str = "sqlite:///catalogue.db"',
                "    search_page_size: int = 25",
                "    search_rate_per_minute: int = 60",
                "",
                "",
                "settings = Settings()",
            ),
            "tests/test_search_rate_limit.py": lines(
                "from fastapi.testclient import TestClient",
                "",
                "from app.main import app",
                "",
                "",
                "def test_61st_request_is_refused() -> None:",
                "    client = TestClient(app)",
                "    for _ in range(60):",
                '        client.get("/search?q=lamp")',
                '    answer = client.get("/search?q=lamp")',
                "    assert answer.status_code == 429",
                '    assert answer.headers["Retry-After"] == "60"',
            ),
            "README.md": lines(
                "# Catalogue API",
                "",
                "`GET /search?q=...` searches products.",
                "It allows 60 requests per minute per client; more get `429`.",
            ),
            # Drift: the agent "tidied" quotes in a router the intent never mentions.
            "app/routers/users.py": (s.root / "app/routers/users.py").read_text().replace("'", '"'),
            # Bytecode the test run left behind (no .gitignore in this young project).
            "app/__pycache__/ratelimit.cpython-312.pyc": b"\xcb\r\r\n" + bytes(40),
            "app/routers/__pycache__/search.cpython-312.pyc": b"\xcb\r\r\n" + bytes(44),
        },
        # Drift: the health test "was flaky" — nobody asked to delete it.
        delete=["tests/test_health.py"],
    )
    s.fine(
        "app/routers/search.py",
        "app/ratelimit.py",
        "app/config.py",
        "tests/test_search_rate_limit.py",
        "README.md",
    )
    s.drift("app/routers/users.py", "tests/test_health.py")
    s.excluded(
        "app/__pycache__/ratelimit.cpython-312.pyc",
        "app/routers/__pycache__/search.cpython-312.pyc",
    )
    s.safe_commit()


# -- 2. React/Vite: a dark-mode toggle on the settings page -----------------------------


def _tsx(name: str, title: str, body: str = "") -> str:
    return lines(
        f"export function {name}() {{",
        "  return (",
        "    <main>",
        f"      <h1>{title}</h1>",
        f"      {body}",
        "    </main>",
        "  );",
        "}",
    )


def react_dark_mode(s: Scene) -> None:
    s.commit(
        "vite + react app",
        {
            "package.json": lines(
                "{",
                '  "name": "habit-tracker",',
                '  "version": "1.4.0",',
                '  "private": true,',
                '  "scripts": {"dev": "vite", "build": "vite build", "test": "vitest"},',
                '  "dependencies": {"react": "^18.3.1", "react-dom": "^18.3.1"}',
                "}",
            ),
            ".eslintrc.cjs": lines(
                "module.exports = {",
                "  extends: ['eslint:recommended', 'plugin:react-hooks/recommended'],",
                "  rules: { 'no-console': 'error' },",
                "};",
            ),
            "index.html": '<div id="root"></div><script type="module" src="/src/main.tsx">'
            "</script>\n",
            "src/main.tsx": lines(
                "import { createRoot } from 'react-dom/client';",
                "import { App } from './App';",
                "createRoot(document.getElementById('root')!).render(<App />);",
            ),
            "src/App.tsx": lines(
                "import { Settings } from './pages/Settings';",
                "import { Profile } from './pages/Profile';",
                "import { Habits } from './pages/Habits';",
                "export function App() {",
                "  return <><Habits /><Profile /><Settings /></>;",
                "}",
            ),
            "src/pages/Settings.tsx": _tsx("Settings", "Settings", "<p>Reminders</p>"),
            "src/pages/Profile.tsx": _tsx("Profile", "My profile"),
            "src/pages/Habits.tsx": _tsx("Habits", "Today"),
            "src/theme/tokens.ts": lines(
                "export const light = { bg: '#ffffff', fg: '#1d1d1f', accent: '#0a84ff' };",
            ),
            "src/i18n/en.json": lines("{", '  "settings.reminders": "Reminders"', "}"),
            "src/pages/Settings.test.tsx": lines(
                "import { render, screen } from '@testing-library/react';",
                "import { Settings } from './Settings';",
                "test('shows reminders', () => {",
                "  render(<Settings />);",
                "  expect(screen.getByText('Reminders')).toBeTruthy();",
                "});",
            ),
        },
        days_ago=45,
    )
    s.commit(
        "settings: reminders copy from i18n",
        {
            "src/pages/Settings.tsx": _tsx(
                "Settings", "Settings", "<p>{t('settings.reminders')}</p>"
            ),
            "src/i18n/en.json": lines(
                "{", '  "settings.reminders": "Reminders",', '  "settings.title": "Settings"', "}"
            ),
        },
        days_ago=12,
    )
    s.commit(
        "theme tokens for the accent",
        {
            "src/theme/tokens.ts": lines(
                "export const light = { bg: '#ffffff', fg: '#1d1d1f', accent: '#0a84ff' };",
                "export type Tokens = typeof light;",
            )
        },
        days_ago=5,
    )
    # History ties the sibling pages to the explicit one (a shared layout pass), so
    # co-change alone would pull Profile.tsx in; the reviewer still rejects its retitle.
    s.commit(
        "pages: wrap in the shared layout",
        {
            page: (s.root / page).read_text().replace("<main>", "<main className='page'>")
            for page in ("src/pages/Settings.tsx", "src/pages/Profile.tsx", "src/pages/Habits.tsx")
        },
        days_ago=3,
    )
    s.intent(
        "Add a dark mode toggle to the Settings page; remember the choice in localStorage.",
        {
            "src/pages/Settings.tsx": "where the toggle goes",
            "src/theme/tokens.ts": "needs a dark palette",
        },
        hours_ago=2,
    )
    # The user started on the palette before handing over; the checkpoint keeps it.
    s.agent(
        {
            "src/theme/tokens.ts": lines(
                "export const light = { bg: '#ffffff', fg: '#1d1d1f', accent: '#0a84ff' };",
                "export const dark = { bg: '#1c1c1e', fg: '#f2f2f7', accent: '#0a84ff' };",
                "export type Tokens = typeof light;",
            )
        }
    )
    before = s.checkpoint("before the agent: my dark palette")
    s.agent(
        {
            "src/pages/Settings.tsx": lines(
                "import { ThemeToggle } from '../components/ThemeToggle';",
                "export function Settings() {",
                "  return (",
                "    <main className='page'>",
                "      <h1>Settings</h1>",
                "      <p>{t('settings.reminders')}</p>",
                "      <ThemeToggle />",
                "    </main>",
                "  );",
                "}",
            ),
            "src/components/ThemeToggle.tsx": lines(
                "import { useTheme } from '../hooks/useTheme';",
                "export function ThemeToggle() {",
                "  const [mode, setMode] = useTheme();",
                "  return (",
                "    <label>",
                "      <input type='checkbox' checked={mode === 'dark'}",
                "        onChange={(e) => setMode(e.target.checked ? 'dark' : 'light')} />",
                "      {t('settings.darkMode')}",
                "    </label>",
                "  );",
                "}",
            ),
            "src/hooks/useTheme.ts": lines(
                "import { useEffect, useState } from 'react';",
                "import { dark, light } from '../theme/tokens';",
                "export function useTheme() {",
                "  const [mode, setMode] = useState(localStorage.getItem('theme') ?? 'light');",
                "  useEffect(() => {",
                "    localStorage.setItem('theme', mode);",
                "    const t = mode === 'dark' ? dark : light;",
                "    document.body.style.background = t.bg;",
                "  }, [mode]);",
                "  return [mode, setMode] as const;",
                "}",
            ),
            "src/i18n/en.json": lines(
                "{",
                '  "settings.reminders": "Reminders",',
                '  "settings.title": "Settings",',
                '  "settings.darkMode": "Dark mode"',
                "}",
            ),
            "src/pages/Settings.test.tsx": lines(
                "import { fireEvent, render, screen } from '@testing-library/react';",
                "import { Settings } from './Settings';",
                "test('shows reminders', () => {",
                "  render(<Settings />);",
                "  expect(screen.getByText('Reminders')).toBeTruthy();",
                "});",
                "test('dark mode is remembered', () => {",
                "  render(<Settings />);",
                "  fireEvent.click(screen.getByLabelText('Dark mode'));",
                "  expect(localStorage.getItem('theme')).toBe('dark');",
                "});",
            ),
            # Drift: a sibling page retitled, in the same folder as the explicit file.
            "src/pages/Profile.tsx": (s.root / "src/pages/Profile.tsx")
            .read_text()
            .replace("My profile", "Your account"),
            # Drift: a lint rule relaxed because the agent left a console.log somewhere.
            ".eslintrc.cjs": lines(
                "module.exports = {",
                "  extends: ['eslint:recommended', 'plugin:react-hooks/recommended'],",
                "  rules: { 'no-console': 'off' },",
                "};",
            ),
            # Drift: a release version bump nobody asked for.
            "package.json": (s.root / "package.json")
            .read_text()
            .replace('"version": "1.4.0"', '"version": "1.5.0"'),
            # `vite build` output, untracked.
            "dist/index.html": '<div id="root"></div><script src="/assets/index-4c1f9a.js">'
            "</script>\n",
            "dist/assets/index-4c1f9a.js": "var e=document;function t(){return e}export{t};\n",
            "dist/assets/index-77b0e2.css": "body{margin:0}\n",
        }
    )
    s.fine(
        "src/theme/tokens.ts",
        "src/pages/Settings.tsx",
        "src/components/ThemeToggle.tsx",
        "src/hooks/useTheme.ts",
        "src/i18n/en.json",
        "src/pages/Settings.test.tsx",
    )
    s.drift("src/pages/Profile.tsx", ".eslintrc.cjs", "package.json")
    s.excluded("dist/index.html", "dist/assets/index-4c1f9a.js", "dist/assets/index-77b0e2.css")
    # The checkpoint holds the user's own palette work and predates every agent edit.
    s.safe_checkpoint(before)


# -- 3. Go: a readiness probe that pings the database -----------------------------------


def go_readiness(s: Scene) -> None:
    s.commit(
        "api service skeleton",
        {
            "go.mod": lines(
                "module github.com/acme/ledger",
                "",
                "go 1.21",
                "",
                "require (",
                "\tgithub.com/jackc/pgx/v5 v5.5.1",
                "\tgoogle.golang.org/protobuf v1.32.0",
                ")",
            ),
            "go.sum": "github.com/jackc/pgx/v5 v5.5.1 h1:abc=\n",
            "Makefile": lines(
                "build:", "\tgo build -o bin/ledger ./cmd/ledger", "lint:", "\tgolangci-lint run"
            ),
            "cmd/ledger/main.go": lines(
                "package main",
                "",
                'import "github.com/acme/ledger/internal/httpapi"',
                "",
                "func main() { httpapi.Serve() }",
            ),
            "internal/httpapi/server.go": lines(
                "package httpapi",
                "",
                'import "net/http"',
                "",
                "func Serve() {",
                "\tmux := http.NewServeMux()",
                '\tmux.HandleFunc("/v1/entries", listEntries)',
                '\thttp.ListenAndServe(":8080", mux)',
                "}",
            ),
            "internal/httpapi/entries.go": lines(
                "package httpapi",
                "",
                'import "net/http"',
                "",
                "func listEntries(w http.ResponseWriter, r *http.Request) {",
                '\tw.Write([]byte("[]"))',
                "}",
            ),
            "internal/store/db.go": lines(
                "package store",
                "",
                'import "github.com/jackc/pgx/v5/pgxpool"',
                "",
                "type DB struct{ pool *pgxpool.Pool }",
            ),
            "internal/billing/invoice.go": lines(
                "package billing",
                "",
                "type Invoice struct {",
                "\tID    string",
                "\tTotal int64",
                "}",
                "",
                "func (i Invoice) Cents() int64 { return i.Total }",
            ),
            "internal/gen/ledgerpb/ledger.pb.go": lines(
                "// Code generated by protoc-gen-go. DO NOT EDIT.",
                "// source: ledger.proto",
                "",
                "package ledgerpb",
                "",
                "type Entry struct{ Id string }",
            ),
            "proto/ledger.proto": lines(
                'syntax = "proto3";', "package ledger;", "message Entry { string id = 1; }"
            ),
        },
        days_ago=40,
    )
    s.commit(
        "entries: route and store wiring",
        {
            "internal/httpapi/server.go": lines(
                "package httpapi",
                "",
                "import (",
                '\t"net/http"',
                "",
                '\t"github.com/acme/ledger/internal/store"',
                ")",
                "",
                "func Serve(db *store.DB) {",
                "\tmux := http.NewServeMux()",
                '\tmux.HandleFunc("/v1/entries", listEntries)',
                '\thttp.ListenAndServe(":8080", mux)',
                "}",
            ),
            "internal/store/db.go": lines(
                "package store",
                "",
                'import "github.com/jackc/pgx/v5/pgxpool"',
                "",
                "type DB struct{ pool *pgxpool.Pool }",
                "",
                "func Open(url string) (*DB, error) { return &DB{}, nil }",
            ),
            "cmd/ledger/main.go": lines(
                "package main",
                "",
                "import (",
                '\t"github.com/acme/ledger/internal/httpapi"',
                '\t"github.com/acme/ledger/internal/store"',
                ")",
                "",
                "func main() {",
                '\tdb, _ := store.Open("postgres://localhost/ledger")',
                "\thttpapi.Serve(db)",
                "}",
            ),
        },
        days_ago=15,
    )
    s.commit(
        "billing: cents helper; lint in CI",
        {
            "internal/billing/invoice.go": (s.root / "internal/billing/invoice.go").read_text()
            + lines("", "func (i Invoice) Euros() float64 { return float64(i.Total) / 100 }"),
            "Makefile": (s.root / "Makefile").read_text() + lines("ci: lint", "\tgo test ./..."),
        },
        days_ago=6,
    )
    s.commit(
        "entries: paging",
        {
            "internal/httpapi/entries.go": (s.root / "internal/httpapi/entries.go")
            .read_text()
            .replace('w.Write([]byte("[]"))', 'w.Write([]byte("[]")) // TODO: ?page='),
            "internal/httpapi/server.go": (s.root / "internal/httpapi/server.go").read_text(),
        },
        days_ago=2,
    )
    s.intent(
        "Add a /readyz readiness probe for Kubernetes that returns 503 until the "
        "database answers a ping.",
        {"internal/httpapi/server.go": "register the probe route"},
        patches=["internal/httpapi/server.go", "internal/httpapi/ready.go"],
        hours_ago=3,
    )
    s.agent(
        {
            "internal/httpapi/server.go": (s.root / "internal/httpapi/server.go")
            .read_text()
            .replace(
                '\tmux.HandleFunc("/v1/entries", listEntries)\n',
                '\tmux.HandleFunc("/v1/entries", listEntries)\n'
                '\tmux.Handle("/readyz", readyHandler(db))\n',
            ),
            "internal/httpapi/ready.go": lines(
                "package httpapi",
                "",
                "import (",
                '\t"context"',
                '\t"net/http"',
                '\t"time"',
                "",
                '\t"github.com/acme/ledger/internal/store"',
                ")",
                "",
                "func readyHandler(db *store.DB) http.Handler {",
                "\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {",
                "\t\tctx, cancel := context.WithTimeout(r.Context(), time.Second)",
                "\t\tdefer cancel()",
                "\t\tif err := db.Ping(ctx); err != nil {",
                "\t\t\tw.WriteHeader(http.StatusServiceUnavailable)",
                "\t\t\treturn",
                "\t\t}",
                "\t\tw.WriteHeader(http.StatusOK)",
                "\t})",
                "}",
            ),
            "internal/httpapi/ready_test.go": lines(
                "package httpapi",
                "",
                'import "testing"',
                "",
                "func TestReadyIs503WithoutDatabase(t *testing.T) {",
                "\t// httptest against a DB whose pool is closed",
                "}",
            ),
            # Supporting: the probe needs a Ping on the store.
            "internal/store/db.go": lines(
                "package store",
                "",
                "import (",
                '\t"context"',
                "",
                '\t"github.com/jackc/pgx/v5/pgxpool"',
                ")",
                "",
                "type DB struct{ pool *pgxpool.Pool }",
                "",
                "func Open(url string) (*DB, error) { return &DB{}, nil }",
                "",
                "func (d *DB) Ping(ctx context.Context) error { return d.pool.Ping(ctx) }",
            ),
            # Drift: the go directive and protobuf bumped "while at it".
            "go.mod": (s.root / "go.mod")
            .read_text()
            .replace("go 1.21", "go 1.22")
            .replace("v1.32.0", "v1.34.1"),
            # Drift: lint target changed to skip a linter.
            "Makefile": (s.root / "Makefile")
            .read_text()
            .replace("golangci-lint run", "golangci-lint run --disable errcheck"),
            # Regenerated by `buf generate` with a newer plugin: header says so.
            "internal/gen/ledgerpb/ledger.pb.go": lines(
                "// Code generated by protoc-gen-go. DO NOT EDIT.",
                "// versions:",
                "// \tprotoc-gen-go v1.34.1",
                "// source: ledger.proto",
                "",
                "package ledgerpb",
                "",
                "type Entry struct{ Id string }",
            ),
            # `make build`: the compiled program (untracked).
            "bin/ledger": ELF,
        },
        # Drift: an unrelated package file renamed (and its method name kept).
        rename={"internal/billing/invoice.go": "internal/billing/invoices.go"},
    )
    s.fine(
        "internal/httpapi/server.go",
        "internal/httpapi/ready.go",
        "internal/httpapi/ready_test.go",
        "internal/store/db.go",
    )
    s.drift(
        "go.mod",
        "Makefile",
        "internal/billing/invoice.go",
        "internal/billing/invoices.go",
    )
    s.excluded("internal/gen/ledgerpb/ledger.pb.go", "bin/ledger")
    s.safe_commit()


# -- 4. Rust: --json output for the `list` subcommand ------------------------------------


def rust_list_json(s: Scene) -> None:
    s.commit(
        "todo cli",
        {
            "Cargo.toml": lines(
                "[package]",
                'name = "tdo"',
                'version = "0.3.2"',
                'edition = "2021"',
                "",
                "[dependencies]",
                'clap = { version = "4.5", features = ["derive"] }',
                'serde = { version = "1", features = ["derive"] }',
            ),
            "Cargo.lock": lines(
                "# This file is automatically @generated by Cargo.",
                "# It is not intended for manual editing.",
                "version = 3",
                "",
                "[[package]]",
                'name = "clap"',
                'version = "4.5.4"',
                "",
                "[[package]]",
                'name = "serde"',
                'version = "1.0.197"',
            ),
            "rustfmt.toml": "max_width = 100\n",
            "src/main.rs": lines(
                "mod commands;",
                "mod store;",
                "",
                "use clap::Parser;",
                "",
                "#[derive(Parser)]",
                "enum Cli { List, Add { text: String }, Remove { id: u32 } }",
                "",
                "fn main() {",
                "    match Cli::parse() {",
                "        Cli::List => commands::list::run(),",
                "        Cli::Add { text } => commands::add::run(&text),",
                "        Cli::Remove { id } => commands::remove::run(id),",
                "    }",
                "}",
            ),
            "src/commands/mod.rs": "pub mod add;\npub mod list;\npub mod remove;\n",
            "src/commands/list.rs": lines(
                "use crate::store;",
                "",
                "pub fn run() {",
                "    for item in store::load() {",
                '        println!("{:>3}  {}", item.id, item.text);',
                "    }",
                "}",
            ),
            "src/commands/add.rs": lines(
                "pub fn run(text: &str) {", "    crate::store::append(text);", "}"
            ),
            "src/commands/remove.rs": lines(
                "pub fn run(id: u32) {",
                '    eprintln!("Remove item {id}? [y/N]");',
                "    crate::store::remove(id);",
                "}",
            ),
            "src/store.rs": lines(
                "#[derive(serde::Serialize, serde::Deserialize)]",
                "pub struct Item { pub id: u32, pub text: String }",
                "pub fn load() -> Vec<Item> { vec![] }",
                "pub fn append(_t: &str) {}",
                "pub fn remove(_id: u32) {}",
            ),
            "tests/cli_list.rs": lines(
                "#[test]",
                "fn list_is_empty_at_first() {",
                '    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tdo"))',
                '        .arg("list").output().unwrap();',
                "    assert!(out.stdout.is_empty());",
                "}",
            ),
            "README.md": lines("# tdo", "", "`tdo list` prints your items."),
            "CHANGELOG.md": lines("# Changelog", "", "## 0.3.2", "- `remove` asks first"),
        },
        days_ago=50,
    )
    s.commit(
        "list: aligned ids",
        {
            "src/commands/list.rs": (s.root / "src/commands/list.rs").read_text(),
            "tests/cli_list.rs": (s.root / "tests/cli_list.rs").read_text() + "\n",
        },
        days_ago=10,
    )
    s.commit(
        "remove: ask before deleting",
        {
            "src/commands/remove.rs": (s.root / "src/commands/remove.rs").read_text(),
            "src/store.rs": (s.root / "src/store.rs").read_text() + "// remove keeps ids stable\n",
            "CHANGELOG.md": (s.root / "CHANGELOG.md").read_text() + "- ids stay stable\n",
        },
        days_ago=30,
    )
    s.intent(
        "tdo list --json: print the items as a JSON array so scripts can read them.",
        ["src/commands/list.rs"],
        hours_ago=1.5,
    )
    s.agent(
        {
            "src/commands/list.rs": lines(
                "use crate::{output, store};",
                "",
                "pub fn run(json: bool) {",
                "    let items = store::load();",
                "    if json {",
                "        output::print_json(&items);",
                "        return;",
                "    }",
                "    for item in items {",
                '        println!("{:>3}  {}", item.id, item.text);',
                "    }",
                "}",
            ),
            "src/output.rs": lines(
                "pub fn print_json<T: serde::Serialize>(value: &T) {",
                '    println!("{}", serde_json::to_string_pretty(value).expect("serialisable"));',
                "}",
            ),
            "src/main.rs": lines(
                "mod commands;",
                "mod output;",
                "mod store;",
                "",
                "use clap::Parser;",
                "",
                "#[derive(Parser)]",
                "enum Cli { List { #[arg(long)] json: bool }, Add { text: String }, "
                "Remove { id: u32 } }",
                "",
                "fn main() {",
                "    match Cli::parse() {",
                "        Cli::List { json } => commands::list::run(json),",
                "        Cli::Add { text } => commands::add::run(&text),",
                "        Cli::Remove { id } => commands::remove::run(id),",
                "    }",
                "}",
            ),
            "Cargo.toml": (s.root / "Cargo.toml").read_text() + 'serde_json = "1"\n',
            # Cargo rewrote the lock for the new dependency the feature needs.
            "Cargo.lock": (s.root / "Cargo.lock").read_text()
            + lines("", "[[package]]", 'name = "serde_json"', 'version = "1.0.115"'),
            "tests/cli_list.rs": (s.root / "tests/cli_list.rs").read_text()
            + lines(
                "",
                "#[test]",
                "fn list_json_is_an_array() {",
                '    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tdo"))',
                '        .args(["list", "--json"]).output().unwrap();',
                '    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");',
                "}",
            ),
            "README.md": lines(
                "# tdo",
                "",
                "`tdo list` prints your items; `tdo list --json` prints them as JSON.",
            ),
            "CHANGELOG.md": lines(
                "# Changelog",
                "",
                "## Unreleased",
                "- `list --json`",
                "",
                "## 0.3.2",
                "- `remove` asks first",
            ),
            # Drift: the confirmation prompt of another subcommand reworded.
            "src/commands/remove.rs": lines(
                "pub fn run(id: u32) {",
                '    eprintln!("Really delete #{id}? (y/n)");',
                "    crate::store::remove(id);",
                "}",
            ),
            # Drift: the project's formatting width changed.
            "rustfmt.toml": 'max_width = 120\nuse_small_heuristics = "Max"\n',
            # cargo build / cargo test output (no .gitignore for target/ yet).
            "target/debug/tdo": ELF,
            "target/debug/deps/tdo-3b1f0c2a9e7d4c11": ELF,
            "target/debug/.fingerprint/tdo-3b1f0c2a9e7d4c11/bin-tdo.json": '{"rustc":1}\n',
            "target/.rustc_info.json": '{"rustc_fingerprint":123}\n',
        }
    )
    s.fine(
        "src/commands/list.rs",
        "src/output.rs",
        "src/main.rs",
        "Cargo.toml",
        # Debatable: Cargo.lock is machine-written; it changed only because of the
        # serde_json the feature needs, so a reviewer keeps it with the feature.
        "Cargo.lock",
        "tests/cli_list.rs",
        "README.md",
        "CHANGELOG.md",
    )
    s.drift("src/commands/remove.rs", "rustfmt.toml")
    s.excluded(
        "target/debug/tdo",
        "target/debug/deps/tdo-3b1f0c2a9e7d4c11",
        "target/debug/.fingerprint/tdo-3b1f0c2a9e7d4c11/bin-tdo.json",
        "target/.rustc_info.json",
    )
    s.safe_commit()


# -- 5. Kotlin/Gradle (Spring Boot): pagination for GET /orders --------------------------

_KT = "src/main/kotlin/com/acme/shop"
_KT_TEST = "src/test/kotlin/com/acme/shop"


def kotlin_pagination(s: Scene) -> None:
    s.commit(
        "spring boot shop service",
        {
            "settings.gradle.kts": 'rootProject.name = "shop"\n',
            "build.gradle.kts": lines(
                "plugins {",
                '    kotlin("jvm") version "1.9.22"',
                '    kotlin("plugin.spring") version "1.9.22"',
                '    id("org.springframework.boot") version "3.2.2"',
                "}",
                "dependencies {",
                '    implementation("org.springframework.boot:spring-boot-starter-web")',
                '    implementation("org.springframework.boot:spring-boot-starter-data-jpa")',
                '    testImplementation("org.springframework.boot:spring-boot-starter-test")',
                "}",
            ),
            "gradle/wrapper/gradle-wrapper.properties": "distributionUrl=gradle-8.5-bin.zip\n",
            f"{_KT}/ShopApplication.kt": lines(
                "package com.acme.shop",
                "",
                "@org.springframework.boot.autoconfigure.SpringBootApplication",
                "class ShopApplication",
            ),
            f"{_KT}/orders/OrderController.kt": lines(
                "package com.acme.shop.orders",
                "",
                "import org.springframework.web.bind.annotation.*",
                "",
                "@RestController",
                '@RequestMapping("/orders")',
                "class OrderController(private val repo: OrderRepository) {",
                "    @GetMapping",
                "    fun list(): List<Order> = repo.findAll()",
                "}",
            ),
            f"{_KT}/orders/OrderRepository.kt": lines(
                "package com.acme.shop.orders",
                "",
                "import org.springframework.data.jpa.repository.JpaRepository",
                "",
                "interface OrderRepository : JpaRepository<Order, Long>",
            ),
            f"{_KT}/orders/Order.kt": lines(
                "package com.acme.shop.orders",
                "",
                "@jakarta.persistence.Entity",
                "class Order(@jakarta.persistence.Id val id: Long, val total: Long)",
            ),
            f"{_KT}/customers/CustomerController.kt": lines(
                "package com.acme.shop.customers",
                "",
                "import org.springframework.web.bind.annotation.GetMapping",
                "import org.springframework.web.bind.annotation.RestController",
                "",
                "@RestController",
                "class CustomerController {",
                '    @GetMapping("/customers")',
                "    fun list(): List<String> = emptyList()",
                "}",
            ),
            "src/main/resources/application.yml": lines(
                "spring:", "  datasource:", "    url: jdbc:postgresql://localhost/shop"
            ),
            "src/main/resources/application-prod.yml": lines(
                "spring:",
                "  datasource:",
                "    url: jdbc:postgresql://db.internal/shop",
                "    hikari:",
                "      maximum-pool-size: 20",
            ),
            f"{_KT_TEST}/orders/OrderControllerTest.kt": lines(
                "package com.acme.shop.orders",
                "",
                "class OrderControllerTest {",
                "    @org.junit.jupiter.api.Test",
                "    fun `lists orders`() {}",
                "}",
            ),
        },
        days_ago=70,
    )
    s.commit(
        "orders: repository and controller test",
        {
            f"{_KT}/orders/OrderRepository.kt": lines(
                "package com.acme.shop.orders",
                "",
                "import org.springframework.data.jpa.repository.JpaRepository",
                "",
                "interface OrderRepository : JpaRepository<Order, Long> {",
                "    fun findByCustomerId(customerId: Long): List<Order>",
                "}",
            ),
            f"{_KT_TEST}/orders/OrderControllerTest.kt": lines(
                "package com.acme.shop.orders",
                "",
                "class OrderControllerTest {",
                "    @org.junit.jupiter.api.Test",
                "    fun `lists orders`() {}",
                "",
                "    @org.junit.jupiter.api.Test",
                "    fun `lists by customer`() {}",
                "}",
            ),
        },
        days_ago=25,
    )
    s.commit(
        "customers endpoint; prod pool sized for it",
        {
            f"{_KT}/customers/CustomerController.kt": (
                s.root / f"{_KT}/customers/CustomerController.kt"
            ).read_text()
            + "\n",
            "src/main/resources/application-prod.yml": (
                s.root / "src/main/resources/application-prod.yml"
            ).read_text()
            + "      minimum-idle: 5\n",
        },
        days_ago=11,
    )
    s.intent(
        "Paginate GET /orders: page and size query parameters, size capped by config, "
        "response carries total count.",
        {
            f"{_KT}/orders/OrderController.kt": "the endpoint",
            f"{_KT}/orders/OrderRepository.kt": "needs a paged query",
        },
        hours_ago=4,
    )
    early = s.checkpoint("before asking the agent")
    s.agent(
        {
            f"{_KT}/orders/OrderController.kt": lines(
                "package com.acme.shop.orders",
                "",
                "import org.springframework.data.domain.PageRequest",
                "import org.springframework.web.bind.annotation.*",
                "",
                "@RestController",
                '@RequestMapping("/orders")',
                "class OrderController(",
                "    private val repo: OrderRepository,",
                "    private val limits: PageLimits,",
                ") {",
                "    @GetMapping",
                "    fun list(params: PageParams): OrderPage {",
                "        val request = PageRequest.of(params.page, limits.clamp(params.size))",
                "        val page = repo.findAll(request)",
                "        return OrderPage(page.content, page.totalElements)",
                "    }",
                "}",
            ),
            f"{_KT}/orders/OrderRepository.kt": lines(
                "package com.acme.shop.orders",
                "",
                "import org.springframework.data.jpa.repository.JpaRepository",
                "import org.springframework.data.repository.PagingAndSortingRepository",
                "",
                "interface OrderRepository : JpaRepository<Order, Long>, "
                "PagingAndSortingRepository<Order, Long> {",
                "    fun findByCustomerId(customerId: Long): List<Order>",
                "}",
            ),
            f"{_KT}/orders/PageParams.kt": lines(
                "package com.acme.shop.orders",
                "",
                "data class PageParams(val page: Int = 0, val size: Int = 20)",
                "",
                "data class OrderPage(val items: List<Order>, val total: Long)",
            ),
            f"{_KT}/orders/PageLimits.kt": lines(
                "package com.acme.shop.orders",
                "",
                "import org.springframework.boot.context.properties.ConfigurationProperties",
                "",
                '@ConfigurationProperties("shop.orders")',
                "data class PageLimits(val maxPageSize: Int = 100) {",
                "    fun clamp(size: Int) = size.coerceIn(1, maxPageSize)",
                "}",
            ),
            "src/main/resources/application.yml": lines(
                "spring:",
                "  datasource:",
                "    url: jdbc:postgresql://localhost/shop",
                "shop:",
                "  orders:",
                "    max-page-size: 100",
            ),
        }
    )
    # The agent paused and the tool took a checkpoint — after the work had started
    # (and after the first drift below), so it is not a point to go back to.
    s.agent(
        {
            # Drift: production's connection pool resized — wrong environment, not asked.
            "src/main/resources/application-prod.yml": lines(
                "spring:",
                "  datasource:",
                "    url: jdbc:postgresql://db.internal/shop",
                "    hikari:",
                "      maximum-pool-size: 50",
            ),
        }
    )
    s.checkpoint("agent pause")
    s.agent(
        {
            f"{_KT_TEST}/orders/OrderControllerTest.kt": lines(
                "package com.acme.shop.orders",
                "",
                "class OrderControllerTest {",
                "    @org.junit.jupiter.api.Test",
                "    fun `lists orders`() {}",
                "",
                "    @org.junit.jupiter.api.Test",
                "    fun `lists by customer`() {}",
                "",
                "    @org.junit.jupiter.api.Test",
                "    fun `caps page size at the configured maximum`() {}",
                "}",
            ),
            # Drift: the Kotlin compiler bumped to 2.0.
            "build.gradle.kts": (s.root / "build.gradle.kts")
            .read_text()
            .replace("1.9.22", "2.0.0"),
            # Drift: a wildcard import in an unrelated controller.
            f"{_KT}/customers/CustomerController.kt": lines(
                "package com.acme.shop.customers",
                "",
                "import org.springframework.web.bind.annotation.*",
                "",
                "@RestController",
                "class CustomerController {",
                '    @GetMapping("/customers")',
                "    fun list(): List<String> = emptyList()",
                "}",
            ),
            # Gradle output.
            "build/classes/kotlin/main/com/acme/shop/orders/OrderController.class": CLASS,
            "build/classes/kotlin/main/com/acme/shop/orders/PageParams.class": CLASS,
            "build/reports/tests/test/index.html": "<html><body>3 tests passed</body></html>\n",
            ".gradle/8.5/fileHashes/fileHashes.lock": b"\x00\x01\x02\x03",
        }
    )
    s.fine(
        f"{_KT}/orders/OrderController.kt",
        f"{_KT}/orders/OrderRepository.kt",
        f"{_KT}/orders/PageParams.kt",
        f"{_KT}/orders/PageLimits.kt",
        "src/main/resources/application.yml",
        f"{_KT_TEST}/orders/OrderControllerTest.kt",
    )
    s.drift(
        "src/main/resources/application-prod.yml",
        "build.gradle.kts",
        f"{_KT}/customers/CustomerController.kt",
    )
    s.excluded(
        "build/classes/kotlin/main/com/acme/shop/orders/OrderController.class",
        "build/classes/kotlin/main/com/acme/shop/orders/PageParams.class",
        "build/reports/tests/test/index.html",
        ".gradle/8.5/fileHashes/fileHashes.lock",
    )
    s.safe_checkpoint(early)


# -- 6. Rails: admins export users as CSV ------------------------------------------------


def rails_csv_export(s: Scene) -> None:
    s.commit(
        "rails app",
        {
            "Gemfile": lines(
                'source "https://rubygems.org"', 'gem "rails", "~> 7.1.2"', 'gem "pg"'
            ),
            "Gemfile.lock": lines(
                "GEM",
                "  specs:",
                "    rails (7.1.2)",
                "    pg (1.5.4)",
                "",
                "DEPENDENCIES",
                "  rails (~> 7.1.2)",
            ),
            ".gitignore": lines("/log/*", "/storage/*", "/node_modules"),
            "config/routes.rb": lines(
                "Rails.application.routes.draw do",
                "  namespace :admin do",
                "    resources :users, only: [:index, :show]",
                "    resources :invoices, only: [:index]",
                "  end",
                "end",
            ),
            "app/controllers/admin/users_controller.rb": lines(
                "class Admin::UsersController < Admin::BaseController",
                "  def index",
                "    @users = User.order(:created_at).page(params[:page])",
                "  end",
                "",
                "  def show",
                "    @user = User.find(params[:id])",
                "  end",
                "end",
            ),
            "app/controllers/admin/invoices_controller.rb": lines(
                "class Admin::InvoicesController < Admin::BaseController",
                "  def index",
                "    @invoices = Invoice.recent",
                "  end",
                "end",
            ),
            "app/models/user.rb": lines(
                "class User < ApplicationRecord",
                "  has_many :invoices",
                "  validates :email, presence: true, uniqueness: true",
                "end",
            ),
            "app/views/admin/users/index.html.erb": lines(
                "<h1><%= t('.title') %></h1>", "<%= render @users %>"
            ),
            "config/locales/en.yml": lines(
                "en:", "  admin:", "    users:", "      index:", "        title: Users"
            ),
            "db/schema.rb": lines(
                "# This file is auto-generated from the current state of the database. Instead",
                "# of editing this file, please use the migrations feature of Active Record.",
                "ActiveRecord::Schema[7.1].define(version: 2024_05_02_101500) do",
                '  create_table "users" do |t|',
                '    t.string "email", null: false',
                "  end",
                "end",
            ),
            "db/migrate/20240502101500_create_users.rb": lines(
                "class CreateUsers < ActiveRecord::Migration[7.1]",
                "  def change",
                "    create_table :users do |t|",
                "      t.string :email, null: false",
                "    end",
                "  end",
                "end",
            ),
            "spec/requests/admin/users_spec.rb": lines(
                'require "rails_helper"',
                'RSpec.describe "Admin users" do',
                '  it "lists users" do',
                "    get admin_users_path",
                "    expect(response).to have_http_status(:ok)",
                "  end",
                "end",
            ),
        },
        days_ago=90,
    )
    s.commit(
        "admin users: paging, locale title",
        {
            "app/views/admin/users/index.html.erb": lines(
                "<h1><%= t('.title') %></h1>",
                "<%= render @users %>",
                "<%= paginate @users %>",
            ),
            "app/controllers/admin/users_controller.rb": (
                s.root / "app/controllers/admin/users_controller.rb"
            ).read_text(),
        },
        days_ago=30,
    )
    s.commit(
        "invoices: recent scope, user association",
        {
            "app/controllers/admin/invoices_controller.rb": (
                s.root / "app/controllers/admin/invoices_controller.rb"
            )
            .read_text()
            .replace("Invoice.recent", "Invoice.recent.includes(:user)"),
            "app/models/user.rb": (s.root / "app/models/user.rb")
            .read_text()
            .replace("has_many :invoices", "has_many :invoices, dependent: :restrict_with_error"),
        },
        days_ago=10,
    )
    s.intent(
        "Admins can download the user list as CSV (email, signup date, invoice count) "
        "from the admin users page.",
        {
            "app/controllers/admin/users_controller.rb": "gets an export action",
            "app/views/admin/users/index.html.erb": "the download button",
        },
        hours_ago=1,
    )
    s.agent(
        {
            "app/controllers/admin/users_controller.rb": lines(
                "class Admin::UsersController < Admin::BaseController",
                "  def index",
                "    @users = User.order(:created_at).page(params[:page])",
                "  end",
                "",
                "  def show",
                "    @user = User.find(params[:id])",
                "  end",
                "",
                "  def export",
                "    csv = UserCsvExporter.new(User.includes(:invoices)).to_csv",
                '    send_data csv, filename: "users-#{Date.current}.csv", type: "text/csv"',
                "  end",
                "end",
            ),
            "app/services/user_csv_exporter.rb": lines(
                'require "csv"',
                "",
                "class UserCsvExporter",
                "  HEADERS = %w[email signed_up_at invoices].freeze",
                "",
                "  def initialize(users) = @users = users",
                "",
                "  def to_csv",
                "    CSV.generate do |csv|",
                "      csv << HEADERS",
                "      @users.find_each { |u| csv << [u.email, u.created_at.to_date, "
                "u.invoices.size] }",
                "    end",
                "  end",
                "end",
            ),
            "config/routes.rb": lines(
                "Rails.application.routes.draw do",
                "  namespace :admin do",
                "    resources :users, only: [:index, :show] do",
                "      get :export, on: :collection, defaults: { format: :csv }",
                "    end",
                "    resources :invoices, only: [:index]",
                "  end",
                "end",
            ),
            "app/views/admin/users/index.html.erb": lines(
                "<h1><%= t('.title') %></h1>",
                "<%= link_to t('.export_csv'), export_admin_users_path %>",
                "<%= render @users %>",
                "<%= paginate @users %>",
            ),
            "config/locales/en.yml": lines(
                "en:",
                "  admin:",
                "    users:",
                "      index:",
                "        title: Users",
                "        export_csv: Download CSV",
            ),
            "spec/services/user_csv_exporter_spec.rb": lines(
                'require "rails_helper"',
                "RSpec.describe UserCsvExporter do",
                '  it "writes one row per user" do',
                '    create(:user, email: "a@example.com")',
                "    rows = CSV.parse(described_class.new(User.all).to_csv)",
                '    expect(rows[1].first).to eq("a@example.com")',
                "  end",
                "end",
            ),
            # Drift: a nickname column nobody asked for (the export uses no nickname).
            "db/migrate/20240611090000_add_nickname_to_users.rb": lines(
                "class AddNicknameToUsers < ActiveRecord::Migration[7.1]",
                "  def change",
                "    add_column :users, :nickname, :string",
                "  end",
                "end",
            ),
            # Rails rewrote the schema dump after that migration ran: a generated file
            # (its header says so). A reviewer drops it with the migration and lets
            # `db:schema:dump` rewrite it rather than editing it — excluded.
            "db/schema.rb": lines(
                "# This file is auto-generated from the current state of the database. Instead",
                "# of editing this file, please use the migrations feature of Active Record.",
                "ActiveRecord::Schema[7.1].define(version: 2024_06_11_090000) do",
                '  create_table "users" do |t|',
                '    t.string "email", null: false',
                '    t.string "nickname"',
                "  end",
                "end",
            ),
            # Drift: a validation added to the model, unrelated to exporting.
            "app/models/user.rb": lines(
                "class User < ApplicationRecord",
                "  has_many :invoices",
                "  validates :email, presence: true, uniqueness: true",
                "  validates :nickname, length: { maximum: 30 }",
                "end",
            ),
            # Drift: a Rails patch upgrade, manifest and lock together.
            "Gemfile": lines(
                'source "https://rubygems.org"', 'gem "rails", "~> 7.1.3"', 'gem "pg"'
            ),
            "Gemfile.lock": lines(
                "GEM",
                "  specs:",
                "    rails (7.1.3.4)",
                "    pg (1.5.4)",
                "",
                "DEPENDENCIES",
                "  rails (~> 7.1.3)",
            ),
            # Precompiled assets from `rails assets:precompile`.
            "public/assets/application-9f8e7d6c5b4a.css": "body{font-family:sans-serif}\n",
            "public/assets/.manifest-3a2b1c.json": '{"files":{}}\n',
        }
    )
    s.fine(
        "app/controllers/admin/users_controller.rb",
        "app/services/user_csv_exporter.rb",
        "config/routes.rb",
        "app/views/admin/users/index.html.erb",
        "config/locales/en.yml",
        "spec/services/user_csv_exporter_spec.rb",
    )
    # Debatable: Gemfile.lock is machine-written, but it changed only for a version bump
    # nobody asked for; a reviewer reverts it together with the Gemfile line.
    s.drift(
        "db/migrate/20240611090000_add_nickname_to_users.rb",
        "app/models/user.rb",
        "Gemfile",
        "Gemfile.lock",
    )
    s.excluded(
        "db/schema.rb",
        "public/assets/application-9f8e7d6c5b4a.css",
        "public/assets/.manifest-3a2b1c.json",
    )
    s.safe_commit()


# -- 7. .NET: email validation on signup -------------------------------------------------

_API = "src/Shop.Api"
_TESTS = "tests/Shop.Api.Tests"


def dotnet_email_validation(s: Scene) -> None:
    s.commit(
        "solution",
        {
            "Shop.sln": "Microsoft Visual Studio Solution File, Format Version 12.00\n",
            "Directory.Build.props": lines(
                "<Project>",
                "  <PropertyGroup>",
                "    <TargetFramework>net8.0</TargetFramework>",
                "    <Nullable>enable</Nullable>",
                "    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>",
                "  </PropertyGroup>",
                "</Project>",
            ),
            f"{_API}/Shop.Api.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web" />\n',
            f"{_API}/Program.cs": lines(
                "var builder = WebApplication.CreateBuilder(args);",
                "builder.Services.AddControllers();",
                "var app = builder.Build();",
                "app.MapControllers();",
                "app.Run();",
            ),
            f"{_API}/Controllers/SignupController.cs": lines(
                "namespace Shop.Api.Controllers;",
                "",
                "[ApiController]",
                '[Route("signup")]',
                "public class SignupController : ControllerBase",
                "{",
                "    [HttpPost]",
                "    public IActionResult Post(SignupRequest request) => Ok();",
                "}",
                "",
                "public record SignupRequest(string Email, string Password);",
            ),
            f"{_API}/Controllers/OrdersController.cs": lines(
                "namespace Shop.Api.Controllers;",
                "",
                "[ApiController]",
                '[Route("orders")]',
                "public class OrdersController : ControllerBase",
                "{",
                "    [HttpGet]",
                "    public IActionResult List() => Ok(Array.Empty<object>());",
                "}",
            ),
            f"{_API}/appsettings.json": lines(
                "{", '  "Logging": { "LogLevel": { "Default": "Information" } }', "}"
            ),
            f"{_API}/appsettings.Production.json": lines(
                "{", '  "Logging": { "LogLevel": { "Default": "Warning" } }', "}"
            ),
            f"{_TESTS}/Shop.Api.Tests.csproj": '<Project Sdk="Microsoft.NET.Sdk" />\n',
            f"{_TESTS}/SignupControllerTests.cs": lines(
                "public class SignupControllerTests",
                "{",
                "    [Fact] public void AcceptsASignup() { }",
                "}",
            ),
            f"{_TESTS}/OrdersControllerTests.cs": lines(
                "public class OrdersControllerTests",
                "{",
                "    [Fact] public void ListsNothingAtFirst() { }",
                "}",
            ),
        },
        days_ago=55,
    )
    s.commit(
        "signup: request record and a test",
        {
            f"{_API}/Controllers/SignupController.cs": (
                s.root / f"{_API}/Controllers/SignupController.cs"
            ).read_text(),
            f"{_TESTS}/SignupControllerTests.cs": lines(
                "public class SignupControllerTests",
                "{",
                "    [Fact] public void AcceptsASignup() { }",
                "    [Fact] public void RejectsEmptyPassword() { }",
                "}",
            ),
        },
        days_ago=14,
    )
    s.commit(
        "orders: list endpoint and its test",
        {
            f"{_API}/Controllers/OrdersController.cs": (
                s.root / f"{_API}/Controllers/OrdersController.cs"
            ).read_text()
            + "\n",
            f"{_TESTS}/OrdersControllerTests.cs": lines(
                "public class OrdersControllerTests",
                "{",
                "    [Fact] public void ListsNothingAtFirst() { }",
                "    [Fact] public void ListIsJson() { }",
                "}",
            ),
        },
        days_ago=6,
    )
    s.intent(
        "Reject signups whose email is malformed or from a disposable-mail domain "
        "(the blocked domains come from configuration).",
        [f"{_API}/Controllers/SignupController.cs"],
        hours_ago=2,
    )
    s.agent(
        {
            f"{_API}/Controllers/SignupController.cs": lines(
                "using Shop.Api.Validation;",
                "",
                "namespace Shop.Api.Controllers;",
                "",
                "[ApiController]",
                '[Route("signup")]',
                "public class SignupController(EmailValidator emails) : ControllerBase",
                "{",
                "    [HttpPost]",
                "    public IActionResult Post(SignupRequest request) =>",
                "        emails.IsAcceptable(request.Email) ? Ok() : ValidationProblem();",
                "}",
                "",
                "public record SignupRequest(string Email, string Password);",
            ),
            f"{_API}/Validation/EmailValidator.cs": lines(
                "using System.Net.Mail;",
                "using Microsoft.Extensions.Options;",
                "",
                "namespace Shop.Api.Validation;",
                "",
                "public class SignupOptions { public string[] BlockedDomains { get; set; } = []; }",
                "",
                "public class EmailValidator(IOptions<SignupOptions> options)",
                "{",
                "    public bool IsAcceptable(string email)",
                "    {",
                "        if (!MailAddress.TryCreate(email, out var address)) return false;",
                "        return !options.Value.BlockedDomains.Contains(address.Host);",
                "    }",
                "}",
            ),
            f"{_API}/Program.cs": lines(
                "using Shop.Api.Validation;",
                "",
                "var builder = WebApplication.CreateBuilder(args);",
                "builder.Services.AddControllers();",
                'builder.Services.Configure<SignupOptions>(builder.Configuration.GetSection("Signup"));',
                "builder.Services.AddSingleton<EmailValidator>();",
                "var app = builder.Build();",
                "app.MapControllers();",
                "app.Run();",
            ),
            f"{_API}/appsettings.json": lines(
                "{",
                '  "Logging": { "LogLevel": { "Default": "Information" } },',
                '  "Signup": { "BlockedDomains": [ "mailinator.com", "10minutemail.com" ] }',
                "}",
            ),
            f"{_TESTS}/EmailValidatorTests.cs": lines(
                "using Shop.Api.Validation;",
                "",
                "public class EmailValidatorTests",
                "{",
                "    [Fact] public void RejectsMalformed() { }",
                "    [Fact] public void RejectsBlockedDomain() { }",
                "}",
            ),
            # Drift: production logging made verbose.
            f"{_API}/appsettings.Production.json": lines(
                "{", '  "Logging": { "LogLevel": { "Default": "Debug" } }', "}"
            ),
            # Drift: an unrelated controller rewritten to minimal style.
            f"{_API}/Controllers/OrdersController.cs": lines(
                "namespace Shop.Api.Controllers;",
                "",
                '[ApiController, Route("orders")]',
                "public class OrdersController : ControllerBase",
                "{",
                "    [HttpGet] public IActionResult List() => Ok(Array.Empty<object>());",
                "}",
            ),
            # Drift: warnings no longer fail the build (to get past a nullable warning).
            "Directory.Build.props": (s.root / "Directory.Build.props")
            .read_text()
            .replace(
                "<TreatWarningsAsErrors>true</TreatWarningsAsErrors>",
                "<TreatWarningsAsErrors>false</TreatWarningsAsErrors>",
            ),
            # dotnet build output.
            f"{_API}/bin/Debug/net8.0/Shop.Api.dll": DLL,
            f"{_API}/obj/Debug/net8.0/Shop.Api.AssemblyInfo.cs": lines(
                "//------------------------------------------------------------------------------",
                "// <auto-generated>",
                "//     This code was generated by a tool.",
                "// </auto-generated>",
                "//------------------------------------------------------------------------------",
                '[assembly: System.Reflection.AssemblyTitleAttribute("Shop.Api")]',
            ),
            f"{_API}/obj/project.assets.json": '{"version": 3, "targets": {}}\n',
        },
        # Drift: an unrelated test removed.
        delete=[f"{_TESTS}/OrdersControllerTests.cs"],
    )
    s.fine(
        f"{_API}/Controllers/SignupController.cs",
        f"{_API}/Validation/EmailValidator.cs",
        f"{_API}/Program.cs",
        f"{_API}/appsettings.json",
        f"{_TESTS}/EmailValidatorTests.cs",
    )
    s.drift(
        f"{_API}/appsettings.Production.json",
        f"{_API}/Controllers/OrdersController.cs",
        "Directory.Build.props",
        f"{_TESTS}/OrdersControllerTests.cs",
    )
    s.excluded(
        f"{_API}/bin/Debug/net8.0/Shop.Api.dll",
        f"{_API}/obj/Debug/net8.0/Shop.Api.AssemblyInfo.cs",
        f"{_API}/obj/project.assets.json",
    )
    s.safe_commit()


# -- 8. pnpm monorepo: delivery ETA across the API and the Vue app ----------------------


def _vue(title: str, extra: str = "") -> str:
    return lines("<template>", f"  <h1>{title}</h1>", f"  {extra}", "</template>")


def monorepo_delivery_eta(s: Scene) -> None:
    s.commit(
        "workspace: api and web",
        {
            "package.json": lines('{ "name": "parcel", "private": true }'),
            "pnpm-workspace.yaml": lines("packages:", "  - packages/*"),
            "packages/api/package.json": lines(
                "{",
                '  "name": "@parcel/api",',
                '  "version": "2.3.0",',
                '  "dependencies": { "express": "^4.19.2" }',
                "}",
            ),
            "packages/api/src/server.ts": lines(
                "import express from 'express';",
                "import { orders } from './routes/orders';",
                "import { users } from './routes/users';",
                "const app = express();",
                "app.use('/orders', orders);",
                "app.use('/users', users);",
                "app.listen(3000);",
            ),
            "packages/api/src/routes/orders.ts": lines(
                "import { Router } from 'express';",
                "export const orders = Router();",
                "orders.get('/:id', (req, res) => {",
                "  res.json({ id: req.params.id, status: 'shipped' });",
                "});",
            ),
            "packages/api/src/routes/users.ts": lines(
                "import { Router } from 'express';",
                "export const users = Router();",
                "users.get('/:id', (req, res) => res.json({ id: req.params.id }));",
            ),
            "packages/web/package.json": lines(
                "{",
                '  "name": "@parcel/web",',
                '  "version": "2.3.0",',
                '  "dependencies": { "vue": "^3.4.21" }',
                "}",
            ),
            "packages/web/src/api/orders.ts": lines(
                "export interface Order { id: string; status: string }",
                "export async function fetchOrder(id: string): Promise<Order> {",
                "  return (await fetch(`/orders/${id}`)).json();",
                "}",
            ),
            "packages/web/src/views/OrderDetail.vue": _vue("Order {{ order.id }}"),
            "packages/web/src/views/OrderList.vue": _vue("Your orders"),
            "packages/web/src/views/Account.vue": _vue("Account"),
        },
        days_ago=80,
    )
    s.commit(
        "order status on the detail page",
        {
            "packages/api/src/routes/orders.ts": lines(
                "import { Router } from 'express';",
                "export const orders = Router();",
                "orders.get('/:id', (req, res) => {",
                "  res.json({ id: req.params.id, status: 'shipped', carrier: 'DHL' });",
                "});",
            ),
            "packages/web/src/api/orders.ts": lines(
                "export interface Order { id: string; status: string; carrier: string }",
                "export async function fetchOrder(id: string): Promise<Order> {",
                "  return (await fetch(`/orders/${id}`)).json();",
                "}",
            ),
            "packages/web/src/views/OrderDetail.vue": _vue(
                "Order {{ order.id }}", "<p>{{ order.status }} via {{ order.carrier }}</p>"
            ),
        },
        days_ago=21,
    )
    # The list and detail views were last changed together (a link between them):
    # history ties OrderList.vue to the explicit file, yet its retitle is still drift.
    s.commit(
        "orders: list links to detail",
        {
            "packages/web/src/views/OrderList.vue": _vue(
                "Your orders", "<router-link to='/orders/1'>#1</router-link>"
            ),
            "packages/web/src/views/OrderDetail.vue": (
                s.root / "packages/web/src/views/OrderDetail.vue"
            )
            .read_text()
            .replace("<template>", "<template>\n  <router-link to='/orders'>Back</router-link>"),
        },
        days_ago=7,
    )
    s.intent(
        "Show the estimated delivery date on the order detail page (the API computes it "
        "from the carrier and ship date).",
        {"packages/web/src/views/OrderDetail.vue": "where the ETA shows"},
        hours_ago=2,
    )
    before = s.checkpoint("start of the ETA session")
    s.agent(
        {
            "packages/web/src/views/OrderDetail.vue": lines(
                "<script setup lang='ts'>",
                "import EtaBadge from '../components/EtaBadge.vue';",
                "</script>",
                "<template>",
                "  <router-link to='/orders'>Back</router-link>",
                "  <h1>Order {{ order.id }}</h1>",
                "  <p>{{ order.status }} via {{ order.carrier }}</p>",
                "  <EtaBadge :eta='order.eta' />",
                "</template>",
            ),
            "packages/web/src/components/EtaBadge.vue": lines(
                "<script setup lang='ts'>",
                "defineProps<{ eta: string | null }>();",
                "</script>",
                "<template>",
                "  <span v-if='eta' class='eta'>Arrives {{ new Date(eta).toLocaleDateString() }}"
                "</span>",
                "</template>",
            ),
            "packages/web/src/api/orders.ts": lines(
                "export interface Order {",
                "  id: string; status: string; carrier: string; eta: string | null",
                "}",
                "export async function fetchOrder(id: string): Promise<Order> {",
                "  return (await fetch(`/orders/${id}`)).json();",
                "}",
            ),
            # The other package supplies the data the page shows: part of the work.
            "packages/api/src/routes/orders.ts": lines(
                "import { Router } from 'express';",
                "import { estimateDelivery } from '../services/eta';",
                "export const orders = Router();",
                "orders.get('/:id', (req, res) => {",
                "  const shippedAt = new Date();",
                "  res.json({",
                "    id: req.params.id, status: 'shipped', carrier: 'DHL',",
                "    eta: estimateDelivery('DHL', shippedAt).toISOString(),",
                "  });",
                "});",
            ),
            "packages/api/src/services/eta.ts": lines(
                "const transitDays: Record<string, number> = { DHL: 2, UPS: 3 };",
                "export function estimateDelivery(carrier: string, shippedAt: Date): Date {",
                "  const days = transitDays[carrier] ?? 5;",
                "  return new Date(shippedAt.getTime() + days * 86_400_000);",
                "}",
            ),
            "packages/api/src/services/eta.test.ts": lines(
                "import { estimateDelivery } from './eta';",
                "test('DHL takes two days', () => {",
                "  const eta = estimateDelivery('DHL', new Date('2024-06-03'));",
                "  expect(eta.toISOString().slice(0, 10)).toBe('2024-06-05');",
                "});",
            ),
            # Drift: the sibling list page retitled.
            "packages/web/src/views/OrderList.vue": _vue("My orders"),
            # Drift: the API package's version bumped.
            "packages/api/package.json": (s.root / "packages/api/package.json")
            .read_text()
            .replace('"2.3.0"', '"2.4.0"'),
            # Drift: the users route reformatted.
            "packages/api/src/routes/users.ts": lines(
                'import { Router } from "express";',
                "",
                "export const users = Router();",
                "",
                'users.get("/:id", (req, res) => {',
                "  res.json({ id: req.params.id });",
                "});",
            ),
            # Build output of both packages (tsc, vite).
            "packages/api/dist/routes/orders.js": '"use strict";exports.orders=void 0;\n',
            "packages/api/dist/services/eta.js": '"use strict";exports.estimateDelivery=1;\n',
            "packages/web/dist/assets/index-b81c2d.js": "const e=1;export{e};\n",
            "packages/web/dist/index.html": "<div id=app></div>\n",
        }
    )
    s.fine(
        "packages/web/src/views/OrderDetail.vue",
        "packages/web/src/components/EtaBadge.vue",
        "packages/web/src/api/orders.ts",
        "packages/api/src/routes/orders.ts",
        "packages/api/src/services/eta.ts",
        "packages/api/src/services/eta.test.ts",
    )
    s.drift(
        "packages/web/src/views/OrderList.vue",
        "packages/api/package.json",
        "packages/api/src/routes/users.ts",
    )
    s.excluded(
        "packages/api/dist/routes/orders.js",
        "packages/api/dist/services/eta.js",
        "packages/web/dist/assets/index-b81c2d.js",
        "packages/web/dist/index.html",
    )
    s.safe_checkpoint(before)


# -- 9. Terraform + Helm: a read replica for staging Postgres ----------------------------


def infra_staging_replica(s: Scene) -> None:
    s.commit(
        "infra: rds module, two environments, api chart",
        {
            "modules/rds/main.tf": lines(
                'resource "aws_db_instance" "primary" {',
                "  identifier     = var.name",
                '  engine         = "postgres"',
                "  instance_class = var.instance_class",
                "}",
            ),
            "modules/rds/variables.tf": lines(
                'variable "name" { type = string }',
                'variable "instance_class" { type = string }',
            ),
            "modules/rds/outputs.tf": lines(
                'output "endpoint" { value = aws_db_instance.primary.endpoint }'
            ),
            "envs/staging/rds.tf": lines(
                'module "db" {',
                '  source         = "../../modules/rds"',
                '  name           = "orders-staging"',
                '  instance_class = "db.t4g.medium"',
                "}",
            ),
            "envs/staging/outputs.tf": lines('output "db_endpoint" { value = module.db.endpoint }'),
            "envs/prod/rds.tf": lines(
                'module "db" {',
                '  source         = "../../modules/rds"',
                '  name           = "orders-prod"',
                '  instance_class = "db.r6g.large"',
                "}",
            ),
            "envs/prod/outputs.tf": lines('output "db_endpoint" { value = module.db.endpoint }'),
            "charts/api/Chart.yaml": lines(
                "apiVersion: v2", "name: api", "version: 1.8.0", "appVersion: 3.2.1"
            ),
            "charts/api/values-staging.yaml": lines(
                "replicaCount: 2", "image:", "  tag: 3.2.1", "database:", "  host: orders-staging"
            ),
            "charts/api/values-prod.yaml": lines(
                "replicaCount: 6", "image:", "  tag: 3.2.1", "database:", "  host: orders-prod"
            ),
            "docs/runbooks/database.md": lines(
                "# Database runbook", "", "Staging and prod each run one Postgres instance."
            ),
            ".gitignore": lines("*.tfstate", "*.tfstate.backup"),
        },
        days_ago=100,
    )
    s.commit(
        "rds: expose endpoint per environment",
        {
            "modules/rds/outputs.tf": lines(
                'output "endpoint" { value = aws_db_instance.primary.endpoint }',
                'output "arn" { value = aws_db_instance.primary.arn }',
            ),
            "envs/staging/rds.tf": (s.root / "envs/staging/rds.tf").read_text() + "\n",
            "envs/staging/outputs.tf": lines(
                'output "db_endpoint" { value = module.db.endpoint }',
                'output "db_arn" { value = module.db.arn }',
            ),
        },
        days_ago=35,
    )
    s.commit(
        "staging db: bigger class",
        {
            "envs/staging/rds.tf": (s.root / "envs/staging/rds.tf")
            .read_text()
            .replace("db.t4g.medium", "db.t4g.large"),
            "modules/rds/variables.tf": (s.root / "modules/rds/variables.tf").read_text(),
        },
        days_ago=8,
    )
    prod_before = (s.root / "envs/prod/rds.tf").read_text()
    s.intent(
        "Add one read replica to the staging Postgres (module option, staging only) and "
        "output its endpoint.",
        {"envs/staging/rds.tf": "turn the replica on here"},
        # The hook saw every patch the agent applied — the wrong-environment one too.
        patches=[
            "envs/staging/rds.tf",
            "modules/rds/main.tf",
            "modules/rds/variables.tf",
            "envs/prod/rds.tf",
            "charts/api/values-staging.yaml",
        ],
        hours_ago=1,
    )
    s.agent(
        {
            "envs/staging/rds.tf": lines(
                'module "db" {',
                '  source         = "../../modules/rds"',
                '  name           = "orders-staging"',
                '  instance_class = "db.t4g.large"',
                "  replica_count  = 1",
                "}",
            ),
            "modules/rds/variables.tf": lines(
                'variable "name" { type = string }',
                'variable "instance_class" { type = string }',
                'variable "replica_count" {',
                "  type    = number",
                "  default = 0",
                "}",
            ),
            "modules/rds/main.tf": lines(
                'resource "aws_db_instance" "primary" {',
                "  identifier     = var.name",
                '  engine         = "postgres"',
                "  instance_class = var.instance_class",
                "}",
                "",
                'resource "aws_db_instance" "replica" {',
                "  count               = var.replica_count",
                '  identifier          = "${var.name}-replica-${count.index}"',
                "  replicate_source_db = aws_db_instance.primary.identifier",
                "  instance_class      = var.instance_class",
                "}",
            ),
            "modules/rds/outputs.tf": lines(
                'output "endpoint" { value = aws_db_instance.primary.endpoint }',
                'output "arn" { value = aws_db_instance.primary.arn }',
                'output "replica_endpoints" { value = aws_db_instance.replica[*].endpoint }',
            ),
            "envs/staging/outputs.tf": lines(
                'output "db_endpoint" { value = module.db.endpoint }',
                'output "db_arn" { value = module.db.arn }',
                'output "db_replica_endpoints" { value = module.db.replica_endpoints }',
            ),
            "docs/runbooks/database.md": lines(
                "# Database runbook",
                "",
                "Staging and prod each run one Postgres instance; staging also has one",
                "read replica (`db_replica_endpoints`).",
            ),
            # Drift: prod's instance class changed — the intent says staging only.
            "envs/prod/rds.tf": prod_before.replace("db.r6g.large", "db.r6g.xlarge"),
            # Drift: the API pods scaled up — "replica" of a different kind.
            "charts/api/values-staging.yaml": lines(
                "replicaCount: 3", "image:", "  tag: 3.2.1", "database:", "  host: orders-staging"
            ),
            # Drift: the chart version bumped for a values change nobody wanted.
            "charts/api/Chart.yaml": lines(
                "apiVersion: v2", "name: api", "version: 1.8.1", "appVersion: 3.2.1"
            ),
            # `terraform init` downloaded the provider: a vendored binary.
            "envs/staging/.terraform/providers/registry.terraform.io/hashicorp/aws/5.40.0/"
            "linux_amd64/terraform-provider-aws_v5.40.0_x5": ELF,
            "envs/staging/.terraform/modules/modules.json": '{"Modules":[]}\n',
        }
    )
    # The agent's tool checkpointed after all of it: the drift is inside.
    s.checkpoint("after terraform plan")
    s.fine(
        "envs/staging/rds.tf",
        "modules/rds/variables.tf",
        "modules/rds/main.tf",
        "modules/rds/outputs.tf",
        "envs/staging/outputs.tf",
        "docs/runbooks/database.md",
    )
    s.drift("envs/prod/rds.tf", "charts/api/values-staging.yaml", "charts/api/Chart.yaml")
    s.excluded(
        "envs/staging/.terraform/providers/registry.terraform.io/hashicorp/aws/5.40.0/"
        "linux_amd64/terraform-provider-aws_v5.40.0_x5",
        "envs/staging/.terraform/modules/modules.json",
    )
    s.safe_commit()


# -- 10. Notebook analysis: a weekly retention chart ------------------------------------


def _notebook(cells: list[str], count: int | None = None, output: str | None = None) -> str:
    def cell(src: str, i: int) -> dict[str, object]:
        out = [{"output_type": "stream", "name": "stdout", "text": [output]}] if output else []
        return {
            "cell_type": "code",
            "execution_count": None if count is None else count + i,
            "metadata": {},
            "outputs": out,
            "source": [src],
        }

    return (
        json.dumps(
            {
                "cells": [cell(c, i) for i, c in enumerate(cells)],
                "metadata": {"kernelspec": {"name": "python3"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            },
            indent=1,
        )
        + "\n"
    )


def notebook_retention_chart(s: Scene) -> None:
    churn_cells = [
        "import pandas as pd\nfrom analytics.cohorts import signup_cohorts",
        "events = pd.read_csv('../data/raw/events_2024.csv')",
        "cohorts = signup_cohorts(events)\ncohorts.head()",
    ]
    forecast_cells = [
        "import pandas as pd",
        "rev = pd.read_csv('../data/raw/revenue.csv')\nrev.tail()",
    ]
    s.commit(
        "churn analysis project",
        {
            "requirements.txt": lines("pandas==2.2.1", "matplotlib==3.8.3", "pytest==8.1.1"),
            "src/analytics/__init__.py": "",
            "src/analytics/cohorts.py": lines(
                "import pandas as pd",
                "",
                "",
                "def signup_cohorts(events: pd.DataFrame) -> pd.DataFrame:",
                "    first = events.groupby('user_id')['ts'].min().dt.to_period('W')",
                "    return first.rename('cohort').reset_index()",
            ),
            "tests/test_cohorts.py": lines(
                "from analytics.cohorts import signup_cohorts",
                "",
                "",
                "def test_one_cohort_per_user(events_fixture):",
                "    assert signup_cohorts(events_fixture)['user_id'].is_unique",
            ),
            "notebooks/churn_analysis.ipynb": _notebook(churn_cells, 1, "cohort table\n"),
            "notebooks/revenue forecast.ipynb": _notebook(forecast_cells, 1, "   month  revenue\n"),
            "data/raw/events_2024.csv": lines(
                "user_id,ts,event", "1,2024-01-02,signup", "1,2024-01-09,login"
            ),
            "data/raw/revenue.csv": lines("month,revenue", "2024-01,1200"),
            "docs/Kündigungs-Analyse.md": lines(
                "# Kündigungs-Analyse", "", "- Kohorten nach Anmeldewoche"
            ),
        },
        days_ago=33,
    )
    s.commit(
        "cohorts: weekly periods",
        {
            "src/analytics/cohorts.py": (s.root / "src/analytics/cohorts.py").read_text() + "\n",
            "notebooks/churn_analysis.ipynb": _notebook(churn_cells, 4, "cohort table\n"),
        },
        days_ago=6,
    )
    s.commit(
        "revenue forecast: refresh with Q1",
        {
            "notebooks/revenue forecast.ipynb": _notebook(forecast_cells, 3, "   month  revenue\n"),
            "data/raw/revenue.csv": lines("month,revenue", "2024-01,1200", "2024-02,1350"),
        },
        days_ago=15,
    )
    s.intent(
        "Add a weekly retention curve per signup cohort to the churn analysis notebook, "
        "and export the figure for the report.",
        {"notebooks/churn_analysis.ipynb": "the analysis to extend"},
        patches=["notebooks/churn_analysis.ipynb"],
        hours_ago=3,
    )
    s.agent(
        {
            "notebooks/churn_analysis.ipynb": _notebook(
                [
                    *churn_cells,
                    "from analytics.retention import weekly_retention\n"
                    "curve = weekly_retention(events, cohorts)",
                    "ax = curve.T.plot(figsize=(8, 4))\n"
                    "ax.figure.savefig('../reports/figures/retention_weekly.png')",
                ],
                7,
                "retention table\n",
            ),
            "src/analytics/retention.py": lines(
                "import pandas as pd",
                "",
                "",
                "def weekly_retention(events: pd.DataFrame, cohorts: pd.DataFrame) -> pd.DataFrame:",  # noqa: E501
                "    joined = events.merge(cohorts, on='user_id')",
                "    joined['week'] = (joined['ts'].dt.to_period('W') - joined['cohort']).apply(",
                "        lambda d: d.n",
                "    )",
                "    active = joined.groupby(['cohort', 'week'])['user_id'].nunique()",
                "    return active.unstack().div(active.unstack()[0], axis=0)",
            ),
            "tests/test_retention.py": lines(
                "from analytics.retention import weekly_retention",
                "",
                "",
                "def test_week_zero_is_everyone(events_fixture, cohorts_fixture):",
                "    curve = weekly_retention(events_fixture, cohorts_fixture)",
                "    assert (curve[0] == 1.0).all()",
            ),
            # The figure the intent asks to export for the report: the deliverable itself,
            # kept by a reviewer (a tracked-style asset, not build output).
            "reports/figures/retention_weekly.png": PNG,
            # A docs line for the new chart, in the project's German notes.
            "docs/Kündigungs-Analyse.md": lines(
                "# Kündigungs-Analyse",
                "",
                "- Kohorten nach Anmeldewoche",
                "- Wöchentliche Retention je Kohorte (`reports/figures/retention_weekly.png`)",
            ),
            # Drift: the sibling notebook re-run — only counts and outputs changed.
            "notebooks/revenue forecast.ipynb": _notebook(
                forecast_cells, 12, "   month  revenue\n0  2024-01     1200\n"
            ),
            # Drift: the cohort helper reformatted with no behaviour change.
            "src/analytics/cohorts.py": lines(
                "import pandas as pd",
                "",
                "",
                "def signup_cohorts(events: pd.DataFrame) -> pd.DataFrame:",
                '    first = events.groupby("user_id")["ts"].min().dt.to_period("W")',
                '    return first.rename("cohort").reset_index()',
            ),
            # Drift: raw input data edited (a row "cleaned") — raw data is never touched.
            "data/raw/events_2024.csv": lines("user_id,ts,event", "1,2024-01-02,signup"),
            # Jupyter's autosave copy and the bytecode of the new module: tool output.
            # Debatable: .ipynb_checkpoints is not a build folder, but it is written by the
            # editor, never by a person; a reviewer neither keeps nor reviews it.
            "notebooks/.ipynb_checkpoints/churn_analysis-checkpoint.ipynb": _notebook(
                churn_cells, 4, "cohort table\n"
            ),
            "src/analytics/__pycache__/retention.cpython-311.pyc": b"\xa7\r\r\n" + bytes(40),
        }
    )
    s.fine(
        "notebooks/churn_analysis.ipynb",
        "src/analytics/retention.py",
        "tests/test_retention.py",
        "reports/figures/retention_weekly.png",
        "docs/Kündigungs-Analyse.md",
    )
    s.drift(
        "notebooks/revenue forecast.ipynb", "src/analytics/cohorts.py", "data/raw/events_2024.csv"
    )
    s.excluded(
        "notebooks/.ipynb_checkpoints/churn_analysis-checkpoint.ipynb",
        "src/analytics/__pycache__/retention.cpython-311.pyc",
    )
    s.safe_commit()


def _scenario(name: str, build: Builder, about: str) -> Scenario:
    return Scenario(name=name, build=build, held_out=False, about=about, fresh=True, batch=6)


FRESH6: list[Scenario] = [
    _scenario(
        "f6_fastapi_rate_limit",
        fastapi_rate_limit,
        "FastAPI: new limiter module + config key + test + README line; a quote-tidied "
        "sibling router and a deleted health test are drift; __pycache__ excluded",
    ),
    _scenario(
        "f6_react_dark_mode",
        react_dark_mode,
        "React/Vite: toggle component, hook, i18n key, test; sibling page retitled, lint "
        "rule off, version bump drift; dist/ excluded; checkpoint holds the user's palette",
    ),
    _scenario(
        "f6_go_readiness_probe",
        go_readiness,
        "Go: probe handler + store Ping + test; go.mod bump, Makefile lint change and an "
        "unrelated rename drift; regenerated .pb.go and bin/ excluded",
    ),
    _scenario(
        "f6_rust_list_json",
        rust_list_json,
        "Rust: new output module, main.rs flag, serde_json dep + lock, test, README and "
        "CHANGELOG lines; another subcommand's prompt and rustfmt.toml drift; target/ excluded",
    ),
    _scenario(
        "f6_kotlin_pagination",
        kotlin_pagination,
        "Kotlin/Gradle: paged repo, params + limits classes, application.yml key, test; prod "
        "profile, Kotlin bump, wildcard import drift; build/ excluded; early vs late checkpoint",
    ),
    _scenario(
        "f6_rails_csv_export",
        rails_csv_export,
        "Rails: export action, service, route, view button, locale key, spec; an unasked "
        "migration, model validation, Rails bump (Gemfile+lock) drift; schema.rb, assets excluded",
    ),
    _scenario(
        "f6_dotnet_email_validation",
        dotnet_email_validation,
        ".NET: validator class, Program.cs DI, appsettings key, tests; Production settings, "
        "sibling controller, build props drift, a deleted test; bin/ obj/ excluded",
    ),
    _scenario(
        "f6_monorepo_delivery_eta",
        monorepo_delivery_eta,
        "pnpm monorepo: Vue page + badge + client type and the API route + service + test in "
        "the other package; sibling view, package version, reformatted route drift; dist/ excluded",
    ),
    _scenario(
        "f6_infra_staging_replica",
        infra_staging_replica,
        "Terraform/Helm: module var/resource/output + staging output + runbook line; prod "
        "class, Helm replicaCount (name trap), chart bump drift though all observed as patches; "
        ".terraform/ excluded; checkpoint after the drift",
    ),
    _scenario(
        "f6_notebook_retention",
        notebook_retention_chart,
        "Notebook: analysis cell + helper module + test + exported figure + non-ASCII docs "
        "note; spaced-name sibling notebook re-run, reformatted helper, edited raw data drift",
    ),
]
