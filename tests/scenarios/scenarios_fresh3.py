# ruff: noqa: E501  (scenario data: file contents read best on one line)
"""A third batch of scenarios, written blind after the second tuning: by someone who
had not read the rules the advisor decides with, nor the tuned, held-out or first
fresh scenarios (only the kit, and the second fresh batch for its format), and who
never ran the advisor on these. Eight ecosystems (FastAPI, Next.js, Kotlin/Android,
Rust, ASP.NET, Laravel, Terraform, Phoenix); the truth is what a careful user would
call in scope for the intent. Not part of the test's thresholds: reported apart."""

from __future__ import annotations

from scenario_kit import DLL, Scenario, Scene, lines


def fastapi_orders_pagination(s: Scene) -> None:
    """Paginating GET /orders: the router, a new generic page schema under
    ``app/schemas`` and the orders test are in scope; tidying the customers router
    next to it, bumping FastAPI and renaming the seed script are not."""
    orders = lines(
        "from fastapi import APIRouter, Depends",
        "from sqlalchemy.orm import Session",
        "",
        "from app.db import get_db",
        "from app.models import Order",
        "from app.schemas.order import OrderOut",
        "",
        'router = APIRouter(prefix="/orders", tags=["orders"])',
        "",
        "",
        '@router.get("", response_model=list[OrderOut])',
        "def list_orders(db: Session = Depends(get_db)):",
        "    return db.query(Order).order_by(Order.created_at.desc()).all()",
        "",
        "",
        '@router.get("/{order_id}", response_model=OrderOut)',
        "def get_order(order_id: int, db: Session = Depends(get_db)):",
        "    return db.get(Order, order_id)",
    )
    customers = lines(
        "from fastapi import APIRouter, Depends",
        "from sqlalchemy.orm import Session",
        "",
        "from app.db import get_db",
        "from app.models import Customer",
        "",
        'router = APIRouter(prefix="/customers", tags=["customers"])',
        "",
        "",
        '@router.get("")',
        "def list_customers(db: Session = Depends(get_db)):",
        "    return db.query(Customer).all()",
    )
    test_orders = lines(
        "from fastapi.testclient import TestClient",
        "",
        "from app.main import app",
        "",
        "client = TestClient(app)",
        "",
        "",
        "def test_list_orders():",
        '    response = client.get("/orders")',
        "    assert response.status_code == 200",
    )
    pyproject = lines(
        "[project]",
        'name = "shop-api"',
        'version = "0.8.2"',
        'requires-python = ">=3.11"',
        'dependencies = ["fastapi==0.110.0", "sqlalchemy==2.0.28", "pydantic==2.6.4", "uvicorn==0.29.0"]',
        "",
        "[project.optional-dependencies]",
        'dev = ["pytest", "httpx"]',
    )
    s.commit(
        "shop api: orders and customers",
        {
            "pyproject.toml": pyproject,
            "app/__init__.py": "",
            "app/main.py": "from fastapi import FastAPI\n\nfrom app.routers import customers, orders\n\napp = FastAPI(title='shop')\napp.include_router(orders.router)\napp.include_router(customers.router)\n",
            "app/db.py": "from sqlalchemy import create_engine\nfrom sqlalchemy.orm import sessionmaker\n\nengine = create_engine('sqlite:///shop.db')\nSessionLocal = sessionmaker(bind=engine)\n\n\ndef get_db():\n    db = SessionLocal()\n    try:\n        yield db\n    finally:\n        db.close()\n",
            "app/models.py": "from sqlalchemy import Column, DateTime, ForeignKey, Integer, Numeric, String\nfrom sqlalchemy.orm import declarative_base\n\nBase = declarative_base()\n\n\nclass Customer(Base):\n    __tablename__ = 'customers'\n    id = Column(Integer, primary_key=True)\n    name = Column(String)\n\n\nclass Order(Base):\n    __tablename__ = 'orders'\n    id = Column(Integer, primary_key=True)\n    customer_id = Column(ForeignKey('customers.id'))\n    total = Column(Numeric(10, 2))\n    created_at = Column(DateTime)\n",
            "app/routers/__init__.py": "",
            "app/routers/orders.py": orders.replace(".order_by(Order.created_at.desc())", ""),
            "app/routers/customers.py": customers,
            "app/schemas/__init__.py": "",
            "app/schemas/order.py": "from datetime import datetime\nfrom decimal import Decimal\n\nfrom pydantic import BaseModel, ConfigDict\n\n\nclass OrderOut(BaseModel):\n    model_config = ConfigDict(from_attributes=True)\n\n    id: int\n    customer_id: int\n    total: Decimal\n    created_at: datetime\n",
            "tests/test_orders.py": test_orders,
            "scripts/seed_db.py": "from app.db import SessionLocal\nfrom app.models import Customer\n\nwith SessionLocal() as db:\n    db.add(Customer(name='Ada'))\n    db.commit()\n",
        },
        days_ago=45,
    )
    s.commit(
        "orders: newest first",
        {"app/routers/orders.py": orders, "tests/test_orders.py": test_orders},
        days_ago=12,
    )
    s.intent(
        "Add pagination to GET /orders (limit/offset, and return the total count)",
        {"app/routers/orders.py": "the orders endpoint"},
    )
    s.agent(
        {
            "app/routers/orders.py": lines(
                "from fastapi import APIRouter, Depends, Query",
                "from sqlalchemy.orm import Session",
                "",
                "from app.db import get_db",
                "from app.models import Order",
                "from app.schemas.order import OrderOut",
                "from app.schemas.pagination import Page",
                "",
                'router = APIRouter(prefix="/orders", tags=["orders"])',
                "",
                "",
                '@router.get("", response_model=Page[OrderOut])',
                "def list_orders(",
                "    limit: int = Query(20, ge=1, le=100),",
                "    offset: int = Query(0, ge=0),",
                "    db: Session = Depends(get_db),",
                "):",
                "    query = db.query(Order).order_by(Order.created_at.desc())",
                "    total = query.count()",
                "    items = query.offset(offset).limit(limit).all()",
                "    return Page(items=items, total=total, limit=limit, offset=offset)",
                "",
                "",
                '@router.get("/{order_id}", response_model=OrderOut)',
                "def get_order(order_id: int, db: Session = Depends(get_db)):",
                "    return db.get(Order, order_id)",
            ),
            "app/schemas/pagination.py": "from typing import Generic, TypeVar\n\nfrom pydantic import BaseModel\n\nT = TypeVar('T')\n\n\nclass Page(BaseModel, Generic[T]):\n    items: list[T]\n    total: int\n    limit: int\n    offset: int\n",
            "tests/test_orders.py": test_orders
            + lines(
                "",
                "",
                "def test_list_orders_paginates():",
                '    response = client.get("/orders", params={"limit": 5, "offset": 10})',
                "    body = response.json()",
                '    assert body["limit"] == 5 and body["offset"] == 10',
                '    assert "total" in body',
                "",
                "",
                "def test_limit_is_capped():",
                '    assert client.get("/orders", params={"limit": 500}).status_code == 422',
            ),
            "app/routers/customers.py": customers.replace(
                "from fastapi import APIRouter, Depends\n",
                "from typing import Annotated\n\nfrom fastapi import APIRouter, Depends\n",
            ).replace(
                "def list_customers(db: Session = Depends(get_db)):",
                "def list_customers(db: Annotated[Session, Depends(get_db)]) -> list[Customer]:",
            ),
            "pyproject.toml": pyproject.replace("fastapi==0.110.0", "fastapi==0.111.0"),
        },
        rename={"scripts/seed_db.py": "scripts/seed.py"},
    )
    s.fine("app/routers/orders.py", "app/schemas/pagination.py", "tests/test_orders.py")
    s.drift("app/routers/customers.py", "pyproject.toml", "scripts/seed_db.py", "scripts/seed.py")


def nextjs_post_author_avatar(s: Scene) -> None:
    """The author's avatar on blog post cards: the card, a new Avatar component, the
    GraphQL query that now asks for the avatar and the image host in next.config.js
    are in scope (the regenerated GraphQL types are generated); the CI Node version and
    deleting an unused banner component are not."""
    generated_head = (
        "/* eslint-disable */\n// Code generated by @graphql-codegen/cli. DO NOT EDIT.\n"
    )
    next_config = "/** @type {import('next').NextConfig} */\nconst nextConfig = {\n  reactStrictMode: true,\n};\n\nmodule.exports = nextConfig;\n"
    byline = '      <p className="text-sm text-gray-500">by {post.author.name}</p>\n'
    card_v1 = (
        "import Link from 'next/link';\nimport type { PostsQuery } from '@/__generated__/graphql';\n\ntype Post = PostsQuery['posts'][number];\n\nexport function PostCard({ post }: { post: Post }) {\n  return (\n    <article className=\"rounded border p-4\">\n      <Link href={`/blog/${post.slug}`}>\n        <h2 className=\"text-xl font-semibold\">{post.title}</h2>\n      </Link>\n      <p>{post.excerpt}</p>\n"
        + byline
        + "    </article>\n  );\n}\n"
    )
    ci = "name: ci\non: [push, pull_request]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 18\n          cache: npm\n      - run: npm ci\n      - run: npm run lint\n      - run: npm run build\n"
    s.commit(
        "blog on next",
        {
            "package.json": '{\n  "name": "blog",\n  "private": true,\n  "scripts": {\n    "dev": "next dev",\n    "build": "next build",\n    "lint": "next lint",\n    "codegen": "graphql-codegen"\n  },\n  "dependencies": {\n    "next": "14.1.0",\n    "react": "18.2.0",\n    "react-dom": "18.2.0",\n    "graphql-request": "6.1.0"\n  },\n  "devDependencies": {\n    "@graphql-codegen/cli": "5.0.2",\n    "typescript": "5.4.2"\n  }\n}\n',
            "next.config.js": next_config,
            "codegen.ts": "import type { CodegenConfig } from '@graphql-codegen/cli';\n\nconst config: CodegenConfig = {\n  schema: 'https://cms.example.com/graphql',\n  documents: 'src/graphql/**/*.graphql',\n  generates: { 'src/__generated__/graphql.ts': { plugins: ['typescript', 'typescript-operations'] } },\n};\n\nexport default config;\n",
            ".github/workflows/ci.yml": ci,
            "src/graphql/posts.graphql": "query Posts {\n  posts {\n    slug\n    title\n    excerpt\n  }\n}\n",
            "src/__generated__/graphql.ts": generated_head
            + "export type PostsQuery = {\n  posts: Array<{ slug: string; title: string; excerpt: string }>;\n};\n",
            "src/app/blog/page.tsx": "import { PostList } from '@/components/PostList';\nimport { getPosts } from '@/lib/cms';\n\nexport default async function BlogPage() {\n  const posts = await getPosts();\n  return <PostList posts={posts} />;\n}\n",
            "src/components/PostList.tsx": "import type { PostsQuery } from '@/__generated__/graphql';\nimport { PostCard } from './PostCard';\n\nexport function PostList({ posts }: { posts: PostsQuery['posts'] }) {\n  return (\n    <div className=\"grid gap-6\">\n      {posts.map((post) => (\n        <PostCard key={post.slug} post={post} />\n      ))}\n    </div>\n  );\n}\n",
            "src/components/PostCard.tsx": card_v1.replace(byline, ""),
            "src/components/OldBanner.tsx": 'export function OldBanner() {\n  return <div className="bg-yellow-100 p-2">We moved! Update your bookmarks.</div>;\n}\n',
        },
        days_ago=70,
    )
    s.commit(
        "post cards: show the author",
        {
            "src/graphql/posts.graphql": "query Posts {\n  posts {\n    slug\n    title\n    excerpt\n    author {\n      name\n    }\n  }\n}\n",
            "src/__generated__/graphql.ts": generated_head
            + "export type PostsQuery = {\n  posts: Array<{ slug: string; title: string; excerpt: string; author: { name: string } }>;\n};\n",
            "src/components/PostCard.tsx": card_v1,
        },
        days_ago=21,
    )
    s.intent(
        "Show the author's avatar on each blog post card",
        {"src/components/PostCard.tsx": "the post card"},
    )
    s.agent(
        {
            "src/components/PostCard.tsx": "import Link from 'next/link';\nimport type { PostsQuery } from '@/__generated__/graphql';\nimport { Avatar } from './Avatar';\n\ntype Post = PostsQuery['posts'][number];\n\nexport function PostCard({ post }: { post: Post }) {\n  return (\n    <article className=\"rounded border p-4\">\n      <Link href={`/blog/${post.slug}`}>\n        <h2 className=\"text-xl font-semibold\">{post.title}</h2>\n      </Link>\n      <p>{post.excerpt}</p>\n      <div className=\"mt-2 flex items-center gap-2 text-sm text-gray-500\">\n        <Avatar src={post.author.avatarUrl} name={post.author.name} size={24} />\n        <span>by {post.author.name}</span>\n      </div>\n    </article>\n  );\n}\n",
            "src/components/Avatar.tsx": 'import Image from \'next/image\';\n\ntype Props = { src: string | null; name: string; size?: number };\n\nexport function Avatar({ src, name, size = 32 }: Props) {\n  if (!src) {\n    return (\n      <span className="inline-flex items-center justify-center rounded-full bg-gray-200" style={{ width: size, height: size }}>\n        {name.charAt(0)}\n      </span>\n    );\n  }\n  return <Image src={src} alt={name} width={size} height={size} className="rounded-full" />;\n}\n',
            "src/graphql/posts.graphql": "query Posts {\n  posts {\n    slug\n    title\n    excerpt\n    author {\n      name\n      avatarUrl\n    }\n  }\n}\n",
            "src/__generated__/graphql.ts": generated_head
            + "export type PostsQuery = {\n  posts: Array<{ slug: string; title: string; excerpt: string; author: { name: string; avatarUrl: string | null } }>;\n};\n",
            "next.config.js": "/** @type {import('next').NextConfig} */\nconst nextConfig = {\n  reactStrictMode: true,\n  images: {\n    remotePatterns: [{ protocol: 'https', hostname: 'media.cms.example.com' }],\n  },\n};\n\nmodule.exports = nextConfig;\n",
            ".github/workflows/ci.yml": ci.replace("node-version: 18", "node-version: 20"),
        },
        delete=["src/components/OldBanner.tsx"],
    )
    s.fine(
        "src/components/PostCard.tsx",
        "src/components/Avatar.tsx",
        "src/graphql/posts.graphql",
        "next.config.js",
    )
    s.excluded("src/__generated__/graphql.ts")
    s.drift(".github/workflows/ci.yml", "src/components/OldBanner.tsx")


def android_dark_theme_switch(s: Scene) -> None:
    """A dark theme switch in an Android app's settings: the screen, its view model,
    the preference it is stored in, the activity that applies it and the new string are
    in scope; the About screen next to the settings screen and the app's version bump
    are not."""
    pkg = "app/src/main/java/com/example/notes"
    screen = f"{pkg}/ui/settings/SettingsScreen.kt"
    view_model = f"{pkg}/ui/settings/SettingsViewModel.kt"
    about = f"{pkg}/ui/settings/AboutScreen.kt"
    prefs = f"{pkg}/data/UserPreferences.kt"
    activity = f"{pkg}/MainActivity.kt"
    strings = "app/src/main/res/values/strings.xml"
    gradle = 'plugins {\n    id("com.android.application")\n    id("org.jetbrains.kotlin.android")\n}\n\nandroid {\n    namespace = "com.example.notes"\n    compileSdk = 34\n\n    defaultConfig {\n        applicationId = "com.example.notes"\n        minSdk = 26\n        targetSdk = 34\n        versionCode = 14\n        versionName = "1.4.0"\n    }\n    buildFeatures { compose = true; buildConfig = true }\n}\n\ndependencies {\n    implementation(platform(libs.compose.bom))\n    implementation(libs.compose.material3)\n    implementation(libs.datastore.preferences)\n}\n'
    screen_v1 = "package com.example.notes.ui.settings\n\nimport androidx.compose.foundation.clickable\nimport androidx.compose.foundation.layout.Column\nimport androidx.compose.material3.ListItem\nimport androidx.compose.material3.Switch\nimport androidx.compose.material3.Text\nimport androidx.compose.runtime.Composable\nimport androidx.compose.runtime.collectAsState\nimport androidx.compose.runtime.getValue\nimport androidx.compose.ui.Modifier\nimport androidx.compose.ui.res.stringResource\nimport com.example.notes.R\n\n@Composable\nfun SettingsScreen(viewModel: SettingsViewModel, onAbout: () -> Unit) {\n    val notifications by viewModel.notifications.collectAsState()\n    Column {\n        ListItem(\n            headlineContent = { Text(stringResource(R.string.settings_notifications)) },\n            trailingContent = { Switch(checked = notifications, onCheckedChange = viewModel::setNotifications) },\n        )\n        ListItem(headlineContent = { Text(stringResource(R.string.settings_about)) }, modifier = Modifier.clickable(onClick = onAbout))\n    }\n}\n"
    vm_v1 = "package com.example.notes.ui.settings\n\nimport androidx.lifecycle.ViewModel\nimport androidx.lifecycle.viewModelScope\nimport com.example.notes.data.UserPreferences\nimport kotlinx.coroutines.flow.SharingStarted\nimport kotlinx.coroutines.flow.stateIn\nimport kotlinx.coroutines.launch\n\nclass SettingsViewModel(private val prefs: UserPreferences) : ViewModel() {\n    val notifications = prefs.notifications.stateIn(viewModelScope, SharingStarted.Eagerly, true)\n\n    fun setNotifications(enabled: Boolean) {\n        viewModelScope.launch { prefs.setNotifications(enabled) }\n    }\n}\n"
    prefs_v1 = 'package com.example.notes.data\n\nimport android.content.Context\nimport androidx.datastore.preferences.core.booleanPreferencesKey\nimport androidx.datastore.preferences.core.edit\nimport androidx.datastore.preferences.preferencesDataStore\nimport kotlinx.coroutines.flow.map\n\nprivate val Context.dataStore by preferencesDataStore(name = "settings")\n\nclass UserPreferences(private val context: Context) {\n    private val notificationsKey = booleanPreferencesKey("notifications")\n\n    val notifications = context.dataStore.data.map { it[notificationsKey] ?: true }\n\n    suspend fun setNotifications(enabled: Boolean) {\n        context.dataStore.edit { it[notificationsKey] = enabled }\n    }\n}\n'
    strings_v1 = '<resources>\n    <string name="app_name">Notes</string>\n    <string name="settings_notifications">Notifications</string>\n    <string name="settings_about">About</string>\n    <string name="about_version">Version %1$s</string>\n</resources>\n'
    activity_v1 = "package com.example.notes\n\nimport android.os.Bundle\nimport androidx.activity.ComponentActivity\nimport androidx.activity.compose.setContent\nimport com.example.notes.data.UserPreferences\nimport com.example.notes.ui.NotesApp\nimport com.example.notes.ui.theme.NotesTheme\n\nclass MainActivity : ComponentActivity() {\n    override fun onCreate(savedInstanceState: Bundle?) {\n        super.onCreate(savedInstanceState)\n        val prefs = UserPreferences(applicationContext)\n        setContent {\n            NotesTheme {\n                NotesApp(prefs)\n            }\n        }\n    }\n}\n"
    about_v1 = 'package com.example.notes.ui.settings\n\nimport androidx.compose.foundation.layout.Column\nimport androidx.compose.foundation.layout.padding\nimport androidx.compose.material3.Text\nimport androidx.compose.runtime.Composable\nimport androidx.compose.ui.Modifier\nimport androidx.compose.ui.res.stringResource\nimport androidx.compose.ui.unit.dp\nimport com.example.notes.R\n\n@Composable\nfun AboutScreen() {\n    Column(Modifier.padding(16.dp)) {\n        Text(stringResource(R.string.app_name))\n        Text(stringResource(R.string.about_version, "1.4.0"))\n    }\n}\n'
    s.commit(
        "notes app",
        {
            "settings.gradle.kts": 'rootProject.name = "Notes"\ninclude(":app")\n',
            "app/build.gradle.kts": gradle.replace("versionCode = 14", "versionCode = 13").replace(
                '"1.4.0"', '"1.3.0"'
            ),
            "gradle/libs.versions.toml": '[versions]\ncompose-bom = "2024.02.00"\ndatastore = "1.0.0"\n\n[libraries]\ncompose-bom = { group = "androidx.compose", name = "compose-bom", version.ref = "compose-bom" }\ncompose-material3 = { group = "androidx.compose.material3", name = "material3" }\ndatastore-preferences = { group = "androidx.datastore", name = "datastore-preferences", version.ref = "datastore" }\n',
            activity: activity_v1,
            f"{pkg}/ui/theme/Theme.kt": "package com.example.notes.ui.theme\n\nimport androidx.compose.foundation.isSystemInDarkTheme\nimport androidx.compose.material3.MaterialTheme\nimport androidx.compose.material3.darkColorScheme\nimport androidx.compose.material3.lightColorScheme\nimport androidx.compose.runtime.Composable\n\n@Composable\nfun NotesTheme(darkTheme: Boolean = isSystemInDarkTheme(), content: @Composable () -> Unit) {\n    val colors = if (darkTheme) darkColorScheme() else lightColorScheme()\n    MaterialTheme(colorScheme = colors, content = content)\n}\n",
            screen: screen_v1,
            view_model: vm_v1,
            about: about_v1.replace('"1.4.0"', '"1.3.0"'),
            prefs: prefs_v1,
            strings: strings_v1,
        },
        days_ago=90,
    )
    s.commit(
        "Release 1.4.0",
        {"app/build.gradle.kts": gradle, about: about_v1},
        days_ago=9,
    )
    s.intent(
        "Add a dark theme switch to the settings screen",
        {screen: "the settings screen"},
    )
    s.agent(
        {
            screen: screen_v1.replace(
                "    val notifications by viewModel.notifications.collectAsState()\n",
                "    val notifications by viewModel.notifications.collectAsState()\n    val darkTheme by viewModel.darkTheme.collectAsState()\n",
            ).replace(
                "        ListItem(headlineContent = { Text(stringResource(R.string.settings_about)) }",
                "        ListItem(\n            headlineContent = { Text(stringResource(R.string.settings_dark_theme)) },\n            trailingContent = { Switch(checked = darkTheme, onCheckedChange = viewModel::setDarkTheme) },\n        )\n        ListItem(headlineContent = { Text(stringResource(R.string.settings_about)) }",
            ),
            view_model: vm_v1.replace(
                "\n    fun setNotifications",
                "    val darkTheme = prefs.darkTheme.stateIn(viewModelScope, SharingStarted.Eagerly, false)\n\n    fun setNotifications",
            ).replace(
                "    }\n}\n",
                "    }\n\n    fun setDarkTheme(enabled: Boolean) {\n        viewModelScope.launch { prefs.setDarkTheme(enabled) }\n    }\n}\n",
            ),
            prefs: prefs_v1.replace(
                '    private val notificationsKey = booleanPreferencesKey("notifications")\n',
                '    private val notificationsKey = booleanPreferencesKey("notifications")\n    private val darkThemeKey = booleanPreferencesKey("dark_theme")\n',
            ).replace(
                "    }\n}\n",
                "    }\n\n    val darkTheme = context.dataStore.data.map { it[darkThemeKey] ?: false }\n\n    suspend fun setDarkTheme(enabled: Boolean) {\n        context.dataStore.edit { it[darkThemeKey] = enabled }\n    }\n}\n",
            ),
            activity: activity_v1.replace(
                "        setContent {\n            NotesTheme {",
                "        setContent {\n            val darkTheme by prefs.darkTheme.collectAsState(initial = false)\n            NotesTheme(darkTheme = darkTheme) {",
            ).replace(
                "import androidx.activity.compose.setContent\n",
                "import androidx.activity.compose.setContent\nimport androidx.compose.runtime.collectAsState\nimport androidx.compose.runtime.getValue\n",
            ),
            strings: strings_v1.replace(
                '    <string name="settings_about">About</string>\n',
                '    <string name="settings_dark_theme">Dark theme</string>\n    <string name="settings_about">About</string>\n',
            ),
            about: about_v1.replace('"1.4.0"', "BuildConfig.VERSION_NAME").replace(
                "import com.example.notes.R\n",
                "import com.example.notes.BuildConfig\nimport com.example.notes.R\n",
            ),
            "app/build.gradle.kts": gradle.replace("versionCode = 14", "versionCode = 15").replace(
                'versionName = "1.4.0"', 'versionName = "1.5.0"'
            ),
        }
    )
    s.fine(screen, view_model, prefs, activity, strings)
    s.drift(about, "app/build.gradle.kts")


def rust_list_json_flag(s: Scene) -> None:
    """A --json flag for a Rust CLI's ``list`` command: the command, the clap
    definition and dispatch, a new integration test under ``tests/`` and the README
    line documenting it are in scope; the ``add`` command's default priority (same
    folder) and the crate's version bump are not."""
    cargo = '[package]\nname = "tasks"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\nclap = { version = "4.5", features = ["derive"] }\nserde = { version = "1", features = ["derive"] }\nserde_json = "1"\n\n[dev-dependencies]\nassert_cmd = "2"\n'
    cli = 'use clap::{Parser, Subcommand};\n\n#[derive(Parser)]\n#[command(name = "tasks", version)]\npub struct Cli {\n    #[command(subcommand)]\n    pub command: Command,\n}\n\n#[derive(Subcommand)]\npub enum Command {\n    /// Add a task\n    Add {\n        title: String,\n        #[arg(long)]\n        priority: Option<String>,\n    },\n    /// List open tasks\n    List {\n        #[arg(long)]\n        all: bool,\n    },\n    /// Export every task to a JSON file\n    Export { path: std::path::PathBuf },\n}\n'
    main = "mod cli;\nmod commands;\nmod store;\n\nuse clap::Parser;\nuse cli::{Cli, Command};\n\nfn main() -> Result<(), Box<dyn std::error::Error>> {\n    let cli = Cli::parse();\n    let mut store = store::Store::open_default()?;\n    match cli.command {\n        Command::Add { title, priority } => commands::add::run(&mut store, title, priority),\n        Command::List { all } => commands::list::run(&store, all),\n        Command::Export { path } => commands::export::run(&store, &path),\n    }\n}\n"
    listing = 'use crate::store::Store;\n\npub fn run(store: &Store, all: bool) -> Result<(), Box<dyn std::error::Error>> {\n    for task in store.tasks().filter(|t| all || !t.done) {\n        let mark = if task.done { "x" } else { " " };\n        println!("[{mark}] {:>3}  {}  ({})", task.id, task.title, task.priority);\n    }\n    Ok(())\n}\n'
    add = 'use crate::store::{Store, Task};\n\nconst DEFAULT_PRIORITY: &str = "normal";\n\npub fn run(store: &mut Store, title: String, priority: Option<String>) -> Result<(), Box<dyn std::error::Error>> {\n    let priority = priority.unwrap_or_else(|| DEFAULT_PRIORITY.to_string());\n    let task = store.push(Task::new(title, priority));\n    println!("added #{}", task.id);\n    store.save()\n}\n'
    readme = '# tasks\n\nA small to-do list for the terminal.\n\n```\ntasks add "write report" --priority high\ntasks list           # open tasks\ntasks list --all     # including done ones\ntasks export out.json\n```\n'
    s.commit(
        "tasks cli",
        {
            ".gitignore": "/target\n",
            "Cargo.toml": cargo,
            "Cargo.lock": '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n[[package]]\nname = "tasks"\nversion = "0.3.1"\n',
            "README.md": readme.replace(
                "tasks list           # open tasks\ntasks list --all     # including done ones\n",
                "tasks list\n",
            ),
            "src/main.rs": main.replace(
                "Command::List { all } => commands::list::run(&store, all),",
                "Command::List => commands::list::run(&store),",
            ),
            "src/cli.rs": cli.replace(
                "    List {\n        #[arg(long)]\n        all: bool,\n    },", "    List,"
            ),
            "src/store.rs": 'use serde::{Deserialize, Serialize};\n\n#[derive(Serialize, Deserialize, Clone)]\npub struct Task {\n    pub id: u32,\n    pub title: String,\n    pub priority: String,\n    pub done: bool,\n}\n\nimpl Task {\n    pub fn new(title: String, priority: String) -> Self {\n        Task { id: 0, title, priority, done: false }\n    }\n}\n\npub struct Store { path: std::path::PathBuf, tasks: Vec<Task> }\n\nimpl Store {\n    pub fn open_default() -> Result<Self, Box<dyn std::error::Error>> {\n        let path = dirs_path().join("tasks.json");\n        let tasks = std::fs::read(&path).map(|b| serde_json::from_slice(&b)).unwrap_or(Ok(Vec::new()))?;\n        Ok(Store { path, tasks })\n    }\n    pub fn tasks(&self) -> impl Iterator<Item = &Task> { self.tasks.iter() }\n    pub fn push(&mut self, mut task: Task) -> &Task {\n        task.id = self.tasks.len() as u32 + 1;\n        self.tasks.push(task);\n        self.tasks.last().unwrap()\n    }\n    pub fn save(&self) -> Result<(), Box<dyn std::error::Error>> {\n        std::fs::write(&self.path, serde_json::to_vec_pretty(&self.tasks)?)?;\n        Ok(())\n    }\n}\n\nfn dirs_path() -> std::path::PathBuf {\n    std::env::var_os("TASKS_HOME").map(Into::into).unwrap_or_else(|| ".".into())\n}\n',
            "src/commands/mod.rs": "pub mod add;\npub mod export;\npub mod list;\n",
            "src/commands/list.rs": listing.replace(
                "store: &Store, all: bool)", "store: &Store)"
            ).replace("|t| all || !t.done", "|t| !t.done"),
            "src/commands/add.rs": add,
            "src/commands/export.rs": "use crate::store::Store;\nuse std::path::Path;\n\npub fn run(store: &Store, path: &Path) -> Result<(), Box<dyn std::error::Error>> {\n    let tasks: Vec<_> = store.tasks().collect();\n    std::fs::write(path, serde_json::to_string_pretty(&tasks)?)?;\n    Ok(())\n}\n",
        },
        days_ago=120,
    )
    s.commit(
        "list: --all shows done tasks too",
        {
            "src/cli.rs": cli,
            "src/commands/list.rs": listing,
            "src/main.rs": main,
            "README.md": readme,
        },
        days_ago=33,
    )
    s.intent(
        "Add a --json flag to `tasks list` so scripts can read the output",
        {"src/commands/list.rs": "the list command"},
    )
    s.agent(
        {
            "src/commands/list.rs": 'use crate::store::Store;\n\npub fn run(store: &Store, all: bool, json: bool) -> Result<(), Box<dyn std::error::Error>> {\n    let tasks: Vec<_> = store.tasks().filter(|t| all || !t.done).collect();\n    if json {\n        println!("{}", serde_json::to_string(&tasks)?);\n        return Ok(());\n    }\n    for task in tasks {\n        let mark = if task.done { "x" } else { " " };\n        println!("[{mark}] {:>3}  {}  ({})", task.id, task.title, task.priority);\n    }\n    Ok(())\n}\n',
            "src/cli.rs": cli.replace(
                "    List {\n        #[arg(long)]\n        all: bool,\n    },",
                "    List {\n        #[arg(long)]\n        all: bool,\n        /// Print the tasks as a JSON array\n        #[arg(long)]\n        json: bool,\n    },",
            ),
            "src/main.rs": main.replace(
                "Command::List { all } => commands::list::run(&store, all),",
                "Command::List { all, json } => commands::list::run(&store, all, json),",
            ),
            "tests/list_json.rs": 'use assert_cmd::Command;\n\n#[test]\nfn list_json_prints_an_array() {\n    let home = std::env::temp_dir().join(format!("tasks-test-{}", std::process::id()));\n    std::fs::create_dir_all(&home).unwrap();\n    let mut add = Command::cargo_bin("tasks").unwrap();\n    add.env("TASKS_HOME", &home).args(["add", "buy milk"]).assert().success();\n    let out = Command::cargo_bin("tasks").unwrap()\n        .env("TASKS_HOME", &home)\n        .args(["list", "--json"])\n        .output()\n        .unwrap();\n    let tasks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();\n    assert_eq!(tasks[0]["title"], "buy milk");\n}\n',
            "README.md": readme.replace(
                "tasks list --all     # including done ones\n",
                "tasks list --all     # including done ones\ntasks list --json    # as a JSON array, for scripts\n",
            ),
            "src/commands/add.rs": add.replace(
                'DEFAULT_PRIORITY: &str = "normal"', 'DEFAULT_PRIORITY: &str = "medium"'
            ),
            "Cargo.toml": cargo.replace('version = "0.3.1"', 'version = "0.4.0"'),
        }
    )
    s.fine(
        "src/commands/list.rs",
        "src/cli.rs",
        "src/main.rs",
        "tests/list_json.rs",
        "README.md",
    )
    s.drift("src/commands/add.rs", "Cargo.toml")


def aspnet_invoice_not_found(s: Scene) -> None:
    """A 404 instead of a 500 for a missing invoice in ASP.NET Core: the controller,
    the service and its interface, and a test in the test project are in scope (the
    ``bin/`` and ``obj/`` the build left are build output); making the customers
    controller do the same and lowering the log level are not."""
    api = "Billing.Api"
    controller = lines(
        "using Billing.Api.Services;",
        "using Microsoft.AspNetCore.Mvc;",
        "",
        "namespace Billing.Api.Controllers;",
        "",
        "[ApiController]",
        '[Route("api/invoices")]',
        "public class InvoicesController : ControllerBase",
        "{",
        "    private readonly IInvoiceService _invoices;",
        "",
        "    public InvoicesController(IInvoiceService invoices) => _invoices = invoices;",
        "",
        '    [HttpGet("{id:int}")]',
        "    public async Task<ActionResult<InvoiceDto>> Get(int id)",
        "    {",
        "        var invoice = await _invoices.GetAsync(id);",
        "        return Ok(invoice);",
        "    }",
        "}",
    )
    customers = lines(
        "using Billing.Api.Data;",
        "using Microsoft.AspNetCore.Mvc;",
        "using Microsoft.EntityFrameworkCore;",
        "",
        "namespace Billing.Api.Controllers;",
        "",
        "[ApiController]",
        '[Route("api/customers")]',
        "public class CustomersController : ControllerBase",
        "{",
        "    private readonly BillingDb _db;",
        "",
        "    public CustomersController(BillingDb db) => _db = db;",
        "",
        '    [HttpGet("{id:int}")]',
        "    public async Task<ActionResult<Customer>> Get(int id)",
        "    {",
        "        return await _db.Customers.SingleAsync(c => c.Id == id);",
        "    }",
        "}",
    )
    iface = "namespace Billing.Api.Services;\n\npublic interface IInvoiceService\n{\n    Task<InvoiceDto> GetAsync(int id);\n}\n"
    service = lines(
        "using Billing.Api.Data;",
        "using Microsoft.EntityFrameworkCore;",
        "",
        "namespace Billing.Api.Services;",
        "",
        "public class InvoiceService : IInvoiceService",
        "{",
        "    private readonly BillingDb _db;",
        "",
        "    public InvoiceService(BillingDb db) => _db = db;",
        "",
        "    public async Task<InvoiceDto> GetAsync(int id)",
        "    {",
        "        var invoice = await _db.Invoices.Include(i => i.Lines).SingleAsync(i => i.Id == id);",
        "        return InvoiceDto.From(invoice);",
        "    }",
        "}",
    )
    tests = lines(
        "using System.Net;",
        "using Microsoft.AspNetCore.Mvc.Testing;",
        "using Xunit;",
        "",
        "namespace Billing.Api.Tests;",
        "",
        "public class InvoicesControllerTests : IClassFixture<WebApplicationFactory<Program>>",
        "{",
        "    private readonly HttpClient _client;",
        "",
        "    public InvoicesControllerTests(WebApplicationFactory<Program> factory) => _client = factory.CreateClient();",
        "",
        "    [Fact]",
        "    public async Task Get_existing_invoice_returns_ok()",
        "    {",
        '        var response = await _client.GetAsync("/api/invoices/1");',
        "        Assert.Equal(HttpStatusCode.OK, response.StatusCode);",
        "    }",
        "}",
    )
    appsettings = '{\n  "Logging": {\n    "LogLevel": {\n      "Default": "Information",\n      "Microsoft.AspNetCore": "Warning"\n    }\n  },\n  "ConnectionStrings": {\n    "Billing": "Host=localhost;Database=billing;Username=billing"\n  },\n  "AllowedHosts": "*"\n}\n'
    s.commit(
        "billing api",
        {
            ".gitignore": ".vs/\n*.user\n",
            "Billing.sln": 'Microsoft Visual Studio Solution File, Format Version 12.00\nProject("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Billing.Api", "Billing.Api\\Billing.Api.csproj", "{1A2B}"\nEndProject\nProject("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Billing.Api.Tests", "Billing.Api.Tests\\Billing.Api.Tests.csproj", "{3C4D}"\nEndProject\n',
            f"{api}/Billing.Api.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n    <ImplicitUsings>enable</ImplicitUsings>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="Npgsql.EntityFrameworkCore.PostgreSQL" Version="8.0.2" />\n  </ItemGroup>\n</Project>\n',
            f"{api}/Program.cs": 'using Billing.Api.Data;\nusing Billing.Api.Services;\nusing Microsoft.EntityFrameworkCore;\n\nvar builder = WebApplication.CreateBuilder(args);\nbuilder.Services.AddControllers();\nbuilder.Services.AddDbContext<BillingDb>(o => o.UseNpgsql(builder.Configuration.GetConnectionString("Billing")));\nbuilder.Services.AddScoped<IInvoiceService, InvoiceService>();\n\nvar app = builder.Build();\napp.MapControllers();\napp.Run();\n\npublic partial class Program { }\n',
            f"{api}/appsettings.json": appsettings,
            f"{api}/Controllers/InvoicesController.cs": controller,
            f"{api}/Controllers/CustomersController.cs": customers,
            f"{api}/Services/IInvoiceService.cs": iface,
            f"{api}/Services/InvoiceService.cs": service.replace(".Include(i => i.Lines)", ""),
            "Billing.Api.Tests/Billing.Api.Tests.csproj": '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="Microsoft.AspNetCore.Mvc.Testing" Version="8.0.3" />\n    <PackageReference Include="xunit" Version="2.7.0" />\n    <ProjectReference Include="..\\Billing.Api\\Billing.Api.csproj" />\n  </ItemGroup>\n</Project>\n',
            "Billing.Api.Tests/InvoicesControllerTests.cs": tests,
        },
        days_ago=50,
    )
    s.commit(
        "invoices: include the lines",
        {f"{api}/Services/InvoiceService.cs": service},
        days_ago=6,
    )
    s.intent(
        "GET /api/invoices/{id} should return 404 instead of 500 when the invoice doesn't exist",
        {f"{api}/Controllers/InvoicesController.cs": "the invoices controller"},
    )
    s.agent(
        {
            f"{api}/Controllers/InvoicesController.cs": controller.replace(
                "        var invoice = await _invoices.GetAsync(id);\n        return Ok(invoice);",
                "        var invoice = await _invoices.GetAsync(id);\n        if (invoice is null)\n        {\n            return NotFound();\n        }\n        return Ok(invoice);",
            ),
            f"{api}/Services/IInvoiceService.cs": iface.replace(
                "Task<InvoiceDto> GetAsync", "Task<InvoiceDto?> GetAsync"
            ),
            f"{api}/Services/InvoiceService.cs": service.replace(
                "    public async Task<InvoiceDto> GetAsync(int id)",
                "    public async Task<InvoiceDto?> GetAsync(int id)",
            ).replace(
                ".SingleAsync(i => i.Id == id);\n        return InvoiceDto.From(invoice);",
                ".SingleOrDefaultAsync(i => i.Id == id);\n        return invoice is null ? null : InvoiceDto.From(invoice);",
            ),
            "Billing.Api.Tests/InvoicesControllerTests.cs": tests.replace(
                "    }\n}\n",
                '    }\n\n    [Fact]\n    public async Task Get_missing_invoice_returns_not_found()\n    {\n        var response = await _client.GetAsync("/api/invoices/999999");\n        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);\n    }\n}\n',
            ),
            f"{api}/Controllers/CustomersController.cs": customers.replace(
                "        return await _db.Customers.SingleAsync(c => c.Id == id);",
                "        var customer = await _db.Customers.SingleOrDefaultAsync(c => c.Id == id);\n        if (customer is null)\n        {\n            return NotFound();\n        }\n        return customer;",
            ),
            f"{api}/appsettings.json": appsettings.replace(
                '"Default": "Information"', '"Default": "Warning"'
            ),
            f"{api}/bin/Debug/net8.0/Billing.Api.dll": DLL,
            f"{api}/obj/project.assets.json": '{\n  "version": 3,\n  "targets": {\n    "net8.0": {}\n  },\n  "project": {\n    "restore": {\n      "projectName": "Billing.Api"\n    }\n  }\n}\n',
            "Billing.Api.Tests/bin/Debug/net8.0/Billing.Api.Tests.dll": DLL,
        }
    )
    s.fine(
        f"{api}/Controllers/InvoicesController.cs",
        f"{api}/Services/IInvoiceService.cs",
        f"{api}/Services/InvoiceService.cs",
        "Billing.Api.Tests/InvoicesControllerTests.cs",
    )
    s.drift(f"{api}/Controllers/CustomersController.cs", f"{api}/appsettings.json")
    s.excluded(
        f"{api}/bin/Debug/net8.0/Billing.Api.dll",
        f"{api}/obj/project.assets.json",
        "Billing.Api.Tests/bin/Debug/net8.0/Billing.Api.Tests.dll",
    )


def laravel_users_csv_export(s: Scene) -> None:
    """A CSV download of the users list for admins in Laravel: the admin user
    controller, the new route, the button in the users view and a new feature test
    (far from the controller) are in scope; reformatting the dashboard controller next
    to it, the session lifetime and a PHPUnit bump are not."""
    ctrl_dir = "app/Http/Controllers/Admin"
    controller = "<?php\n\nnamespace App\\Http\\Controllers\\Admin;\n\nuse App\\Http\\Controllers\\Controller;\nuse App\\Models\\User;\nuse Illuminate\\Http\\Request;\n\nclass UserController extends Controller\n{\n    public function index(Request $request)\n    {\n        $users = User::query()\n            ->when($request->query('q'), fn ($q, $term) => $q->where('email', 'like', \"%{$term}%\"))\n            ->orderBy('name')\n            ->paginate(25);\n\n        return view('admin.users.index', compact('users'));\n    }\n}\n"
    search_clause = "            ->when($request->query('q'), fn ($q, $term) => $q->where('email', 'like', \"%{$term}%\"))\n"
    search_form = '    <form method="get"><input name="q" value="{{ request(\'q\') }}" placeholder="Search by email"></form>\n'
    dashboard = "<?php\n\nnamespace App\\Http\\Controllers\\Admin;\n\nuse App\\Http\\Controllers\\Controller;\nuse App\\Models\\User;\n\nclass DashboardController extends Controller\n{\n    public function __invoke()\n    {\n        return view('admin.dashboard', ['userCount' => User::count(), 'newThisWeek' => User::where('created_at', '>=', now()->subWeek())->count()]);\n    }\n}\n"
    routes = "<?php\n\nuse App\\Http\\Controllers\\Admin\\DashboardController;\nuse App\\Http\\Controllers\\Admin\\UserController;\nuse Illuminate\\Support\\Facades\\Route;\n\nRoute::get('/', fn () => view('welcome'));\n\nRoute::middleware(['auth', 'can:admin'])->prefix('admin')->name('admin.')->group(function () {\n    Route::get('/', DashboardController::class)->name('dashboard');\n    Route::get('/users', [UserController::class, 'index'])->name('users.index');\n});\n"
    view = '@extends(\'layouts.admin\')\n\n@section(\'content\')\n<div class="flex items-center justify-between">\n    <h1>Users</h1>\n    <form method="get"><input name="q" value="{{ request(\'q\') }}" placeholder="Search by email"></form>\n</div>\n<table>\n    @foreach ($users as $user)\n        <tr><td>{{ $user->name }}</td><td>{{ $user->email }}</td><td>{{ $user->created_at->toDateString() }}</td></tr>\n    @endforeach\n</table>\n{{ $users->links() }}\n@endsection\n'
    session = "<?php\n\nuse Illuminate\\Support\\Str;\n\nreturn [\n    'driver' => env('SESSION_DRIVER', 'database'),\n    'lifetime' => env('SESSION_LIFETIME', 120),\n    'expire_on_close' => false,\n    'encrypt' => false,\n    'cookie' => env('SESSION_COOKIE', Str::slug(env('APP_NAME', 'laravel'), '_').'_session'),\n    'secure' => env('SESSION_SECURE_COOKIE'),\n    'same_site' => 'lax',\n];\n"
    composer = '{\n    "name": "acme/backoffice",\n    "type": "project",\n    "require": {\n        "php": "^8.2",\n        "laravel/framework": "^11.0"\n    },\n    "require-dev": {\n        "fakerphp/faker": "^1.23",\n        "phpunit/phpunit": "^10.5"\n    },\n    "autoload": {\n        "psr-4": {\n            "App\\\\": "app/"\n        }\n    }\n}\n'
    s.commit(
        "backoffice",
        {
            "composer.json": composer,
            "routes/web.php": routes,
            f"{ctrl_dir}/UserController.php": controller.replace(search_clause, ""),
            f"{ctrl_dir}/DashboardController.php": dashboard,
            "app/Models/User.php": "<?php\n\nnamespace App\\Models;\n\nuse Illuminate\\Foundation\\Auth\\User as Authenticatable;\n\nclass User extends Authenticatable\n{\n    protected $fillable = ['name', 'email', 'password'];\n\n    protected $hidden = ['password', 'remember_token'];\n}\n",
            "resources/views/admin/users/index.blade.php": view.replace(search_form, ""),
            "resources/views/admin/dashboard.blade.php": "@extends('layouts.admin')\n\n@section('content')\n<p>{{ $userCount }} users, {{ $newThisWeek }} new this week.</p>\n@endsection\n",
            "config/session.php": session,
            "tests/Feature/Admin/UserIndexTest.php": "<?php\n\nnamespace Tests\\Feature\\Admin;\n\nuse App\\Models\\User;\nuse Tests\\TestCase;\n\nclass UserIndexTest extends TestCase\n{\n    public function test_admin_sees_the_users_list(): void\n    {\n        $admin = User::factory()->admin()->create();\n        $this->actingAs($admin)->get('/admin/users')->assertOk()->assertSee($admin->email);\n    }\n}\n",
        },
        days_ago=60,
    )
    s.commit(
        "admin users: search by email",
        {
            f"{ctrl_dir}/UserController.php": controller,
            "resources/views/admin/users/index.blade.php": view,
        },
        days_ago=15,
    )
    s.intent(
        "Let admins download the users list as a CSV file",
        {f"{ctrl_dir}/UserController.php": "the admin users page"},
    )
    s.agent(
        {
            f"{ctrl_dir}/UserController.php": controller.replace(
                "use Illuminate\\Http\\Request;\n",
                "use Illuminate\\Http\\Request;\nuse Symfony\\Component\\HttpFoundation\\StreamedResponse;\n",
            ).replace(
                "        return view('admin.users.index', compact('users'));\n    }\n",
                "        return view('admin.users.index', compact('users'));\n    }\n\n    public function export(Request $request): StreamedResponse\n    {\n        $query = User::query()\n            ->when($request->query('q'), fn ($q, $term) => $q->where('email', 'like', \"%{$term}%\"))\n            ->orderBy('name');\n\n        return response()->streamDownload(function () use ($query) {\n            $out = fopen('php://output', 'w');\n            fputcsv($out, ['name', 'email', 'created_at']);\n            $query->chunk(500, function ($users) use ($out) {\n                foreach ($users as $user) {\n                    fputcsv($out, [$user->name, $user->email, $user->created_at->toDateTimeString()]);\n                }\n            });\n            fclose($out);\n        }, 'users-'.now()->format('Y-m-d').'.csv', ['Content-Type' => 'text/csv']);\n    }\n",
            ),
            "routes/web.php": routes.replace(
                "    Route::get('/users', [UserController::class, 'index'])->name('users.index');\n",
                "    Route::get('/users', [UserController::class, 'index'])->name('users.index');\n    Route::get('/users/export', [UserController::class, 'export'])->name('users.export');\n",
            ),
            "resources/views/admin/users/index.blade.php": view.replace(
                '    <form method="get"><input name="q" value="{{ request(\'q\') }}" placeholder="Search by email"></form>\n',
                '    <form method="get"><input name="q" value="{{ request(\'q\') }}" placeholder="Search by email"></form>\n    <a href="{{ route(\'admin.users.export\', [\'q\' => request(\'q\')]) }}" class="btn">Download CSV</a>\n',
            ),
            "tests/Feature/Admin/UserExportTest.php": "<?php\n\nnamespace Tests\\Feature\\Admin;\n\nuse App\\Models\\User;\nuse Tests\\TestCase;\n\nclass UserExportTest extends TestCase\n{\n    public function test_admin_downloads_users_as_csv(): void\n    {\n        $admin = User::factory()->admin()->create();\n        $response = $this->actingAs($admin)->get('/admin/users/export');\n        $response->assertOk()->assertHeader('Content-Type', 'text/csv; charset=UTF-8');\n        $this->assertStringContainsString($admin->email, $response->streamedContent());\n    }\n\n    public function test_non_admin_cannot_export(): void\n    {\n        $this->actingAs(User::factory()->create())->get('/admin/users/export')->assertForbidden();\n    }\n}\n",
            f"{ctrl_dir}/DashboardController.php": "<?php\n\nnamespace App\\Http\\Controllers\\Admin;\n\nuse App\\Http\\Controllers\\Controller;\nuse App\\Models\\User;\nuse Illuminate\\View\\View;\n\nclass DashboardController extends Controller\n{\n    public function __invoke(): View\n    {\n        return view('admin.dashboard', [\n            'userCount' => User::count(),\n            'newThisWeek' => User::where('created_at', '>=', now()->subWeek())->count(),\n        ]);\n    }\n}\n",
            "config/session.php": session.replace(
                "env('SESSION_LIFETIME', 120)", "env('SESSION_LIFETIME', 480)"
            ),
            "composer.json": composer.replace(
                '"phpunit/phpunit": "^10.5"', '"phpunit/phpunit": "^11.0"'
            ),
        }
    )
    s.fine(
        f"{ctrl_dir}/UserController.php",
        "routes/web.php",
        "resources/views/admin/users/index.blade.php",
        "tests/Feature/Admin/UserExportTest.php",
    )
    s.drift(f"{ctrl_dir}/DashboardController.php", "config/session.php", "composer.json")


def terraform_prod_read_replica(s: Scene) -> None:
    """A read replica for the production Postgres in Terraform, in two rounds with a
    checkpoint between them (the safe point): the database module's resource,
    variable and output, the prod environment turning it on and the database docs page
    are in scope; turning it on in staging too, re-aligning the network module and
    editing the onboarding page are not."""
    db_main = 'resource "aws_db_subnet_group" "this" {\n  name       = "${var.name}-db"\n  subnet_ids = var.subnet_ids\n}\n\nresource "aws_db_instance" "primary" {\n  identifier              = var.name\n  engine                  = "postgres"\n  engine_version          = "15.5"\n  instance_class          = var.instance_class\n  allocated_storage       = var.storage_gb\n  db_subnet_group_name    = aws_db_subnet_group.this.name\n  backup_retention_period = 7\n  multi_az                = var.multi_az\n  skip_final_snapshot     = false\n}\n'
    db_vars = 'variable "name" {\n  type = string\n}\n\nvariable "subnet_ids" {\n  type = list(string)\n}\n\nvariable "instance_class" {\n  type    = string\n  default = "db.t4g.medium"\n}\n\nvariable "storage_gb" {\n  type    = number\n  default = 50\n}\n\nvariable "multi_az" {\n  type    = bool\n  default = false\n}\n'
    db_out = 'output "endpoint" {\n  value = aws_db_instance.primary.endpoint\n}\n'
    prod = 'module "network" {\n  source = "../../modules/network"\n  name   = "prod"\n  cidr   = "10.10.0.0/16"\n}\n\nmodule "database" {\n  source         = "../../modules/database"\n  name           = "prod-app"\n  subnet_ids     = module.network.private_subnet_ids\n  instance_class = "db.r6g.large"\n  storage_gb     = 200\n  multi_az       = true\n}\n'
    staging = 'module "network" {\n  source = "../../modules/network"\n  name   = "staging"\n  cidr   = "10.20.0.0/16"\n}\n\nmodule "database" {\n  source     = "../../modules/database"\n  name       = "staging-app"\n  subnet_ids = module.network.private_subnet_ids\n}\n'
    network = 'resource "aws_vpc" "this" {\n  cidr_block = var.cidr\n  enable_dns_hostnames = true\n  tags = { Name = var.name }\n}\n\nresource "aws_subnet" "private" {\n  count = 2\n  vpc_id = aws_vpc.this.id\n  cidr_block = cidrsubnet(var.cidr, 4, count.index)\n}\n\noutput "private_subnet_ids" {\n  value = aws_subnet.private[*].id\n}\n'
    db_doc = "# Database\n\nEach environment has one Postgres 15 instance from `modules/database`.\nProduction runs Multi-AZ on `db.r6g.large`; staging is single-AZ.\n\nBackups are kept for 7 days.\n"
    onboarding = "# Onboarding\n\n1. Install Terraform 1.6 and the AWS CLI.\n2. Ask for access to the `infra` AWS account.\n3. Run `terraform init` in `envs/staging` and check `terraform plan` is clean.\n"
    s.commit(
        "infra: network and database modules, prod and staging",
        {
            "README.md": "# infra\n\nTerraform for the app's AWS accounts. Environments live in `envs/`, shared modules in `modules/`.\nSee `docs/` for runbooks.\n",
            "docs/database.md": db_doc.replace(
                "Production runs Multi-AZ on `db.r6g.large`; staging is single-AZ.\n",
                "Production runs on `db.r6g.large`.\n",
            ),
            "docs/onboarding.md": onboarding,
            "modules/database/main.tf": db_main.replace(
                "  multi_az                = var.multi_az\n", ""
            ),
            "modules/database/variables.tf": db_vars.replace(
                '\nvariable "multi_az" {\n  type    = bool\n  default = false\n}\n', ""
            ),
            "modules/database/outputs.tf": db_out,
            "modules/network/main.tf": network,
            "modules/network/variables.tf": 'variable "name" {\n  type = string\n}\n\nvariable "cidr" {\n  type = string\n}\n',
            "envs/prod/main.tf": prod.replace("  multi_az       = true\n", ""),
            "envs/staging/main.tf": staging,
        },
        days_ago=200,
    )
    s.commit(
        "database: Multi-AZ in prod",
        {
            "modules/database/main.tf": db_main,
            "modules/database/variables.tf": db_vars,
            "envs/prod/main.tf": prod,
            "docs/database.md": db_doc,
        },
        days_ago=40,
    )
    s.intent(
        "Add a read replica to the production Postgres database",
        {"modules/database/main.tf": "the database module"},
    )
    s.agent(
        {
            "modules/database/main.tf": db_main
            + '\nresource "aws_db_instance" "replica" {\n  count               = var.replica_count\n  identifier          = "${var.name}-replica-${count.index}"\n  replicate_source_db = aws_db_instance.primary.identifier\n  instance_class      = coalesce(var.replica_instance_class, var.instance_class)\n  skip_final_snapshot = true\n}\n',
            "modules/database/variables.tf": db_vars
            + '\nvariable "replica_count" {\n  type    = number\n  default = 0\n}\n\nvariable "replica_instance_class" {\n  type    = string\n  default = null\n}\n',
            "modules/database/outputs.tf": db_out
            + '\noutput "replica_endpoints" {\n  value = aws_db_instance.replica[*].endpoint\n}\n',
        }
    )
    safe = s.checkpoint("read replica in the database module")
    s.agent(
        {
            "envs/prod/main.tf": prod.replace(
                "  multi_az       = true\n",
                "  multi_az       = true\n  replica_count  = 1\n",
            ),
            "docs/database.md": db_doc
            + "\n## Read replica\n\nProduction has one read replica (`replica_endpoints` output). Point reporting\nand other read-only jobs at it; it lags the primary by a few seconds.\n",
            "envs/staging/main.tf": staging.replace(
                "  subnet_ids = module.network.private_subnet_ids\n",
                "  subnet_ids = module.network.private_subnet_ids\n  replica_count = 1\n",
            ),
            "modules/network/main.tf": 'resource "aws_vpc" "this" {\n  cidr_block           = var.cidr\n  enable_dns_hostnames = true\n  tags                 = { Name = var.name }\n}\n\nresource "aws_subnet" "private" {\n  count      = 2\n  vpc_id     = aws_vpc.this.id\n  cidr_block = cidrsubnet(var.cidr, 4, count.index)\n}\n\noutput "private_subnet_ids" {\n  value = aws_subnet.private[*].id\n}\n',
            "docs/onboarding.md": onboarding.replace(
                "Terraform 1.6", "Terraform 1.7 (via `tfenv`)"
            ),
        }
    )
    s.safe_checkpoint(safe)
    s.fine(
        "modules/database/main.tf",
        "modules/database/variables.tf",
        "modules/database/outputs.tf",
        "envs/prod/main.tf",
        "docs/database.md",
    )
    s.drift("envs/staging/main.tf", "modules/network/main.tf", "docs/onboarding.md")


def phoenix_welcome_email(s: Scene) -> None:
    """A welcome email on sign-up in Phoenix: the Accounts context, the user notifier
    that sends it and the accounts test are in scope; the confirmation token's
    validity (a file next to the notifier), the dev server's port and a Swoosh bump
    are not."""
    accounts = 'defmodule Shop.Accounts do\n  @moduledoc "Users and their sessions."\n\n  alias Shop.Repo\n  alias Shop.Accounts.{User, UserToken, UserNotifier}\n\n  def get_user_by_email(email) when is_binary(email), do: Repo.get_by(User, email: email)\n\n  def register_user(attrs) do\n    %User{}\n    |> User.registration_changeset(attrs)\n    |> Repo.insert()\n  end\n\n  def deliver_user_confirmation_instructions(%User{} = user, confirmation_url_fun) do\n    {encoded_token, user_token} = UserToken.build_email_token(user, "confirm")\n    Repo.insert!(user_token)\n    UserNotifier.deliver_confirmation_instructions(user, confirmation_url_fun.(encoded_token))\n  end\nend\n'
    notifier = 'defmodule Shop.Accounts.UserNotifier do\n  import Swoosh.Email\n\n  alias Shop.Mailer\n\n  defp deliver(recipient, subject, body) do\n    email =\n      new()\n      |> to(recipient)\n      |> from({"Shop", "hello@shop.example"})\n      |> subject(subject)\n      |> text_body(body)\n\n    with {:ok, _metadata} <- Mailer.deliver(email) do\n      {:ok, email}\n    end\n  end\n\n  def deliver_confirmation_instructions(user, url) do\n    deliver(user.email, "Confirmation instructions", """\n    Hi #{user.email},\n\n    You can confirm your account by visiting the URL below:\n\n    #{url}\n    """)\n  end\nend\n'
    tokens_ex = 'defmodule Shop.Accounts.UserToken do\n  use Ecto.Schema\n\n  @hash_algorithm :sha256\n  @rand_size 32\n  @confirm_validity_in_days 7\n  @session_validity_in_days 60\n\n  schema "users_tokens" do\n    field :token, :binary\n    field :context, :string\n    field :sent_to, :string\n    belongs_to :user, Shop.Accounts.User\n    timestamps(updated_at: false)\n  end\n\n  def build_email_token(user, context) do\n    token = :crypto.strong_rand_bytes(@rand_size)\n    hashed = :crypto.hash(@hash_algorithm, token)\n    {Base.url_encode64(token, padding: false), %__MODULE__{token: hashed, context: context, sent_to: user.email, user_id: user.id}}\n  end\n\n  def days_for_context("confirm"), do: @confirm_validity_in_days\n  def days_for_context("session"), do: @session_validity_in_days\nend\n'
    test = 'defmodule Shop.AccountsTest do\n  use Shop.DataCase\n\n  alias Shop.Accounts\n  import Shop.AccountsFixtures\n\n  describe "register_user/1" do\n    test "registers users with a hashed password" do\n      email = unique_user_email()\n      {:ok, user} = Accounts.register_user(valid_user_attributes(email: email))\n      assert user.email == email\n      assert is_binary(user.hashed_password)\n    end\n\n    test "requires email to be unique" do\n      %{email: email} = user_fixture()\n      {:error, changeset} = Accounts.register_user(%{email: email, password: "valid password 123"})\n      assert "has already been taken" in errors_on(changeset).email\n    end\n  end\nend\n'
    dev = 'import Config\n\nconfig :shop, Shop.Repo,\n  username: "postgres",\n  password: "postgres",\n  hostname: "localhost",\n  database: "shop_dev"\n\nconfig :shop, ShopWeb.Endpoint,\n  http: [ip: {127, 0, 0, 1}, port: 4000],\n  check_origin: false,\n  code_reloader: true,\n  debug_errors: true\n\nconfig :swoosh, :api_client, false\n'
    mix = 'defmodule Shop.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :shop, version: "0.1.0", elixir: "~> 1.15", deps: deps()]\n  end\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7.11"},\n      {:phoenix_ecto, "~> 4.4"},\n      {:ecto_sql, "~> 3.10"},\n      {:postgrex, ">= 0.0.0"},\n      {:swoosh, "~> 1.5"},\n      {:bcrypt_elixir, "~> 3.0"}\n    ]\n  end\nend\n'
    s.commit(
        "phx.new shop + phx.gen.auth",
        {
            "mix.exs": mix,
            "config/config.exs": 'import Config\n\nconfig :shop, ecto_repos: [Shop.Repo]\nconfig :shop, Shop.Mailer, adapter: Swoosh.Adapters.Local\n\nimport_config "#{config_env()}.exs"\n',
            "config/dev.exs": dev,
            "lib/shop/accounts.ex": accounts,
            "lib/shop/accounts/user.ex": 'defmodule Shop.Accounts.User do\n  use Ecto.Schema\n  import Ecto.Changeset\n\n  schema "users" do\n    field :email, :string\n    field :password, :string, virtual: true, redact: true\n    field :hashed_password, :string, redact: true\n    field :confirmed_at, :naive_datetime\n    timestamps()\n  end\n\n  def registration_changeset(user, attrs) do\n    user\n    |> cast(attrs, [:email, :password])\n    |> validate_required([:email, :password])\n    |> unique_constraint(:email)\n  end\nend\n',
            "lib/shop/accounts/user_notifier.ex": notifier.replace(
                '{"Shop", "hello@shop.example"}', '{"Shop", "noreply@shop.example"}'
            ),
            "lib/shop/accounts/user_token.ex": tokens_ex,
            "lib/shop_web/controllers/user_registration_controller.ex": 'defmodule ShopWeb.UserRegistrationController do\n  use ShopWeb, :controller\n\n  alias Shop.Accounts\n\n  def create(conn, %{"user" => user_params}) do\n    case Accounts.register_user(user_params) do\n      {:ok, user} ->\n        {:ok, _} = Accounts.deliver_user_confirmation_instructions(user, &url(~p"/users/confirm/#{&1}"))\n        conn |> put_flash(:info, "User created successfully.") |> ShopWeb.UserAuth.log_in_user(user)\n\n      {:error, changeset} ->\n        render(conn, :new, changeset: changeset)\n    end\n  end\nend\n',
            "test/shop/accounts_test.exs": test,
            "test/support/fixtures/accounts_fixtures.ex": 'defmodule Shop.AccountsFixtures do\n  def unique_user_email, do: "user#{System.unique_integer()}@example.com"\n\n  def valid_user_attributes(attrs \\\\ %{}) do\n    Enum.into(attrs, %{email: unique_user_email(), password: "hello world!"})\n  end\n\n  def user_fixture(attrs \\\\ %{}) do\n    {:ok, user} = attrs |> valid_user_attributes() |> Shop.Accounts.register_user()\n    user\n  end\nend\n',
        },
        days_ago=80,
    )
    s.commit(
        "accounts: confirmation emails come from hello@",
        {"lib/shop/accounts/user_notifier.ex": notifier},
        days_ago=25,
    )
    s.intent(
        "Send a welcome email when someone signs up",
        {"lib/shop/accounts.ex": "register_user lives here"},
    )
    s.agent(
        {
            "lib/shop/accounts.ex": accounts.replace(
                "    %User{}\n    |> User.registration_changeset(attrs)\n    |> Repo.insert()\n",
                "    with {:ok, user} <- %User{} |> User.registration_changeset(attrs) |> Repo.insert() do\n      {:ok, _email} = UserNotifier.deliver_welcome(user)\n      {:ok, user}\n    end\n",
            ),
            "lib/shop/accounts/user_notifier.ex": notifier.replace(
                "  def deliver_confirmation_instructions(user, url) do",
                '  def deliver_welcome(user) do\n    deliver(user.email, "Welcome to Shop", """\n    Hi #{user.email},\n\n    Thanks for signing up! You can start browsing right away.\n    """)\n  end\n\n  def deliver_confirmation_instructions(user, url) do',
            ),
            "test/shop/accounts_test.exs": test.replace(
                "  use Shop.DataCase\n",
                "  use Shop.DataCase\n  import Swoosh.TestAssertions\n",
            ).replace(
                '    test "requires email to be unique" do',
                '    test "sends a welcome email" do\n      {:ok, user} = Accounts.register_user(valid_user_attributes())\n      assert_email_sent(to: user.email, subject: "Welcome to Shop")\n    end\n\n    test "requires email to be unique" do',
            ),
            "lib/shop/accounts/user_token.ex": tokens_ex.replace(
                "@confirm_validity_in_days 7", "@confirm_validity_in_days 30"
            ),
            "config/dev.exs": dev.replace("port: 4000", "port: 4001"),
            "mix.exs": mix.replace('{:swoosh, "~> 1.5"}', '{:swoosh, "~> 1.16"}'),
        }
    )
    s.fine(
        "lib/shop/accounts.ex", "lib/shop/accounts/user_notifier.ex", "test/shop/accounts_test.exs"
    )
    s.drift("lib/shop/accounts/user_token.ex", "config/dev.exs", "mix.exs")


FRESH3 = [
    Scenario(
        "fastapi_orders_pagination",
        fastapi_orders_pagination,
        False,
        "fresh 3: new schema module, sibling router, rename",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "nextjs_post_author_avatar",
        nextjs_post_author_avatar,
        False,
        "fresh 3: config entry far away, generated types, CI",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "android_dark_theme_switch",
        android_dark_theme_switch,
        False,
        "fresh 3: preference and string resource, sibling screen",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "rust_list_json_flag",
        rust_list_json_flag,
        False,
        "fresh 3: integration test far away, README, sibling command",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "aspnet_invoice_not_found",
        aspnet_invoice_not_found,
        False,
        "fresh 3: same fix copied to a sibling, bin/obj",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "laravel_users_csv_export",
        laravel_users_csv_export,
        False,
        "fresh 3: route, view and new test far away",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "terraform_prod_read_replica",
        terraform_prod_read_replica,
        False,
        "fresh 3: prod vs staging, docs page in and out, checkpoint",
        fresh=True,
        batch=3,
    ),
    Scenario(
        "phoenix_welcome_email",
        phoenix_welcome_email,
        False,
        "fresh 3: notifier in, token file beside it out",
        fresh=True,
        batch=3,
    ),
]
