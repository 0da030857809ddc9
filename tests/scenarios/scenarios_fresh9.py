"""Fresh batch 9: ten agent sessions written blind, on ecosystems no earlier batch had.

Nuxt, a Tauri desktop app (Rust + TypeScript), an Electron app, a Chrome extension
(manifest v3), Django with Celery beat, a Godot game, an R package, a Clojure service, an
AWS CDK stack and a LaTeX paper. Each is labelled as a careful reviewer would label it
reading the intent and the diff — not by what a rule could see — and the safe point is the
one that user would restore from. Where a label is debatable, the reviewer's reasoning is
in a comment beside it.
"""

from __future__ import annotations

import json
from typing import Any

from scenario_kit import CLASS, PNG, Scenario, Scene, lines


def _json(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


# -- 1. Nuxt 3 blog: a newsletter form in the footer --------------------------------------------


def _nuxt_package(extra: dict[str, str] | None = None) -> str:
    deps = {"nuxt": "^3.11.2", "vue": "^3.4.21", "vue-router": "^4.3.0", **(extra or {})}
    return _json(
        {
            "name": "field-notes",
            "private": True,
            "type": "module",
            "scripts": {
                "build": "nuxt build",
                "dev": "nuxt dev",
                "preview": "nuxt preview",
                "test": "vitest run",
            },
            "dependencies": dict(sorted(deps.items())),
            "devDependencies": {"@nuxt/test-utils": "^3.12.1", "vitest": "^1.5.0"},
        }
    )


def _nuxt_lock(extra: dict[str, str] | None = None) -> str:
    pkgs: dict[str, Any] = {
        "": {"name": "field-notes", "hasInstallScript": True},
        "node_modules/nuxt": {"version": "3.11.2", "license": "MIT"},
        "node_modules/vue": {"version": "3.4.21", "license": "MIT"},
        "node_modules/vue-router": {"version": "4.3.0", "license": "MIT"},
        "node_modules/vitest": {"version": "1.5.0", "dev": True, "license": "MIT"},
    }
    for name, version in (extra or {}).items():
        pkgs[f"node_modules/{name}"] = {"version": version, "license": "MIT"}
    return _json({"name": "field-notes", "lockfileVersion": 3, "requires": True, "packages": pkgs})


NUXT_HEADER_V1 = lines(
    '<script setup lang="ts">',
    "const config = useRuntimeConfig()",
    "</script>",
    "",
    "<template>",
    '  <header class="site-header">',
    '    <NuxtLink to="/" class="brand">{{ config.public.siteName }}</NuxtLink>',
    "    <nav>",
    '      <NuxtLink to="/">Articles</NuxtLink>',
    '      <NuxtLink to="/about">About</NuxtLink>',
    "    </nav>",
    "  </header>",
    "</template>",
)

NUXT_FOOTER_V1 = lines(
    '<script setup lang="ts">',
    "const year = new Date().getFullYear()",
    "</script>",
    "",
    "<template>",
    '  <footer class="site-footer">',
    '    <a href="https://social.example/@fieldnotes" rel="me">Mastodon</a>',
    '    <a href="/rss.xml">RSS</a>',
    "    <p>&copy; {{ year }} Field Notes</p>",
    "  </footer>",
    "</template>",
)

NUXT_USE_POSTS = lines(
    "export interface Post {",
    "  slug: string",
    "  title: string",
    "  date: string",
    "  minutes: number",
    "}",
    "",
    "export function usePosts() {",
    "  return useFetch<Post[]>('/api/posts', { default: () => [] })",
    "}",
    "",
    "export function usePost(slug: string) {",
    "  return useFetch<Post>(`/api/posts/${slug}`)",
    "}",
)

NUXT_INDEX = lines(
    '<script setup lang="ts">',
    "const { data: posts } = await usePosts()",
    "</script>",
    "",
    "<template>",
    "  <section>",
    '    <PostCard v-for="post in posts" :key="post.slug" :post="post" />',
    "  </section>",
    "</template>",
)

NUXT_ABOUT = lines(
    "<script setup lang='ts'>",
    "useHead({ title: 'About' })",
    "</script>",
    "",
    "<template>",
    "  <article class='prose'>",
    "    <h1>About</h1>",
    "    <p>Notes from the field: birds, moss and long walks.</p>",
    "  </article>",
    "</template>",
)


def nuxt_newsletter_footer(s: Scene) -> None:
    s.commit(
        "Field Notes: Nuxt 3 blog with posts, post page and about",
        {
            ".gitignore": lines("node_modules", ".nuxt", ".env", "*.log"),
            ".env.example": lines("NUXT_PUBLIC_SITE_NAME=Field Notes"),
            "README.md": lines("# Field Notes", "", "`npm run dev` to write, `npm test`."),
            "package.json": _nuxt_package(),
            "package-lock.json": _nuxt_lock(),
            "nuxt.config.ts": lines(
                "export default defineNuxtConfig({",
                "  devtools: { enabled: true },",
                "  css: ['~/assets/css/main.css'],",
                "  runtimeConfig: {",
                "    postsDir: 'content/posts',",
                "    public: { siteName: 'Field Notes' },",
                "  },",
                "})",
            ),
            "vitest.config.ts": lines(
                "import { defineVitestConfig } from '@nuxt/test-utils/config'",
                "export default defineVitestConfig({ test: { environment: 'nuxt' } })",
            ),
            "app.vue": lines(
                "<template>", "  <NuxtLayout><NuxtPage /></NuxtLayout>", "</template>"
            ),
            "layouts/default.vue": lines(
                "<template>",
                "  <BlogHeader />",
                "  <main><slot /></main>",
                "  <BlogFooter />",
                "</template>",
            ),
            "assets/css/main.css": lines(":root { --ink: #222; --paper: #fdfcf8; }"),
            "components/BlogHeader.vue": NUXT_HEADER_V1,
            "components/BlogFooter.vue": NUXT_FOOTER_V1,
            "components/PostCard.vue": lines(
                '<script setup lang="ts">',
                "import type { Post } from '~/composables/usePosts'",
                "defineProps<{ post: Post }>()",
                "</script>",
                "",
                "<template>",
                '  <NuxtLink :to="`/blog/${post.slug}`" class="card">{{ post.title }}</NuxtLink>',
                "</template>",
            ),
            "composables/usePosts.ts": NUXT_USE_POSTS,
            "pages/index.vue": NUXT_INDEX,
            "pages/about.vue": NUXT_ABOUT,
            "pages/blog/[slug].vue": lines(
                '<script setup lang="ts">',
                "const route = useRoute()",
                "const { data: post } = await usePost(String(route.params.slug))",
                "</script>",
                "",
                "<template>",
                '  <article v-if="post"><h1>{{ post.title }}</h1></article>',
                "</template>",
            ),
            "server/utils/posts.ts": lines(
                "import { readdir, readFile } from 'node:fs/promises'",
                "export async function listPosts(dir: string) {",
                "  const names = await readdir(dir)",
                "  return Promise.all(",
                "    names.map(async (n) => JSON.parse(await readFile(`${dir}/${n}`, 'utf8'))),",
                "  )",
                "}",
            ),
            "server/api/posts.get.ts": lines(
                "export default defineEventHandler(async (event) => {",
                "  const { postsDir } = useRuntimeConfig(event)",
                "  return listPosts(postsDir)",
                "})",
            ),
            "tests/posts.test.ts": lines(
                "import { $fetch, setup } from '@nuxt/test-utils/e2e'",
                "import { describe, expect, it } from 'vitest'",
                "",
                "describe('posts api', async () => {",
                "  await setup()",
                "  it('lists posts', async () => {",
                "    expect(Array.isArray(await $fetch('/api/posts'))).toBe(true)",
                "  })",
                "})",
            ),
        },
        days_ago=70,
    )
    # Header and footer were restyled together twice: history pairs them, the intent does not.
    s.commit(
        "Header and footer: dark mode colours",
        {
            "components/BlogHeader.vue": NUXT_HEADER_V1.replace(
                'class="site-header"', 'class="site-header dark:bg-ink"'
            ),
            "components/BlogFooter.vue": NUXT_FOOTER_V1.replace(
                'class="site-footer"', 'class="site-footer dark:bg-ink"'
            ),
            "assets/css/main.css": lines(
                ":root { --ink: #222; --paper: #fdfcf8; }",
                "@media (prefers-color-scheme: dark) { :root { --ink: #eee; --paper: #111; } }",
            ),
        },
        days_ago=45,
    )
    header = NUXT_HEADER_V1.replace('class="site-header"', 'class="site-header dark:bg-ink"')
    footer = NUXT_FOOTER_V1.replace('class="site-footer"', 'class="site-footer dark:bg-ink"')
    s.commit(
        "Header and footer: skip link and landmark labels",
        {
            "components/BlogHeader.vue": header.replace("<nav>", '<nav aria-label="Main">'),
            "components/BlogFooter.vue": footer.replace(
                '<footer class="site-footer dark:bg-ink">',
                '<footer class="site-footer dark:bg-ink" aria-label="Site">',
            ),
        },
        days_ago=21,
    )
    s.commit(
        "Post cards show reading time",
        {
            "components/PostCard.vue": lines(
                '<script setup lang="ts">',
                "import type { Post } from '~/composables/usePosts'",
                "defineProps<{ post: Post }>()",
                "</script>",
                "",
                "<template>",
                '  <NuxtLink :to="`/blog/${post.slug}`" class="card">',
                "    {{ post.title }} <small>{{ post.minutes }} min</small>",
                "  </NuxtLink>",
                "</template>",
            ),
        },
        days_ago=6,
    )
    s.intent(
        "Add a newsletter signup form to the blog footer that posts the email to our "
        "newsletter provider through a server route",
        {"components/BlogFooter.vue": "the footer gets the signup form"},
        hours_ago=2,
    )
    footer_now = (s.root / "components/BlogFooter.vue").read_text(encoding="utf-8")
    s.agent(
        {
            "components/BlogFooter.vue": footer_now.replace(
                "const year = new Date().getFullYear()",
                "const year = new Date().getFullYear()\n"
                "const email = ref('')\n"
                "const { status, subscribe } = useNewsletter()",
            ).replace(
                '    <a href="/rss.xml">RSS</a>\n',
                '    <a href="/rss.xml">RSS</a>\n'
                '    <form class="newsletter" @submit.prevent="subscribe(email)">\n'
                '      <input v-model="email" type="email" required\n'
                '             placeholder="you@example.org">\n'
                "      <button :disabled=\"status === 'sending'\">Subscribe</button>\n"
                "      <p v-if=\"status === 'done'\">Thanks! Check your inbox.</p>\n"
                "    </form>\n",
            ),
            "composables/useNewsletter.ts": lines(
                "export function useNewsletter() {",
                "  const status = ref<'idle' | 'sending' | 'done' | 'error'>('idle')",
                "  async function subscribe(email: string) {",
                "    status.value = 'sending'",
                "    try {",
                "      await $fetch('/api/subscribe', { method: 'POST', body: { email } })",
                "      status.value = 'done'",
                "    } catch {",
                "      status.value = 'error'",
                "    }",
                "  }",
                "  return { status, subscribe }",
                "}",
            ),
            "server/api/subscribe.post.ts": lines(
                "import { z } from 'zod'",
                "",
                "const Body = z.object({ email: z.string().email() })",
                "",
                "export default defineEventHandler(async (event) => {",
                "  const { newsletterApiKey, newsletterListId } = useRuntimeConfig(event)",
                "  const body = Body.safeParse(await readBody(event))",
                "  if (!body.success) {",
                "    throw createError({ statusCode: 422, statusMessage: 'Invalid email' })",
                "  }",
                "  await $fetch('https://api.buttondown.email/v1/subscribers', {",
                "    method: 'POST',",
                "    headers: { Authorization: `Token ${newsletterApiKey}` },",
                "    body: { email_address: body.data.email, tags: [newsletterListId] },",
                "  })",
                "  return { ok: true }",
                "})",
            ),
            "tests/subscribe.test.ts": lines(
                "import { $fetch, setup } from '@nuxt/test-utils/e2e'",
                "import { describe, expect, it } from 'vitest'",
                "",
                "describe('subscribe api', async () => {",
                "  await setup()",
                "  it('rejects a malformed email', async () => {",
                "    await expect(",
                "      $fetch('/api/subscribe', { method: 'POST', body: { email: 'nope' } }),",
                "    ).rejects.toThrow(/422/)",
                "  })",
                "})",
            ),
            "nuxt.config.ts": lines(
                "export default defineNuxtConfig({",
                "  devtools: { enabled: true },",
                "  css: ['~/assets/css/main.css'],",
                "  runtimeConfig: {",
                "    postsDir: 'content/posts',",
                "    newsletterApiKey: '',",
                "    newsletterListId: 'field-notes',",
                "    public: { siteName: 'Field Notes' },",
                "  },",
                "})",
            ),
            ".env.example": lines(
                "NUXT_PUBLIC_SITE_NAME=Field Notes",
                "NUXT_NEWSLETTER_API_KEY=",
                "NUXT_NEWSLETTER_LIST_ID=field-notes",
            ),
            "package.json": _nuxt_package({"zod": "^3.23.8"}),
            "package-lock.json": _nuxt_lock({"zod": "3.23.8"}),
            # Drift: the sibling header's nav retitled, "while I was in the layout".
            "components/BlogHeader.vue": (s.root / "components/BlogHeader.vue")
            .read_text(encoding="utf-8")
            .replace(">Articles<", ">Writing<")
            .replace(">About<", ">About me<"),
            # Drift: prettier run over a page nobody touched (quotes only).
            "pages/about.vue": NUXT_ABOUT.replace("'", '"'),
            "pages/index.vue": NUXT_INDEX.replace("usePosts()", "useBlogPosts()"),
            # Build output: .output/ is not in this project's .gitignore (only .nuxt is).
            ".output/nitro.json": _json(
                {"date": "2026-11-26T09:12:44.120Z", "preset": "node-server", "framework": {}}
            ),
            ".output/server/index.mjs": lines(
                "globalThis._importMeta_={url:import.meta.url,env:process.env};",
                "import 'node:http';import 'node:https';",
                "export { n as default } from './chunks/nitro.mjs';",
            ),
            ".output/server/chunks/routes/api/subscribe.post.mjs": lines(
                "import { z } from 'zod';const Body=z.object({email:z.string().email()});",
                "export { subscribe_post as default };",
            ),
            ".output/public/_nuxt/entry.B3k9xQ1a.js": lines(
                'const e="/api/subscribe";export{e as a};',
                "//# sourceMappingURL=entry.B3k9xQ1a.js.map",
            ),
        },
        # Drift: an unrequested rename of the posts composable (with its one call site).
        rename={"composables/usePosts.ts": "composables/useBlogPosts.ts"},
    )
    card = (s.root / "components/PostCard.vue").read_text(encoding="utf-8")
    s.agent(
        {
            "composables/useBlogPosts.ts": NUXT_USE_POSTS.replace(
                "export function usePosts()", "export function useBlogPosts()"
            ),
            "components/PostCard.vue": card.replace(
                "~/composables/usePosts'", "~/composables/useBlogPosts'"
            ),
        }
    )
    s.fine(
        "components/BlogFooter.vue",
        "composables/useNewsletter.ts",
        "server/api/subscribe.post.ts",
        "tests/subscribe.test.ts",
        "nuxt.config.ts",  # the two runtime keys the new server route reads
        ".env.example",  # documents those keys; a reviewer keeps it
        "package.json",  # zod, imported by the new route
        "package-lock.json",  # follows the in-scope dependency
    )
    s.drift(
        "components/BlogHeader.vue",
        "pages/about.vue",
        "composables/usePosts.ts",
        "composables/useBlogPosts.ts",
        "pages/index.vue",  # only the renamed composable's call site: part of that drift
        "components/PostCard.vue",  # its type import follows the rename: same drift
    )
    s.excluded(
        ".output/nitro.json",
        ".output/server/index.mjs",
        ".output/server/chunks/routes/api/subscribe.post.mjs",
        ".output/public/_nuxt/entry.B3k9xQ1a.js",
    )
    s.safe_commit()  # no checkpoint was ever taken
    s.note = "Nuxt: header/footer co-change trap, rename drift, untracked .output/"


# -- 2. Tauri v2 notes app: export a note as HTML (Rust command + toolbar button) ---------------


TAURI_LIB_V1 = lines(
    "mod commands;",
    "",
    "#[cfg_attr(mobile, tauri::mobile_entry_point)]",
    "pub fn run() {",
    "    tauri::Builder::default()",
    "        .plugin(tauri_plugin_fs::init())",
    "        .invoke_handler(tauri::generate_handler![",
    "            commands::notes::list_notes,",
    "            commands::notes::read_note,",
    "            commands::notes::save_note,",
    "            commands::settings::get_settings,",
    "            commands::settings::set_settings,",
    "        ])",
    "        .run(tauri::generate_context!())",
    '        .expect("error while running tauri application");',
    "}",
)

TAURI_CARGO_V1 = lines(
    "[package]",
    'name = "quill-notes"',
    'version = "0.4.2"',
    'edition = "2021"',
    "",
    "[lib]",
    'name = "quill_notes_lib"',
    'crate-type = ["staticlib", "cdylib", "rlib"]',
    "",
    "[build-dependencies]",
    'tauri-build = { version = "2", features = [] }',
    "",
    "[dependencies]",
    'tauri = { version = "2", features = [] }',
    'tauri-plugin-fs = "2"',
    'pulldown-cmark = "0.10"',
    'serde = { version = "1", features = ["derive"] }',
    'serde_json = "1"',
)


def _cargo_lock(extra: tuple[str, ...] = ()) -> str:
    pkgs = ["pulldown-cmark 0.10.3", "serde 1.0.203", "serde_json 1.0.117", "tauri 2.0.1"]
    pkgs += ["tauri-plugin-fs 2.0.1", *extra]
    out = [
        "# This file is automatically @generated by Cargo.",
        "# It is not intended for manual editing.",
        "version = 3",
    ]
    for p in sorted(pkgs):
        name, version = p.split()
        out += ["", "[[package]]", f'name = "{name}"', f'version = "{version}"']
    return lines(*out)


def _tauri_caps(perms: list[str]) -> str:
    return _json(
        {
            "$schema": "../gen/schemas/desktop-schema.json",
            "identifier": "default",
            "description": "Capability for the main window",
            "windows": ["main"],
            "permissions": perms,
        }
    )


TAURI_PERMS = ["core:default", "fs:allow-app-read", "fs:allow-app-write"]

TAURI_TOOLBAR_V1 = lines(
    "import { saveNote } from '../lib/ipc'",
    "",
    "export function NoteToolbar({ id, body }: { id: string; body: string }) {",
    "  return (",
    '    <div className="toolbar">',
    "      <button onClick={() => saveNote(id, body)}>Save</button>",
    "    </div>",
    "  )",
    "}",
)

TAURI_IPC_V1 = lines(
    "import { invoke } from '@tauri-apps/api/core'",
    "",
    "export const listNotes = () => invoke<string[]>('list_notes')",
    "export const readNote = (id: string) => invoke<string>('read_note', { id })",
    "export const saveNote = (id: string, body: string) => invoke('save_note', { id, body })",
    "export const getSettings = () => invoke<Record<string, unknown>>('get_settings')",
)

TAURI_SETTINGS_RS = lines(
    "use std::fs;",
    "use tauri::Manager;",
    "",
    "#[tauri::command]",
    "pub fn get_settings(app: tauri::AppHandle) -> serde_json::Value {",
    '    let path = app.path().app_config_dir().unwrap().join("settings.json");',
    '    let text = fs::read_to_string(path).unwrap_or_else(|_| "{}".into());',
    "    serde_json::from_str(&text).unwrap()",
    "}",
    "",
    "#[tauri::command]",
    "pub fn set_settings(app: tauri::AppHandle, value: serde_json::Value) {",
    '    let path = app.path().app_config_dir().unwrap().join("settings.json");',
    "    fs::write(path, value.to_string()).unwrap();",
    "}",
)

TAURI_SIDEBAR = lines(
    "import { useEffect, useState } from 'react'",
    "import { listNotes } from '../lib/ipc'",
    "",
    "export function Sidebar({ onOpen }: { onOpen: (id: string) => void }) {",
    "  const [notes, setNotes] = useState<string[]>([])",
    "  useEffect(() => { listNotes().then(setNotes) }, [])",
    "  return (",
    "    <aside>",
    "      <h2>Notes</h2>",
    "      {notes.sort().map((n) => <button key={n} onClick={() => onOpen(n)}>{n}</button>)}",
    "    </aside>",
    "  )",
    "}",
)

TAURI_CONF = {
    "$schema": "https://schema.tauri.app/config/2",
    "productName": "Quill Notes",
    "version": "0.4.2",
    "identifier": "org.quill.notes",
    "build": {"frontendDist": "../dist", "devUrl": "http://localhost:1420"},
    "app": {"windows": [{"title": "Quill Notes", "width": 1000, "height": 700}]},
    "bundle": {"active": True, "targets": "all", "icon": ["icons/icon.png"]},
}


def _tauri_pkg(extra: dict[str, str] | None = None) -> str:
    deps = {
        "@tauri-apps/api": "^2.0.1",
        "@tauri-apps/plugin-fs": "^2.0.0",
        "react": "^18.3.1",
        "react-dom": "^18.3.1",
        **(extra or {}),
    }
    return _json(
        {
            "name": "quill-notes",
            "version": "0.4.2",
            "private": True,
            "scripts": {"dev": "vite", "build": "tsc && vite build", "tauri": "tauri"},
            "dependencies": dict(sorted(deps.items())),
            "devDependencies": {"@tauri-apps/cli": "^2.0.1", "vite": "^5.4.0"},
        }
    )


def _pnpm_lock(extra: tuple[str, ...] = ()) -> str:
    names = ["@tauri-apps/api@2.0.1", "@tauri-apps/plugin-fs@2.0.0", "react@18.3.1", *extra]
    out = ["lockfileVersion: '9.0'", "", "packages:", ""]
    for n in sorted(names):
        out += [f"  '{n}':", "    resolution: {integrity: sha512-AAAA}", ""]
    return lines(*out)


def tauri_export_note(s: Scene) -> None:
    s.commit(
        "Quill Notes: Tauri 2 + React markdown notes",
        {
            ".gitignore": lines("node_modules", "dist", "*.local"),
            "package.json": _tauri_pkg(),
            "pnpm-lock.yaml": _pnpm_lock(),
            "index.html": lines('<div id="root"></div><script type="module" src="/src/main.tsx">'),
            "vite.config.ts": lines(
                "import react from '@vitejs/plugin-react'",
                "export default { plugins: [react()], server: { port: 1420, strictPort: true } }",
            ),
            "src/main.tsx": lines(
                "import { createRoot } from 'react-dom/client'",
                "import { App } from './App'",
                "createRoot(document.getElementById('root')!).render(<App />)",
            ),
            "src/App.tsx": lines(
                "import { useState } from 'react'",
                "import { NoteEditor } from './components/NoteEditor'",
                "import { Sidebar } from './components/Sidebar'",
                "",
                "export function App() {",
                "  const [open, setOpen] = useState<string | null>(null)",
                "  return (",
                "    <main><Sidebar onOpen={setOpen} />{open && <NoteEditor id={open} />}</main>",
                "  )",
                "}",
            ),
            "src/components/NoteEditor.tsx": lines(
                "import { useEffect, useState } from 'react'",
                "import { readNote } from '../lib/ipc'",
                "import { NoteToolbar } from './NoteToolbar'",
                "",
                "export function NoteEditor({ id }: { id: string }) {",
                "  const [body, setBody] = useState('')",
                "  useEffect(() => { readNote(id).then(setBody) }, [id])",
                "  return (",
                "    <section>",
                "      <NoteToolbar id={id} body={body} />",
                "      <textarea value={body} onChange={(e) => setBody(e.target.value)} />",
                "    </section>",
                "  )",
                "}",
            ),
            "src/components/NoteToolbar.tsx": TAURI_TOOLBAR_V1,
            "src/components/Sidebar.tsx": TAURI_SIDEBAR,
            "src/lib/ipc.ts": TAURI_IPC_V1,
            "src/styles.css": lines(".toolbar { display: flex; gap: 4px; }"),
            "src-tauri/.gitignore": lines("# Generated by Cargo", "/target/"),
            "src-tauri/Cargo.toml": TAURI_CARGO_V1,
            "src-tauri/Cargo.lock": _cargo_lock(),
            "src-tauri/build.rs": lines("fn main() {", "    tauri_build::build()", "}"),
            "src-tauri/tauri.conf.json": _json(TAURI_CONF),
            "src-tauri/capabilities/default.json": _tauri_caps(TAURI_PERMS),
            "src-tauri/gen/schemas/capabilities.json": _json(
                {"default": {"identifier": "default", "permissions": TAURI_PERMS}}
            ),
            "src-tauri/gen/schemas/acl-manifests.json": _json(
                {"core": {"default_permission": {}}, "fs": {"default_permission": {}}}
            ),
            "src-tauri/gen/schemas/desktop-schema.json": _json(
                {"$schema": "http://json-schema.org/draft-07/schema#", "title": "CapabilityFile"}
            ),
            "src-tauri/icons/icon.png": PNG,
            "src-tauri/src/main.rs": lines(
                '#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]',
                "",
                "fn main() {",
                "    quill_notes_lib::run()",
                "}",
            ),
            "src-tauri/src/lib.rs": TAURI_LIB_V1,
            "src-tauri/src/commands/mod.rs": lines("pub mod notes;", "pub mod settings;"),
            "src-tauri/src/commands/notes.rs": lines(
                "use std::fs;",
                "use tauri::Manager;",
                "",
                "fn notes_dir(app: &tauri::AppHandle) -> std::path::PathBuf {",
                '    app.path().app_data_dir().unwrap().join("notes")',
                "}",
                "",
                "#[tauri::command]",
                "pub fn list_notes(app: tauri::AppHandle) -> Vec<String> {",
                "    fs::read_dir(notes_dir(&app)).map(|d| d.filter_map(|e| e.ok())",
                "        .map(|e| e.file_name().to_string_lossy().into_owned()).collect())",
                "        .unwrap_or_default()",
                "}",
                "",
                "#[tauri::command]",
                "pub fn read_note(app: tauri::AppHandle, id: String) -> String {",
                "    fs::read_to_string(notes_dir(&app).join(id)).unwrap_or_default()",
                "}",
                "",
                "#[tauri::command]",
                "pub fn save_note(app: tauri::AppHandle, id: String, body: String) {",
                "    fs::write(notes_dir(&app).join(id), body).unwrap();",
                "}",
            ),
            "src-tauri/src/commands/settings.rs": TAURI_SETTINGS_RS,
        },
        days_ago=90,
    )
    s.commit(
        "Settings: persist theme",
        {
            "src-tauri/src/commands/settings.rs": TAURI_SETTINGS_RS + lines("// theme lives here"),
            "src/lib/ipc.ts": TAURI_IPC_V1
            + lines(
                "export const setSettings = (value: object) => invoke('set_settings', { value })"
            ),
        },
        days_ago=30,
    )
    s.commit(
        "Toolbar: save shortcut hint",
        {
            "src/components/NoteToolbar.tsx": TAURI_TOOLBAR_V1.replace(
                ">Save</button>", ' title="Ctrl+S">Save</button>'
            ),
        },
        days_ago=12,
    )
    s.intent(
        "Export the open note as a standalone HTML file: a Rust command renders the markdown "
        "and asks where to save, and an Export button in the note toolbar calls it",
        {
            "src/components/NoteToolbar.tsx": "the Export button",
            "src-tauri/src/lib.rs": "registers the new command",
        },
        hours_ago=1,
    )
    # The user sketched the button themselves before handing over, then took a checkpoint:
    # restoring from the commit would throw that sketch away.
    toolbar = (s.root / "src/components/NoteToolbar.tsx").read_text(encoding="utf-8")
    toolbar_wip = toolbar.replace(
        ">Save</button>\n", ">Save</button>\n      <button disabled>Export…</button>\n"
    )
    s.agent({"src/components/NoteToolbar.tsx": toolbar_wip})
    before = s.checkpoint("before export: my toolbar sketch")
    perms = [*TAURI_PERMS, "dialog:allow-save"]
    conf = {**TAURI_CONF, "version": "0.5.0"}
    s.agent(
        {
            "src/components/NoteToolbar.tsx": lines(
                "import { exportNoteHtml, saveNote } from '../lib/ipc'",
                "",
                "export function NoteToolbar({ id, body }: { id: string; body: string }) {",
                "  return (",
                '    <div className="toolbar">',
                '      <button onClick={() => saveNote(id, body)} title="Ctrl+S">Save</button>',
                "      <button onClick={() => exportNoteHtml(id, body)}>Export…</button>",
                "    </div>",
                "  )",
                "}",
            ),
            "src/lib/ipc.ts": (s.root / "src/lib/ipc.ts").read_text(encoding="utf-8")
            + lines(
                "export const exportNoteHtml = (id: string, body: string) =>",
                "  invoke<string | null>('export_note_html', { id, body })",
            ),
            "src-tauri/src/lib.rs": TAURI_LIB_V1.replace(
                "        .plugin(tauri_plugin_fs::init())\n",
                "        .plugin(tauri_plugin_fs::init())\n"
                "        .plugin(tauri_plugin_dialog::init())\n",
            ).replace(
                "            commands::settings::get_settings,\n",
                "            commands::export::export_note_html,\n"
                "            commands::settings::get_settings,\n",
            ),
            "src-tauri/src/commands/mod.rs": lines(
                "pub mod export;", "pub mod notes;", "pub mod settings;"
            ),
            "src-tauri/src/commands/export.rs": lines(
                "use pulldown_cmark::{html, Parser};",
                "use tauri_plugin_dialog::DialogExt;",
                "",
                "#[tauri::command]",
                "pub async fn export_note_html(",
                "    app: tauri::AppHandle,",
                "    id: String,",
                "    body: String,",
                ") -> Result<Option<String>, String> {",
                "    let mut out = String::new();",
                "    html::push_html(&mut out, Parser::new(&body));",
                "    let Some(path) = app.dialog().file()",
                '        .set_file_name(format!("{id}.html")).blocking_save_file() else {',
                "        return Ok(None);",
                "    };",
                "    let path = path.into_path().map_err(|e| e.to_string())?;",
                "    std::fs::write(&path, out).map_err(|e| e.to_string())?;",
                "    Ok(Some(path.display().to_string()))",
                "}",
            ),
            "src-tauri/Cargo.toml": TAURI_CARGO_V1.replace(
                'tauri-plugin-fs = "2"\n', 'tauri-plugin-fs = "2"\ntauri-plugin-dialog = "2"\n'
            ),
            "src-tauri/Cargo.lock": _cargo_lock(("tauri-plugin-dialog 2.0.1", "rfd 0.14.1")),
            "src-tauri/capabilities/default.json": _tauri_caps(perms),
            "package.json": _tauri_pkg({"@tauri-apps/plugin-dialog": "^2.0.0"}),
            "pnpm-lock.yaml": _pnpm_lock(("@tauri-apps/plugin-dialog@2.0.0",)),
            # Regenerated by the Tauri CLI from the capabilities and plugins on `tauri dev`.
            "src-tauri/gen/schemas/capabilities.json": _json(
                {"default": {"identifier": "default", "permissions": perms}}
            ),
            "src-tauri/gen/schemas/acl-manifests.json": _json(
                {
                    "core": {"default_permission": {}},
                    "dialog": {"default_permission": {}},
                    "fs": {"default_permission": {}},
                }
            ),
            # Drift: a version bump nobody asked for.
            "src-tauri/tauri.conf.json": _json(conf),
            # Drift: the sibling sidebar retitled and re-sorted.
            "src/components/Sidebar.tsx": TAURI_SIDEBAR.replace(
                "<h2>Notes</h2>", "<h2>All notes</h2>"
            ).replace("notes.sort()", "[...notes].reverse()"),
            # Drift: unwrap() swept out of a command file the feature does not use.
            "src-tauri/src/commands/settings.rs": lines(
                "use std::fs;",
                "use tauri::Manager;",
                "",
                "fn settings_path(app: &tauri::AppHandle) -> Result<std::path::PathBuf, String> {",
                '    app.path().app_config_dir().map(|d| d.join("settings.json"))',
                "        .map_err(|e| e.to_string())",
                "}",
                "",
                "#[tauri::command]",
                "pub fn get_settings(app: tauri::AppHandle) -> Result<serde_json::Value, String> {",
                '    let text = fs::read_to_string(settings_path(&app)?).unwrap_or("{}".into());',
                "    serde_json::from_str(&text).map_err(|e| e.to_string())",
                "}",
                "",
                "#[tauri::command]",
                "pub fn set_settings(",
                "    app: tauri::AppHandle,",
                "    value: serde_json::Value,",
                ") -> Result<(), String> {",
                "    fs::write(settings_path(&app)?, value.to_string()).map_err(|e| e.to_string())",
                "}",
                "// theme lives here",
            ),
        }
    )
    s.fine(
        "src/components/NoteToolbar.tsx",
        "src/lib/ipc.ts",
        "src-tauri/src/lib.rs",
        "src-tauri/src/commands/mod.rs",
        "src-tauri/src/commands/export.rs",
        "src-tauri/Cargo.toml",  # the dialog plugin the command uses
        "src-tauri/Cargo.lock",
        "src-tauri/capabilities/default.json",  # the save dialog's permission
        "package.json",
        "pnpm-lock.yaml",
    )
    s.drift(
        "src-tauri/tauri.conf.json",
        "src/components/Sidebar.tsx",
        "src-tauri/src/commands/settings.rs",
    )
    # Tauri writes gen/schemas from capabilities and plugins; this project (made with a
    # beta template) tracks them, so they show up as modified.
    s.excluded(
        "src-tauri/gen/schemas/capabilities.json", "src-tauri/gen/schemas/acl-manifests.json"
    )
    s.safe_checkpoint(before)  # holds the user's own toolbar sketch
    s.note = "Tauri: Rust + TS + capabilities, tracked gen/schemas, user WIP before checkpoint"


# -- 3. Electron (electron-vite) podcast player: auto-update --------------------------------------


ELECTRON_MAIN_V1 = lines(
    "import { app, BrowserWindow } from 'electron'",
    "import { registerIpc } from './ipc'",
    "import { buildMenu } from './menu'",
    "import { createWindow } from './window'",
    "",
    "app.whenReady().then(() => {",
    "  registerIpc()",
    "  buildMenu()",
    "  createWindow()",
    "  app.on('activate', () => {",
    "    if (BrowserWindow.getAllWindows().length === 0) createWindow()",
    "  })",
    "})",
    "",
    "app.on('window-all-closed', () => {",
    "  if (process.platform !== 'darwin') app.quit()",
    "})",
)

ELECTRON_PRELOAD_V1 = lines(
    "import { contextBridge, ipcRenderer } from 'electron'",
    "",
    "contextBridge.exposeInMainWorld('podwave', {",
    "  listEpisodes: (feed: string) => ipcRenderer.invoke('episodes:list', feed),",
    "  savePosition: (id: string, s: number) => ipcRenderer.invoke('position:save', id, s),",
    "})",
)

ELECTRON_PRELOAD_DTS_V1 = lines(
    "export interface PodwaveApi {",
    "  listEpisodes(feed: string): Promise<Episode[]>",
    "  savePosition(id: string, seconds: number): Promise<void>",
    "}",
    "declare global { interface Window { podwave: PodwaveApi } }",
)

ELECTRON_MENU = lines(
    "import { Menu } from 'electron'",
    "",
    "export function buildMenu() {",
    "  Menu.setApplicationMenu(Menu.buildFromTemplate([",
    "    { role: 'fileMenu' },",
    "    { label: 'Playback', submenu: [",
    "      { label: 'Play/Pause', accelerator: 'Space',",
    "        click: (_, w) => w?.webContents.send('toggle') },",
    "      { label: 'Skip 30s', accelerator: 'Right',",
    "        click: (_, w) => w?.webContents.send('skip', 30) },",
    "    ] },",
    "    { label: 'View', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }] },",
    "  ]))",
    "}",
)

ELECTRON_PLAYLIST = lines(
    "import type { Episode } from '../types'",
    "",
    "type Props = { items: Episode[]; onPick: (e: Episode) => void }",
    "export function Playlist({ items, onPick }: Props) {",
    "  return <ol className='playlist'>{items.map(e =>",
    "    <li key={e.id} onClick={() => onPick(e)}>{e.title}</li>)}</ol>",
    "}",
)

ELECTRON_APP_V1 = lines(
    "import { useEffect, useState } from 'react'",
    "import { Player } from './components/Player'",
    "import { Playlist } from './components/Playlist'",
    "import type { Episode } from './types'",
    "",
    "export function App() {",
    "  const [items, setItems] = useState<Episode[]>([])",
    "  const [current, setCurrent] = useState<Episode | null>(null)",
    "  useEffect(() => { window.podwave.listEpisodes('default').then(setItems) }, [])",
    "  return (",
    "    <>",
    "      <Playlist items={items} onPick={setCurrent} />",
    "      {current && <Player episode={current} />}",
    "    </>",
    "  )",
    "}",
)


def _electron_pkg(extra: dict[str, str] | None = None) -> str:
    deps = {"@electron-toolkit/utils": "^3.0.0", "electron-store": "^8.2.0", **(extra or {})}
    return _json(
        {
            "name": "podwave",
            "version": "1.3.0",
            "main": "./out/main/index.js",
            "scripts": {
                "dev": "electron-vite dev",
                "build": "electron-vite build",
                "dist": "electron-vite build && electron-builder",
                "test": "vitest run",
            },
            "dependencies": dict(sorted(deps.items())),
            "devDependencies": {
                "electron": "^31.2.0",
                "electron-builder": "^24.13.3",
                "electron-vite": "^2.3.0",
                "vitest": "^1.6.0",
            },
        }
    )


def _electron_lock(extra: dict[str, str] | None = None) -> str:
    pkgs: dict[str, Any] = {
        "": {"name": "podwave", "version": "1.3.0"},
        "node_modules/electron": {"version": "31.2.0", "dev": True},
        "node_modules/electron-store": {"version": "8.2.0"},
    }
    for name, version in (extra or {}).items():
        pkgs[f"node_modules/{name}"] = {"version": version}
    return _json({"name": "podwave", "lockfileVersion": 3, "packages": pkgs})


def electron_auto_update(s: Scene) -> None:
    s.commit(
        "Podwave: Electron podcast player (webpack)",
        {
            ".gitignore": lines("node_modules", "dist", "*.log"),
            "package.json": _electron_pkg(),
            "package-lock.json": _electron_lock(),
            "electron-builder.yml": lines(
                "appId: org.podwave.app",
                "productName: Podwave",
                "directories:",
                "  buildResources: resources",
                "linux:",
                "  target: AppImage",
                "mac:",
                "  target: dmg",
            ),
            "resources/icon.png": PNG,
            "src/main/index.ts": ELECTRON_MAIN_V1,
            "src/main/menu.ts": ELECTRON_MENU,
            "src/main/window.ts": lines(
                "import { BrowserWindow } from 'electron'",
                "import { join } from 'node:path'",
                "",
                "export function createWindow() {",
                "  const win = new BrowserWindow({",
                "    width: 960, height: 640,",
                "    webPreferences: { preload: join(__dirname, '../preload/index.js') },",
                "  })",
                "  win.loadFile(join(__dirname, '../renderer/index.html'))",
                "  return win",
                "}",
            ),
            "src/main/ipc.ts": lines(
                "import { ipcMain } from 'electron'",
                "import { fetchEpisodes } from './feeds'",
                "import { store } from './store'",
                "",
                "export function registerIpc() {",
                "  ipcMain.handle('episodes:list', (_e, feed: string) => fetchEpisodes(feed))",
                "  ipcMain.handle('position:save', (_e, id: string, s: number) =>",
                "    store.set(`positions.${id}`, s))",
                "}",
            ),
            "src/main/feeds.ts": lines(
                "export async function fetchEpisodes(feed: string) {",
                "  const res = await fetch(feed)",
                "  return parseRss(await res.text())",
                "}",
                "function parseRss(xml: string) { return xml ? [] : [] }",
            ),
            "src/main/store.ts": lines(
                "import Store from 'electron-store'",
                "export const store = new Store({ name: 'podwave' })",
            ),
            "src/preload/index.ts": ELECTRON_PRELOAD_V1,
            "src/preload/index.d.ts": ELECTRON_PRELOAD_DTS_V1,
            "src/renderer/index.html": lines('<div id="root"></div>'),
            "src/renderer/src/main.tsx": lines(
                "import { createRoot } from 'react-dom/client'",
                "import './assets/main.css'",
                "import { App } from './App'",
                "createRoot(document.getElementById('root')!).render(<App />)",
            ),
            "src/renderer/src/App.tsx": ELECTRON_APP_V1,
            "src/renderer/src/types.ts": lines(
                "export interface Episode { id: string; title: string; url: string }"
            ),
            "src/renderer/src/components/Player.tsx": lines(
                "import type { Episode } from '../types'",
                "export function Player({ episode }: { episode: Episode }) {",
                "  return <audio controls src={episode.url} />",
                "}",
            ),
            "src/renderer/src/components/Playlist.tsx": ELECTRON_PLAYLIST,
            "src/renderer/src/assets/main.css": lines(
                ":root { --accent: #ff5a36; --bg: #14161a; }",
                ".playlist li { cursor: pointer; }",
            ),
            "tests/main/store.test.ts": lines(
                "import { describe, expect, it } from 'vitest'",
                "describe('store', () => {",
                "  it('has a name', () => { expect('podwave').toBeTruthy() })",
                "})",
            ),
        },
        days_ago=120,
    )
    s.commit(
        "Move the build to electron-vite",
        {
            "electron.vite.config.ts": lines(
                "import react from '@vitejs/plugin-react'",
                "import { defineConfig } from 'electron-vite'",
                "export default defineConfig({",
                "  main: {}, preload: {}, renderer: { plugins: [react()] },",
                "})",
            ),
            "package.json": _electron_pkg(),
        },
        days_ago=40,
    )
    s.commit(
        "Remember playback position per episode",
        {
            "src/preload/index.ts": ELECTRON_PRELOAD_V1.replace(
                "ipcRenderer.invoke('position:save', id, s),",
                "ipcRenderer.invoke('position:save', id, s),\n"
                "  position: (id: string) => ipcRenderer.invoke('position:get', id),",
            ),
            "src/preload/index.d.ts": ELECTRON_PRELOAD_DTS_V1.replace(
                "savePosition(id: string, seconds: number): Promise<void>",
                "savePosition(id: string, seconds: number): Promise<void>\n"
                "  position(id: string): Promise<number>",
            ),
            "src/main/index.ts": ELECTRON_MAIN_V1,
        },
        days_ago=9,
    )
    s.intent(
        "Add auto-update with electron-updater: check GitHub releases on launch and show a "
        "'Restart to update' banner once an update has downloaded",
        {
            "src/main/index.ts": "starts the update check",
            "src/preload/index.ts": "bridges the update-ready event to the renderer",
        },
        hours_ago=3,
    )
    preload = (s.root / "src/preload/index.ts").read_text(encoding="utf-8")
    dts = (s.root / "src/preload/index.d.ts").read_text(encoding="utf-8")
    # First turn: the main-process side, all in scope.
    s.agent(
        {
            "src/main/updater.ts": lines(
                "import { BrowserWindow, ipcMain } from 'electron'",
                "import log from 'electron-log/main'",
                "import { autoUpdater } from 'electron-updater'",
                "",
                "export function startUpdater(win: BrowserWindow) {",
                "  autoUpdater.logger = log",
                "  autoUpdater.on('update-downloaded', (info) => {",
                "    win.webContents.send('update:ready', info.version)",
                "  })",
                "  ipcMain.handle('update:install', () => autoUpdater.quitAndInstall())",
                "  autoUpdater.checkForUpdatesAndNotify()",
                "}",
            ),
            "src/main/index.ts": ELECTRON_MAIN_V1.replace(
                "import { createWindow } from './window'\n",
                "import { startUpdater } from './updater'\n"
                "import { createWindow } from './window'\n",
            ).replace(
                "  createWindow()\n  app.on",
                "  const win = createWindow()\n  if (app.isPackaged) startUpdater(win)\n  app.on",
            ),
            "src/preload/index.ts": preload.replace(
                "})\n",
                "  onUpdateReady: (cb: (version: string) => void) =>\n"
                "    ipcRenderer.on('update:ready', (_e, v: string) => cb(v)),\n"
                "  installUpdate: () => ipcRenderer.invoke('update:install'),\n"
                "})\n",
            ),
            "src/preload/index.d.ts": dts.replace(
                "  position(id: string): Promise<number>\n",
                "  position(id: string): Promise<number>\n"
                "  onUpdateReady(cb: (version: string) => void): void\n"
                "  installUpdate(): Promise<void>\n",
            ),
            "package.json": _electron_pkg({"electron-log": "^5.1.5", "electron-updater": "^6.2.1"}),
            "package-lock.json": _electron_lock(
                {
                    "electron-log": "5.1.5",
                    "electron-updater": "6.2.1",
                    "builder-util-runtime": "9.2.4",
                }
            ),
            "electron-builder.yml": lines(
                "appId: org.podwave.app",
                "productName: Podwave",
                "directories:",
                "  buildResources: resources",
                "publish:",
                "  provider: github",
                "  owner: podwave",
                "  repo: podwave",
                "linux:",
                "  target: AppImage",
                "mac:",
                "  target: dmg",
            ),
        }
    )
    mid = s.checkpoint("updater wired in main and preload")
    # Second turn: the banner (in scope) and two things nobody asked for.
    s.agent(
        {
            "src/renderer/src/components/UpdateBanner.tsx": lines(
                "import { useEffect, useState } from 'react'",
                "import './UpdateBanner.css'",
                "",
                "export function UpdateBanner() {",
                "  const [version, setVersion] = useState<string | null>(null)",
                "  useEffect(() => window.podwave.onUpdateReady(setVersion), [])",
                "  if (!version) return null",
                "  return (",
                "    <div className='update-banner' role='status'>",
                "      Podwave {version} is ready.",
                "      <button onClick={() => window.podwave.installUpdate()}>",
                "        Restart to update",
                "      </button>",
                "    </div>",
                "  )",
                "}",
            ),
            "src/renderer/src/components/UpdateBanner.css": lines(
                ".update-banner { position: fixed; bottom: 0; width: 100%; padding: 8px; }"
            ),
            "src/renderer/src/App.tsx": ELECTRON_APP_V1.replace(
                "import { Playlist } from './components/Playlist'\n",
                "import { Playlist } from './components/Playlist'\n"
                "import { UpdateBanner } from './components/UpdateBanner'\n",
            ).replace("    <>\n", "    <>\n      <UpdateBanner />\n"),
            # electron-updater's own file for trying updates in development: a reviewer
            # keeps it with the feature.
            "dev-app-update.yml": lines("provider: github", "owner: podwave", "repo: podwave"),
            "tests/main/updater.test.ts": lines(
                "import { describe, expect, it, vi } from 'vitest'",
                "vi.mock('electron-updater', () => ({ autoUpdater: { on: vi.fn(),",
                "  checkForUpdatesAndNotify: vi.fn() } }))",
                "describe('startUpdater', () => {",
                "  it('checks on start', async () => {",
                "    const { startUpdater } = await import('../../src/main/updater')",
                "    expect(startUpdater).toBeTypeOf('function')",
                "  })",
                "})",
            ),
            # Drift: the dev-tools item removed and accelerators changed in the app menu.
            "src/main/menu.ts": ELECTRON_MENU.replace(", { role: 'toggleDevTools' }", "").replace(
                "accelerator: 'Right'", "accelerator: 'CmdOrCtrl+Right'"
            ),
            # Drift: the brand colour changed.
            "src/renderer/src/assets/main.css": lines(
                ":root { --accent: #7c5cff; --bg: #101216; }",
                ".playlist li { cursor: pointer; }",
            ),
            # Drift: an untouched component reformatted.
            "src/renderer/src/components/Playlist.tsx": lines(
                'import type { Episode } from "../types";',
                "",
                "export function Playlist({",
                "  items,",
                "  onPick,",
                "}: {",
                "  items: Episode[];",
                "  onPick: (e: Episode) => void;",
                "}) {",
                "  return (",
                '    <ol className="playlist">',
                "      {items.map((e) => (",
                "        <li key={e.id} onClick={() => onPick(e)}>",
                "          {e.title}",
                "        </li>",
                "      ))}",
                "    </ol>",
                "  );",
                "}",
            ),
            # electron-vite's output: this project's .gitignore still names webpack's dist/.
            "out/main/index.js": lines(
                '"use strict";const electron=require("electron");',
                'const electronUpdater=require("electron-updater");',
            ),
            "out/preload/index.js": lines(
                '"use strict";const electron=require("electron");',
                'electron.contextBridge.exposeInMainWorld("podwave",{});',
            ),
            "out/renderer/index.html": lines(
                '<div id="root"></div>',
                '<script type="module" src="./assets/index-DkE3f9aQ.js"></script>',
            ),
            "out/renderer/assets/index-DkE3f9aQ.js": lines("(function(){const t=document;})();"),
        }
    )
    s.fine(
        "src/main/index.ts",
        "src/main/updater.ts",
        "src/preload/index.ts",
        "src/preload/index.d.ts",
        "package.json",
        "package-lock.json",
        "electron-builder.yml",  # publish: is where electron-updater looks for releases
        "src/renderer/src/components/UpdateBanner.tsx",
        "src/renderer/src/components/UpdateBanner.css",
        "src/renderer/src/App.tsx",
        "dev-app-update.yml",
        "tests/main/updater.test.ts",
    )
    s.drift(
        "src/main/menu.ts",
        "src/renderer/src/assets/main.css",
        "src/renderer/src/components/Playlist.tsx",
    )
    s.excluded(
        "out/main/index.js",
        "out/preload/index.js",
        "out/renderer/index.html",
        "out/renderer/assets/index-DkE3f9aQ.js",
    )
    s.safe_checkpoint(mid)  # taken after the in-scope main-process work, before any drift
    s.note = "Electron: mid-session checkpoint, untracked out/ after a bundler switch"


# -- 4. Chrome extension (MV3): block the current site for today --------------------------------


EXT_MANIFEST = {
    "manifest_version": 3,
    "name": "__MSG_extName__",
    "version": "1.4.0",
    "default_locale": "en",
    "permissions": ["storage", "declarativeNetRequest", "tabs"],
    "host_permissions": ["<all_urls>"],
    "background": {"service_worker": "background.js", "type": "module"},
    "action": {"default_popup": "popup.html"},
    "options_page": "options.html",
    "content_scripts": [{"matches": ["<all_urls>"], "js": ["overlay.js"]}],
    "icons": {"128": "icons/icon-128.png"},
}

EXT_POPUP_TS = lines(
    "import { getSettings } from '../lib/storage'",
    "",
    "const focus = document.querySelector<HTMLButtonElement>('#focus')!",
    "focus.addEventListener('click', async () => {",
    "  const { focusMinutes } = await getSettings()",
    "  await chrome.runtime.sendMessage({ type: 'focus:start', minutes: focusMinutes })",
    "  window.close()",
    "})",
)

EXT_SW = lines(
    "import { startFocus, stopFocus } from './rules'",
    "",
    "chrome.runtime.onMessage.addListener((msg, _sender, reply) => {",
    "  if (msg.type === 'focus:start') startFocus(msg.minutes).then(reply)",
    "  if (msg.type === 'focus:stop') stopFocus().then(reply)",
    "  return true",
    "})",
)

EXT_RULES = lines(
    "import { getSettings } from '../lib/storage'",
    "",
    "const FOCUS_RULE_BASE = 1000",
    "",
    "export async function startFocus(minutes: number) {",
    "  const { blocklist } = await getSettings()",
    "  await chrome.declarativeNetRequest.updateDynamicRules({",
    "    addRules: blocklist.map((host, i) => ({",
    "      id: FOCUS_RULE_BASE + i,",
    "      action: { type: 'block' as chrome.declarativeNetRequest.RuleActionType },",
    "      condition: { requestDomains: [host], resourceTypes: ['main_frame'] },",
    "    })),",
    "  })",
    "  return { until: Date.now() + minutes * 60_000 }",
    "}",
    "",
    "export async function stopFocus() {",
    "  const rules = await chrome.declarativeNetRequest.getDynamicRules()",
    "  await chrome.declarativeNetRequest.updateDynamicRules({",
    "    removeRuleIds: rules.filter((r) => r.id >= FOCUS_RULE_BASE).map((r) => r.id),",
    "  })",
    "}",
)

EXT_STORAGE = lines(
    "export interface Settings { focusMinutes: number; blocklist: string[] }",
    "",
    "const DEFAULTS: Settings = { focusMinutes: 25, blocklist: ['news.ycombinator.com'] }",
    "",
    "export async function getSettings(): Promise<Settings> {",
    "  return { ...DEFAULTS, ...(await chrome.storage.sync.get(DEFAULTS)) } as Settings",
    "}",
)

EXT_OPTIONS = lines(
    "import { getSettings } from '../lib/storage'",
    "",
    "const minutes = document.querySelector<HTMLInputElement>('#minutes')!",
    "getSettings().then((s) => { minutes.value = String(s.focusMinutes) })",
    "minutes.addEventListener('change', () => {",
    "  const n = Math.min(180, Math.max(5, Number(minutes.value)))",
    "  chrome.storage.sync.set({ focusMinutes: n })",
    "})",
)

EXT_OVERLAY = lines(
    "const banner = document.createElement('div')",
    "banner.id = 'focustab-overlay'",
    "chrome.runtime.onMessage.addListener((msg) => {",
    "    if (msg.type === 'focus:tick') { banner.textContent = msg.left + ' min left';"
    " document.body.append(banner) }",
    "})",
)

EXT_TIME = lines(
    "export function minutesLeft(until: number, now = Date.now()) {",
    "  return Math.max(0, Math.ceil((until - now) / 60_000))",
    "}",
)


def _msgs(pairs: dict[str, str]) -> str:
    return _json({k: {"message": v} for k, v in pairs.items()})


EXT_EN = {"extName": "FocusTab", "focus": "Start focus"}
EXT_DE = {"extName": "FocusTab", "focus": "Fokus starten"}
EXT_FR = {"extName": "FocusTab", "focus": "Démarrer la concentration"}


def _ext_dist(manifest: dict[str, Any], stamp: str) -> dict[str, str | bytes]:
    return {
        "dist/manifest.json": _json(manifest),
        "dist/background.js": lines(f"// FocusTab {stamp}", "(()=>{var e=1e3;})();"),
        "dist/popup.js": lines(
            f"// FocusTab {stamp}", "(()=>{document.querySelector('#focus');})();"
        ),
        "dist/popup.html": lines(f'<!-- {stamp} --><button id="focus">Start focus</button>'),
    }


def chrome_extension_block_today(s: Scene) -> None:
    popup_html = lines(
        "<!doctype html>",
        '<link rel="stylesheet" href="popup.css">',
        '<button id="focus">__MSG_focus__</button>',
        '<script type="module" src="popup.ts"></script>',
    )
    s.commit(
        "FocusTab 1.4.0: MV3 focus timer with site blocking",
        {
            ".gitignore": lines("node_modules", "*.zip"),
            "package.json": _json(
                {
                    "name": "focustab",
                    "version": "1.4.0",
                    "private": True,
                    "scripts": {"build": "node scripts/build.mjs", "test": "vitest run"},
                    "devDependencies": {"esbuild": "^0.21.5", "vitest": "^1.6.0"},
                }
            ),
            "scripts/build.mjs": lines(
                "import { build } from 'esbuild'",
                "import { cpSync } from 'node:fs'",
                "await build({ entryPoints: { background: 'src/background/service-worker.ts',",
                "  popup: 'src/popup/popup.ts', options: 'src/options/options.ts',",
                "  overlay: 'src/content/overlay.ts' }, bundle: true, outdir: 'dist' })",
                "cpSync('manifest.json', 'dist/manifest.json')",
            ),
            "manifest.json": _json(EXT_MANIFEST),
            "icons/icon-128.png": PNG,
            "_locales/en/messages.json": _msgs(EXT_EN),
            "_locales/de/messages.json": _msgs(EXT_DE),
            "_locales/fr/messages.json": _msgs(EXT_FR),
            "src/background/service-worker.ts": EXT_SW,
            "src/background/rules.ts": EXT_RULES,
            "src/popup/popup.html": popup_html,
            "src/popup/popup.ts": EXT_POPUP_TS,
            "src/popup/popup.css": lines("button { width: 100%; padding: 8px; }"),
            "src/options/options.html": lines('<input id="minutes" type="number">'),
            "src/options/options.ts": EXT_OPTIONS,
            "src/content/overlay.ts": EXT_OVERLAY,
            "src/lib/storage.ts": EXT_STORAGE,
            "src/lib/time.ts": EXT_TIME,
            "tests/rules.test.ts": lines(
                "import { describe, expect, it } from 'vitest'",
                "import { startFocus } from '../src/background/rules'",
                "describe('startFocus', () => { it('is a function', () => {",
                "  expect(startFocus).toBeTypeOf('function') }) })",
            ),
            "tests/storage.test.ts": lines(
                "import { describe, expect, it } from 'vitest'",
                "import { getSettings } from '../src/lib/storage'",
                "describe('getSettings', () => { it('defaults to 25 minutes', async () => {",
                "  expect((await getSettings()).focusMinutes).toBe(25) }) })",
            ),
            "tests/time.test.ts": lines(
                "import { expect, it } from 'vitest'",
                "import { minutesLeft } from '../src/lib/time'",
                "it('rounds up', () => { expect(minutesLeft(90_000, 0)).toBe(2) })",
            ),
            # The store build is committed: the release job zips dist/ as it is in git.
            **_ext_dist(EXT_MANIFEST, "1.4.0"),
        },
        days_ago=50,
    )
    s.commit(
        "Popup and service worker: stop focus early",
        {
            "src/popup/popup.ts": EXT_POPUP_TS
            + lines(
                "document.querySelector('#stop')?.addEventListener('click', () =>",
                "  chrome.runtime.sendMessage({ type: 'focus:stop' }))",
            ),
            "src/popup/popup.html": popup_html.replace(
                "</button>\n", '</button>\n<button id="stop">Stop</button>\n'
            ),
            "src/background/service-worker.ts": EXT_SW,
        },
        days_ago=15,
    )
    s.intent(
        "Popup: a 'Block for today' button that blocks the current tab's site until midnight",
        {
            "src/popup/popup.ts": "the new button's handler",
            "src/background/service-worker.ts": "handles the block message",
        },
        hours_ago=4,
    )
    popup_ts = (s.root / "src/popup/popup.ts").read_text(encoding="utf-8")
    popup_html_now = (s.root / "src/popup/popup.html").read_text(encoding="utf-8")
    # First turn: the popup half — and a default changed in the options page.
    s.agent(
        {
            "src/popup/popup.ts": popup_ts
            + lines(
                "document.querySelector('#block-today')?.addEventListener('click', async () => {",
                "  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true })",
                "  if (!tab?.url) return",
                "  const host = new URL(tab.url).hostname",
                "  await chrome.runtime.sendMessage({ type: 'block:today', host })",
                "  window.close()",
                "})",
            ),
            "src/popup/popup.html": popup_html_now.replace(
                '<button id="stop">Stop</button>\n',
                '<button id="stop">Stop</button>\n'
                '<button id="block-today">__MSG_blockToday__</button>\n',
            ),
            # Drift: the focus default and its bounds changed in the options page.
            "src/options/options.ts": EXT_OPTIONS.replace(
                "Math.min(180, Math.max(5, Number(minutes.value)))", "Number(minutes.value) || 45"
            ),
        }
    )
    # The user checkpointed here, not noticing the options change.
    s.checkpoint("popup button done")
    manifest = {**EXT_MANIFEST, "permissions": [*EXT_MANIFEST["permissions"], "alarms"]}
    s.agent(
        {
            "src/background/service-worker.ts": lines(
                "import { blockForToday, startFocus, stopFocus, unblockExpired } from './rules'",
                "",
                "chrome.runtime.onMessage.addListener((msg, _sender, reply) => {",
                "  if (msg.type === 'focus:start') startFocus(msg.minutes).then(reply)",
                "  if (msg.type === 'focus:stop') stopFocus().then(reply)",
                "  if (msg.type === 'block:today') blockForToday(msg.host).then(reply)",
                "  return true",
                "})",
                "",
                "chrome.alarms.onAlarm.addListener((a) => {",
                "  if (a.name === 'unblock-midnight') unblockExpired()",
                "})",
            ),
            "src/background/rules.ts": EXT_RULES
            + lines(
                "",
                "const TODAY_RULE_BASE = 5000",
                "",
                "export async function blockForToday(host: string) {",
                "  const until = nextMidnight()",
                "  const blocked = await addBlockedUntil(host, until)",
                "  await chrome.declarativeNetRequest.updateDynamicRules({",
                "    addRules: [{ id: TODAY_RULE_BASE + blocked, action: { type: 'block' as",
                "      chrome.declarativeNetRequest.RuleActionType }, condition: {",
                "      requestDomains: [host], resourceTypes: ['main_frame'] } }],",
                "  })",
                "  chrome.alarms.create('unblock-midnight', { when: until })",
                "}",
                "",
                "export async function unblockExpired() {",
                "  const rules = await chrome.declarativeNetRequest.getDynamicRules()",
                "  await chrome.declarativeNetRequest.updateDynamicRules({",
                "    removeRuleIds: rules.filter((r) => r.id >= TODAY_RULE_BASE).map((r) => r.id),",
                "  })",
                "}",
            ).replace(
                "import { getSettings } from '../lib/storage'\n",
                "import { addBlockedUntil, getSettings } from '../lib/storage'\n"
                "import { nextMidnight } from '../lib/time'\n",
            ),
            "src/lib/time.ts": EXT_TIME
            + lines(
                "",
                "export function nextMidnight(now = new Date()) {",
                "  const d = new Date(now)",
                "  d.setHours(24, 0, 0, 0)",
                "  return d.getTime()",
                "}",
            ),
            "src/lib/storage.ts": EXT_STORAGE
            + lines(
                "",
                "export async function addBlockedUntil(host: string, until: number) {",
                "  const { blockedUntil = {} } = await chrome.storage.local.get('blockedUntil')",
                "  blockedUntil[host] = until",
                "  await chrome.storage.local.set({ blockedUntil })",
                "  return Object.keys(blockedUntil).length",
                "}",
            ),
            "manifest.json": _json(manifest),  # "alarms", for the midnight unblock
            "_locales/en/messages.json": _msgs({**EXT_EN, "blockToday": "Block for today"}),
            "_locales/de/messages.json": _msgs({**EXT_DE, "blockToday": "Für heute sperren"}),
            "_locales/fr/messages.json": _msgs(
                {**EXT_FR, "blockToday": "Bloquer pour aujourd\u2019hui"}
            ),
            "tests/time.test.ts": (s.root / "tests/time.test.ts").read_text(encoding="utf-8")
            + lines(
                "it('next midnight is later today', () => {",
                "  const now = new Date(2026, 10, 26, 15, 0)",
                "  expect(nextMidnight(now)).toBe(new Date(2026, 10, 27).getTime())",
                "})",
            ).replace(
                "import { minutesLeft } from '../src/lib/time'",
                "import { minutesLeft, nextMidnight } from '../src/lib/time'",
            ),
            # Drift: an untouched content script reformatted.
            "src/content/overlay.ts": EXT_OVERLAY.replace(
                "    if (msg.type === 'focus:tick') { banner.textContent = msg.left + ' min left';"
                " document.body.append(banner) }",
                "  if (msg.type === 'focus:tick') {\n"
                "    banner.textContent = `${msg.left} min left`;\n"
                "    document.body.append(banner);\n"
                "  }",
            ),
            **_ext_dist(manifest, "1.4.0+dev"),
        },
        # Drift: the test pinning the 25-minute default deleted (it failed after the
        # options change).
        delete=["tests/storage.test.ts"],
    )
    s.fine(
        "src/popup/popup.ts",
        "src/popup/popup.html",
        "src/background/service-worker.ts",
        "src/background/rules.ts",
        "src/lib/time.ts",  # nextMidnight, used by the new rule
        "src/lib/storage.ts",  # where the blocked-until map lives
        "manifest.json",
        "_locales/en/messages.json",
        "_locales/de/messages.json",
        "_locales/fr/messages.json",
        "tests/time.test.ts",
    )
    s.drift("src/options/options.ts", "src/content/overlay.ts", "tests/storage.test.ts")
    s.excluded("dist/manifest.json", "dist/background.js", "dist/popup.js", "dist/popup.html")
    # The only checkpoint already holds the drifted options page: restore from the commit.
    s.safe_commit()
    s.note = "MV3 extension: checkpoint after a drift, tracked dist/, three locales"


# -- 5. Django + Celery: the weekly digest moves from cron to beat -------------------------------


DJ_CELERY_V1 = lines(
    "import os",
    "",
    "from celery import Celery",
    "",
    'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")',
    "",
    'app = Celery("ledgerly")',
    'app.config_from_object("django.conf:settings", namespace="CELERY")',
    "app.autodiscover_tasks()",
)

DJ_BASE = lines(
    "from pathlib import Path",
    "",
    "BASE_DIR = Path(__file__).resolve().parent.parent.parent",
    "INSTALLED_APPS = [",
    '    "django.contrib.auth",',
    '    "django.contrib.contenttypes",',
    '    "accounts",',
    '    "digest",',
    "]",
    'CELERY_BROKER_URL = "redis://localhost:6379/0"',
    'CELERY_TIMEZONE = "Europe/Berlin"',
    'DEFAULT_FROM_EMAIL = "Ledgerly <hello@ledgerly.example>"',
)

DJ_PROD = lines(
    "from .base import *  # noqa: F403",
    "",
    "DEBUG = False",
    'ALLOWED_HOSTS = ["app.ledgerly.example"]',
    'EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"',
)

DJ_DEV = lines(
    "from .base import *  # noqa: F403",
    "",
    "DEBUG = True",
    'EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"',
)

DJ_MODELS_V1 = lines(
    "from django.conf import settings",
    "from django.db import models",
    "",
    "",
    "class DigestPreference(models.Model):",
    "    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)",
    "    weekly = models.BooleanField(default=True)",
)

DJ_TASKS_V1 = lines(
    "from celery import shared_task",
    "",
    "from .services import render_digest",
    "",
    "",
    "@shared_task",
    "def preview_digest(user_id: int) -> str:",
    "    return render_digest(user_id)",
)

DJ_SERVICES = lines(
    "from django.contrib.auth import get_user_model",
    "from django.core.mail import send_mail",
    "from django.template.loader import render_to_string",
    "",
    "",
    "def render_digest(user_id: int) -> str:",
    "    user = get_user_model().objects.get(pk=user_id)",
    '    return render_to_string("digest/weekly.txt", {"user": user})',
    "",
    "",
    "def send_digest(user_id: int) -> None:",
    "    user = get_user_model().objects.get(pk=user_id)",
    '    send_mail("Your week in Ledgerly", render_digest(user_id), None, [user.email])',
)

DJ_ACCOUNTS_VIEWS = lines(
    "from django.contrib.auth.decorators import login_required",
    "from django.shortcuts import render",
    "",
    "",
    "@login_required",
    "def profile(request):",
    '    return render(request, "accounts/profile.html", {"user": request.user})',
)

DJ_ACCOUNTS_TASKS = lines(
    "from celery import shared_task",
    "from django.core.mail import send_mail",
    "",
    "",
    "@shared_task",
    "def send_welcome_email(email: str) -> None:",
    '    send_mail("Welcome to Ledgerly", "Glad to have you.", None, [email])',
)


def django_celery_digest(s: Scene) -> None:
    s.commit(
        "Ledgerly: Django app with Celery for outgoing mail",
        {
            ".gitignore": lines("*.sqlite3", ".env", "media/", "__pycache__/"),
            "manage.py": lines(
                "import os",
                "import sys",
                "",
                'if __name__ == "__main__":',
                '    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")',
                "    from django.core.management import execute_from_command_line",
                "",
                "    execute_from_command_line(sys.argv)",
            ),
            "requirements.txt": lines(
                "Django==5.0.6", "celery[redis]==5.4.0", "django-anymail[postmark]==10.3"
            ),
            "config/__init__.py": lines(
                "from .celery import app as celery_app", "", '__all__ = ("celery_app",)'
            ),
            "config/celery.py": DJ_CELERY_V1,
            "config/settings/__init__.py": "",
            "config/settings/base.py": DJ_BASE,
            "config/settings/dev.py": DJ_DEV,
            "config/settings/prod.py": DJ_PROD,
            "config/settings/test.py": lines(
                "from .base import *  # noqa: F403", "", "CELERY_TASK_ALWAYS_EAGER = True"
            ),
            "accounts/__init__.py": "",
            "accounts/views.py": DJ_ACCOUNTS_VIEWS,
            "accounts/tasks.py": DJ_ACCOUNTS_TASKS,
            "accounts/tests/__init__.py": "",
            "accounts/tests/test_views.py": lines(
                "def test_profile_requires_login(client):",
                '    assert client.get("/accounts/profile/").status_code == 302',
            ),
            "digest/__init__.py": "",
            "digest/models.py": DJ_MODELS_V1,
            "digest/services.py": DJ_SERVICES,
            "digest/tasks.py": DJ_TASKS_V1,
            "digest/migrations/__init__.py": "",
            "digest/migrations/0001_initial.py": lines(
                "from django.db import migrations, models",
                "",
                "",
                "class Migration(migrations.Migration):",
                "    initial = True",
                "    dependencies = []",
                '    operations = [migrations.CreateModel("DigestPreference", fields=[',
                '        ("id", models.BigAutoField(primary_key=True)),',
                '        ("weekly", models.BooleanField(default=True))])]',
            ),
            "digest/management/__init__.py": "",
            "digest/management/commands/__init__.py": "",
            "digest/management/commands/send_weekly_digest.py": lines(
                "from django.core.management.base import BaseCommand",
                "",
                "from digest.models import DigestPreference",
                "from digest.services import send_digest",
                "",
                "",
                "class Command(BaseCommand):",
                '    help = "Send the weekly digest (run by cron on Monday mornings)"',
                "",
                "    def handle(self, *args, **options):",
                "        for pref in DigestPreference.objects.filter(weekly=True):",
                "            send_digest(pref.user_id)",
            ),
            "digest/templates/digest/weekly.txt": lines("Hi {{ user.first_name }}, your week:"),
            "digest/tests/__init__.py": "",
            "digest/tests/test_services.py": lines(
                "from digest.services import render_digest",
                "",
                "",
                "def test_render_mentions_name(django_user_model):",
                '    u = django_user_model.objects.create(username="a", first_name="Ada")',
                '    assert "Ada" in render_digest(u.pk)',
            ),
            "digest/tests/test_tasks.py": lines(
                "from digest.tasks import preview_digest",
                "",
                "",
                "def test_preview_is_a_task():",
                '    assert hasattr(preview_digest, "delay")',
            ),
            "deploy/crontab": lines(
                "# m h dom mon dow command",
                "0 7 * * 1 cd /srv/ledgerly && .venv/bin/python manage.py send_weekly_digest",
                "30 3 * * * cd /srv/ledgerly && .venv/bin/python manage.py clearsessions",
            ),
            "deploy/supervisor/celery-worker.conf": lines(
                "[program:celery-worker]",
                "command=/srv/ledgerly/.venv/bin/celery -A config worker -l info",
                "directory=/srv/ledgerly",
            ),
        },
        days_ago=200,
    )
    s.commit(
        "Digest: preview task and plain-text template",
        {
            "digest/tasks.py": DJ_TASKS_V1,
            "config/celery.py": DJ_CELERY_V1 + lines("app.conf.task_default_queue = 'mail'"),
            "digest/tests/test_tasks.py": (s.root / "digest/tests/test_tasks.py").read_text(
                encoding="utf-8"
            )
            + lines("", "", "def test_queue():", "    assert True"),
        },
        days_ago=33,
    )
    s.commit(
        "Accounts: welcome mail through Celery",
        {"accounts/tasks.py": DJ_ACCOUNTS_TASKS + lines("# sent from the signup signal")},
        days_ago=11,
    )
    s.intent(
        "Move the weekly digest from the cron management command to a Celery beat schedule "
        "(Mondays 07:00 Berlin), sending in batches and recording each run",
        {"digest/tasks.py": "the beat task", "config/celery.py": "the beat schedule"},
        patches=["digest/tasks.py", "digest/models.py"],
        hours_ago=5,
    )
    s.checkpoint("before digest beat")
    celery_now = (s.root / "config/celery.py").read_text(encoding="utf-8")
    s.agent(
        {
            "config/celery.py": celery_now.replace(
                "from celery import Celery\n",
                "from celery import Celery\nfrom celery.schedules import crontab\n",
            )
            + lines(
                "",
                "app.conf.beat_schedule = {",
                '    "weekly-digest": {',
                '        "task": "digest.tasks.send_weekly_digest",',
                '        "schedule": crontab(minute=0, hour=7, day_of_week="mon"),',
                "    },",
                "}",
            ),
            "digest/tasks.py": lines(
                "from celery import group, shared_task",
                "from django.conf import settings",
                "from django.utils import timezone",
                "",
                "from .models import DigestPreference, DigestRun",
                "from .services import render_digest, send_digest",
                "",
                "",
                "@shared_task",
                "def preview_digest(user_id: int) -> str:",
                "    return render_digest(user_id)",
                "",
                "",
                "@shared_task",
                "def send_digest_batch(user_ids: list[int]) -> int:",
                "    for uid in user_ids:",
                "        send_digest(uid)",
                "    return len(user_ids)",
                "",
                "",
                "@shared_task",
                "def send_weekly_digest() -> int:",
                "    run = DigestRun.objects.create(started_at=timezone.now())",
                "    prefs = DigestPreference.objects.filter(weekly=True)",
                '    ids = list(prefs.values_list("user_id", flat=True))',
                "    size = settings.DIGEST_BATCH_SIZE",
                "    batches = (ids[i : i + size] for i in range(0, len(ids), size))",
                "    group(send_digest_batch.s(batch) for batch in batches)()",
                "    run.recipients = len(ids)",
                '    run.save(update_fields=["recipients"])',
                "    return len(ids)",
            ),
            "digest/models.py": DJ_MODELS_V1
            + lines(
                "",
                "",
                "class DigestRun(models.Model):",
                "    started_at = models.DateTimeField()",
                "    recipients = models.PositiveIntegerField(default=0)",
            ),
            "digest/migrations/0002_digestrun.py": lines(
                "from django.db import migrations, models",
                "",
                "",
                "class Migration(migrations.Migration):",
                '    dependencies = [("digest", "0001_initial")]',
                "    operations = [",
                "        migrations.CreateModel(",
                '            name="DigestRun",',
                "            fields=[",
                '                ("id", models.BigAutoField(primary_key=True)),',
                '                ("started_at", models.DateTimeField()),',
                '                ("recipients", models.PositiveIntegerField(default=0)),',
                "            ],",
                "        ),",
                "    ]",
            ),
            "digest/tests/test_tasks.py": lines(
                "from digest.models import DigestRun",
                "from digest.tasks import preview_digest, send_weekly_digest",
                "",
                "",
                "def test_preview_is_a_task():",
                '    assert hasattr(preview_digest, "delay")',
                "",
                "",
                "def test_weekly_digest_records_a_run(db, settings):",
                "    settings.DIGEST_BATCH_SIZE = 2",
                "    send_weekly_digest()",
                "    assert DigestRun.objects.count() == 1",
            ),
        }
    )
    mid = s.checkpoint("beat task, run model and test")
    accounts_tasks = (s.root / "accounts/tasks.py").read_text(encoding="utf-8")
    s.agent(
        {
            "config/settings/base.py": DJ_BASE + lines("DIGEST_BATCH_SIZE = 500"),
            # Drift: eager tasks belong in test settings (they are there already); in
            # production every digest would be sent inside the beat process.
            "config/settings/prod.py": DJ_PROD + lines("CELERY_TASK_ALWAYS_EAGER = True"),
            "deploy/crontab": lines(
                "# m h dom mon dow command",
                "30 3 * * * cd /srv/ledgerly && .venv/bin/python manage.py clearsessions",
            ),
            "deploy/supervisor/celery-beat.conf": lines(
                "[program:celery-beat]",
                "command=/srv/ledgerly/.venv/bin/celery -A config beat -l info",
                "directory=/srv/ledgerly",
            ),
            # Drift: an untouched view turned into a class-based view.
            "accounts/views.py": lines(
                "from django.contrib.auth.mixins import LoginRequiredMixin",
                "from django.views.generic import TemplateView",
                "",
                "",
                "class ProfileView(LoginRequiredMixin, TemplateView):",
                '    template_name = "accounts/profile.html"',
                "",
                "",
                "profile = ProfileView.as_view()",
            ),
            # Drift: retries bolted onto an unrelated task "while I was in Celery".
            "accounts/tasks.py": accounts_tasks.replace(
                "@shared_task\n",
                "@shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=5)\n",
            ),
            # celery beat's local schedule state from the agent's trial run.
            "celerybeat-schedule": b"\x00\x06\x15a\x00\x00\x00\x02\x00\x00\x00weekly-digest"
            + bytes(48),
        },
        # "Instead of the cron command": a reviewer accepts removing it along with its
        # crontab line (the beat task replaces it).
        delete=["digest/management/commands/send_weekly_digest.py"],
    )
    s.fine(
        "digest/tasks.py",
        "config/celery.py",
        "digest/models.py",
        "digest/migrations/0002_digestrun.py",
        "digest/tests/test_tasks.py",
        "config/settings/base.py",  # DIGEST_BATCH_SIZE, read by the new task
        "deploy/crontab",
        "deploy/supervisor/celery-beat.conf",  # beat must run somewhere
        "digest/management/commands/send_weekly_digest.py",
    )
    s.drift("config/settings/prod.py", "accounts/views.py", "accounts/tasks.py")
    # Runtime state celery beat writes next to manage.py: no one reviews or restores it.
    s.excluded("celerybeat-schedule")
    # Two checkpoints predate all drift; the later one also keeps the in-scope first turn.
    s.safe_checkpoint(mid)
    s.note = "Django+Celery: two clean checkpoints, setting in the wrong environment"


# -- 6. Godot 4 platformer: double jump from the Winged Boots -----------------------------------


def _ext(kind: str, uid: str, path: str, rid: str) -> str:
    return f'[ext_resource type="{kind}" uid="{uid}" path="{path}" id="{rid}"]'


GD_PLAYER_V1 = lines(
    "class_name Player",
    "extends CharacterBody2D",
    "",
    "const SPEED := 180.0",
    "const JUMP_VELOCITY := -340.0",
    "",
    'var gravity: float = ProjectSettings.get_setting("physics/2d/default_gravity")',
    "",
    "",
    "func _physics_process(delta: float) -> void:",
    "\tif not is_on_floor():",
    "\t\tvelocity.y += gravity * delta",
    '\tif Input.is_action_just_pressed("jump") and is_on_floor():',
    "\t\tvelocity.y = JUMP_VELOCITY",
    "\t\t$JumpSound.play()",
    '\tvelocity.x = Input.get_axis("move_left", "move_right") * SPEED',
    "\tmove_and_slide()",
)

GD_PLAYER_TSCN = lines(
    '[gd_scene load_steps=4 format=3 uid="uid://c2kq7player"]',
    "",
    _ext("Script", "uid://b8player", "res://scripts/player.gd", "1_p"),
    _ext("Texture2D", "uid://d1psprite", "res://assets/sprites/player.png", "2_s"),
    _ext("AudioStream", "uid://cjumpsfx", "res://assets/sfx/jump.wav", "3_j"),
    "",
    '[node name="Player" type="CharacterBody2D"]',
    'script = ExtResource("1_p")',
    "",
    '[node name="Sprite2D" type="Sprite2D" parent="."]',
    'texture = ExtResource("2_s")',
    "",
    '[node name="JumpSound" type="AudioStreamPlayer2D" parent="."]',
    'stream = ExtResource("3_j")',
)

GD_SLIME = lines(
    "class_name Slime",
    "extends CharacterBody2D",
    "",
    "@export var speed := 60.0",
    "var direction := -1.0",
    "",
    "",
    "func _physics_process(_delta: float) -> void:",
    "\tvelocity.x = direction * speed",
    "\tif is_on_wall():",
    "\t\tdirection = -direction",
    "\tmove_and_slide()",
)

GD_HUD = lines(
    "extends CanvasLayer",
    "",
    "",
    "func _ready() -> void:",
    "\tGameState.coins_changed.connect(_on_coins)",
    "",
    "",
    "func _on_coins(n: int) -> void:",
    '\t$Coins.text = "Coins: %d" % n',
)

GD_STATE = lines(
    "extends Node",
    "",
    "signal coins_changed(n: int)",
    "",
    "var coins := 0",
    "",
    "",
    "func add_coin() -> void:",
    "\tcoins += 1",
    "\tcoins_changed.emit(coins)",
)

GD_LEVEL1 = lines(
    '[gd_scene load_steps=3 format=3 uid="uid://bl1level"]',
    "",
    _ext("PackedScene", "uid://c2kq7player", "res://scenes/player.tscn", "1_pl"),
    _ext("PackedScene", "uid://coinscn", "res://scenes/pickups/coin.tscn", "2_c"),
    "",
    '[node name="Level1" type="Node2D"]',
    "",
    '[node name="Player" parent="." instance=ExtResource("1_pl")]',
    "position = Vector2(64, 300)",
    "",
    '[node name="Coin" parent="." instance=ExtResource("2_c")]',
    "position = Vector2(240, 260)",
)


def _project_godot(width: int, height: int) -> str:
    return lines(
        "config_version=5",
        "",
        "[application]",
        "",
        'config/name="Moss Knight"',
        'run/main_scene="res://scenes/main.tscn"',
        'config/features=PackedStringArray("4.4", "GL Compatibility")',
        "",
        "[autoload]",
        "",
        'GameState="*res://scripts/game_state.gd"',
        "",
        "[display]",
        "",
        f"window/size/viewport_width={width}",
        f"window/size/viewport_height={height}",
        "",
        "[input]",
        "",
        'jump={"deadzone": 0.5, "events": []}',
    )


def _import(uid: str, src: str) -> str:
    return lines(
        "[remap]",
        "",
        'importer="texture"',
        'type="CompressedTexture2D"',
        f'uid="{uid}"',
        f'path="res://.godot/imported/{src.rsplit("/", 1)[-1]}-0f3a.ctex"',
        "",
        "[deps]",
        "",
        f'source_file="res://{src}"',
    )


def godot_double_jump(s: Scene) -> None:
    s.commit(
        "Moss Knight: first level, player, slime, coins (Godot 3)",
        {
            # Written in the Godot 3 days: it ignores .import/, not Godot 4's .godot/.
            ".gitignore": lines(".import/", "export_presets.cfg", "*.translation"),
            "project.godot": _project_godot(1280, 720),
            "icon.svg": lines('<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"/>'),
            "scenes/main.tscn": lines(
                '[gd_scene format=3 uid="uid://bmain"]', "", '[node name="Main" type="Node"]'
            ),
            "scenes/player.tscn": GD_PLAYER_TSCN,
            "scenes/levels/level_1.tscn": GD_LEVEL1,
            "scenes/levels/level_2.tscn": GD_LEVEL1.replace("Level1", "Level2").replace(
                "uid://bl1level", "uid://bl2level"
            ),
            "scenes/enemies/slime.tscn": lines(
                '[gd_scene format=3 uid="uid://cslime"]',
                "",
                '[node name="Slime" type="CharacterBody2D"]',
            ),
            "scenes/pickups/coin.tscn": lines(
                '[gd_scene format=3 uid="uid://coinscn"]', "", '[node name="Coin" type="Area2D"]'
            ),
            "scenes/ui/hud.tscn": lines(
                '[gd_scene format=3 uid="uid://chud"]',
                "",
                '[node name="HUD" type="CanvasLayer"]',
                "",
                '[node name="Coins" type="Label" parent="."]',
                'text = "Coins: 0"',
            ),
            "scripts/player.gd": GD_PLAYER_V1,
            "scripts/player.gd.uid": lines("uid://b8player"),
            "scripts/enemies/slime.gd": GD_SLIME,
            "scripts/enemies/slime.gd.uid": lines("uid://b8slime"),
            "scripts/ui/hud.gd": GD_HUD,
            "scripts/ui/hud.gd.uid": lines("uid://b8hud"),
            "scripts/pickups/coin.gd": lines(
                "extends Area2D",
                "",
                "",
                "func _on_body_entered(body: Node2D) -> void:",
                "\tif body is Player:",
                "\t\tGameState.add_coin()",
                "\t\tqueue_free()",
            ),
            "scripts/pickups/coin.gd.uid": lines("uid://b8coin"),
            "scripts/game_state.gd": GD_STATE,
            "scripts/game_state.gd.uid": lines("uid://b8state"),
            "assets/sprites/player.png": PNG,
            "assets/sprites/player.png.import": _import(
                "uid://d1psprite", "assets/sprites/player.png"
            ),
            "assets/sprites/coin.png": PNG + b"coin",
            "assets/sprites/coin.png.import": _import("uid://d1csprite", "assets/sprites/coin.png"),
            "assets/sfx/jump.wav": b"RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00" + bytes(24),
            "test/unit/test_player.gd": lines(
                "extends GutTest",
                "",
                "",
                "func test_player_starts_on_floor_speed() -> void:",
                "\tassert_eq(Player.SPEED, 180.0)",
            ),
            "addons/gut/plugin.cfg": lines("[plugin]", "", 'name="Gut"', 'version="9.3.0"'),
            "addons/gut/gut.gd": lines("# GUT: Godot Unit Testing (MIT)", "extends Node"),
        },
        days_ago=160,
    )
    s.commit(
        "Port to Godot 4.4: uid files, typed GDScript",
        {"project.godot": _project_godot(1280, 720), "scripts/player.gd": GD_PLAYER_V1},
        days_ago=25,
    )
    s.commit(
        "Player: jump sound; level 1 coin placement",
        {
            "scenes/player.tscn": GD_PLAYER_TSCN,
            "scripts/player.gd": GD_PLAYER_V1,
            "scenes/levels/level_1.tscn": GD_LEVEL1.replace(
                "Vector2(240, 260)", "Vector2(256, 250)"
            ),
        },
        days_ago=8,
    )
    s.intent(
        "Double jump for the player, unlocked by picking up the Winged Boots placed in level 1",
        {
            "scripts/player.gd": "jump logic",
            "scenes/player.tscn": "the player scene (air-jump particles)",
        },
        hours_ago=2,
    )
    # The user's own tuning before handing over — kept in the checkpoint, not in git.
    s.agent({"scripts/enemies/slime.gd": GD_SLIME.replace("60.0", "70.0")})
    before = s.checkpoint("before double jump (slime speed 70)")
    level_now = (s.root / "scenes/levels/level_1.tscn").read_text(encoding="utf-8")
    s.agent(
        {
            "scripts/player.gd": GD_PLAYER_V1.replace(
                'var gravity: float = ProjectSettings.get_setting("physics/2d/default_gravity")\n',
                'var gravity: float = ProjectSettings.get_setting("physics/2d/default_gravity")\n'
                "var air_jumps_left := 0\n",
            ).replace(
                '\tif Input.is_action_just_pressed("jump") and is_on_floor():\n'
                "\t\tvelocity.y = JUMP_VELOCITY\n"
                "\t\t$JumpSound.play()\n",
                "\tif is_on_floor():\n"
                "\t\tair_jumps_left = 1 if GameState.has_winged_boots else 0\n"
                '\tif Input.is_action_just_pressed("jump"):\n'
                "\t\tif is_on_floor():\n"
                "\t\t\tvelocity.y = JUMP_VELOCITY\n"
                "\t\t\t$JumpSound.play()\n"
                "\t\telif air_jumps_left > 0:\n"
                "\t\t\tair_jumps_left -= 1\n"
                "\t\t\tvelocity.y = JUMP_VELOCITY * 0.85\n"
                "\t\t\t$AirJumpParticles.restart()\n",
            ),
            "scenes/player.tscn": GD_PLAYER_TSCN.replace("load_steps=4", "load_steps=5")
            + lines(
                "",
                '[node name="AirJumpParticles" type="CPUParticles2D" parent="."]',
                "emitting = false",
                "one_shot = true",
                "amount = 12",
            ),
            "scripts/game_state.gd": GD_STATE + lines("", "var has_winged_boots := false"),
            "scripts/pickups/winged_boots.gd": lines(
                "class_name WingedBoots",
                "extends Area2D",
                "",
                "",
                "func _on_body_entered(body: Node2D) -> void:",
                "\tif body is Player:",
                "\t\tGameState.has_winged_boots = true",
                "\t\tqueue_free()",
            ),
            # Godot 4.4 writes a .uid beside each new script; it is meant to be committed.
            "scripts/pickups/winged_boots.gd.uid": lines("uid://b8boots"),
            "scenes/pickups/winged_boots.tscn": lines(
                '[gd_scene load_steps=3 format=3 uid="uid://cboots"]',
                "",
                _ext("Script", "uid://b8boots", "res://scripts/pickups/winged_boots.gd", "1_b"),
                _ext(
                    "Texture2D", "uid://d1bsprite", "res://assets/sprites/winged_boots.png", "2_t"
                ),
                "",
                '[node name="WingedBoots" type="Area2D"]',
                'script = ExtResource("1_b")',
            ),
            "assets/sprites/winged_boots.png": PNG + b"boots",
            # The import settings of the new sprite: committed with it in a Godot project.
            "assets/sprites/winged_boots.png.import": _import(
                "uid://d1bsprite", "assets/sprites/winged_boots.png"
            ),
            "scenes/levels/level_1.tscn": level_now.replace("load_steps=3", "load_steps=4").replace(
                '[node name="Level1"',
                '[ext_resource type="PackedScene" uid="uid://cboots" '
                'path="res://scenes/pickups/winged_boots.tscn" id="3_b"]\n\n[node name="Level1"',
            )
            + lines(
                "",
                '[node name="WingedBoots" parent="." instance=ExtResource("3_b")]',
                "position = Vector2(420, 180)",
            ),
            "test/unit/test_player.gd": (s.root / "test/unit/test_player.gd").read_text(
                encoding="utf-8"
            )
            + lines(
                "",
                "",
                "func test_no_air_jump_without_boots() -> void:",
                "\tGameState.has_winged_boots = false",
                "\tvar p: Player = autofree(Player.new())",
                "\tassert_eq(p.air_jumps_left, 0)",
            ),
            # Drift: the user's own slime tuning (70) overwritten.
            "scripts/enemies/slime.gd": GD_SLIME.replace("60.0", "90.0"),
            # Drift: the HUD's sibling label retitled.
            "scripts/ui/hud.gd": GD_HUD.replace('"Coins: %d"', '"Gold: %d"'),
            # Drift: the game's resolution changed.
            "project.godot": _project_godot(1920, 1080),
            # The editor's import cache (Godot 4), not ignored by the Godot 3 .gitignore.
            ".godot/imported/winged_boots.png-0f3a.ctex": b"GST2\x00\x01\x00\x00" + bytes(40),
            ".godot/uid_cache.bin": b"\x05\x00\x00\x00" + b"uid://b8boots" + bytes(16),
            ".godot/global_script_class_cache.cfg": lines(
                "list=[{",
                '"base": &"Area2D",',
                '"class": &"WingedBoots",',
                '"path": "res://scripts/pickups/winged_boots.gd"',
                "}]",
            ),
            ".godot/editor/filesystem_cache10": lines(
                "::res://scripts/pickups/::1732611000", "winged_boots.gd::GDScript::uid://b8boots"
            ),
        }
    )
    s.fine(
        "scripts/player.gd",
        "scenes/player.tscn",
        "scripts/game_state.gd",  # the unlock flag the boots set and the player reads
        "scripts/pickups/winged_boots.gd",
        "scripts/pickups/winged_boots.gd.uid",
        "scenes/pickups/winged_boots.tscn",
        "assets/sprites/winged_boots.png",
        "assets/sprites/winged_boots.png.import",
        "scenes/levels/level_1.tscn",
        "test/unit/test_player.gd",
    )
    s.drift("scripts/enemies/slime.gd", "scripts/ui/hud.gd", "project.godot")
    s.excluded(
        ".godot/imported/winged_boots.png-0f3a.ctex",
        ".godot/uid_cache.bin",
        ".godot/global_script_class_cache.cfg",
        ".godot/editor/filesystem_cache10",
    )
    # Restoring the slime from the commit would lose the user's own tuning (70).
    s.safe_checkpoint(before)
    s.note = "Godot: user WIP in a later-drifted file, .godot/ cache after a 3→4 port"


# -- 7. R package: read_survey(complete_only = TRUE) --------------------------------------------


R_READ = lines(
    "#' Read a survey export",
    "#'",
    "#' @param path Path to a CSV export.",
    "#' @param clean Clean the column names with [clean_names()].",
    "#' @return A tibble, one row per response.",
    "#' @export",
    "read_survey <- function(path, clean = TRUE) {",
    "  data <- readr::read_csv(path, show_col_types = FALSE)",
    "  if (clean) data <- clean_names(data)",
    "  data",
    "}",
)

R_WEIGHTS = lines(
    "#' Post-stratification weights",
    "#'",
    "#' Computes weights so the sample matches known population margins.",
    "#' @param data Survey responses.",
    "#' @param margins Named list of population shares.",
    "#' @export",
    "survey_weights <- function(data, margins) {",
    "  w <- rep(1, nrow(data))",
    "  for (v in names(margins)) {",
    "    share <- prop.table(table(data[[v]]))",
    "    w <- w * unname(margins[[v]][as.character(data[[v]])] / share[as.character(data[[v]])])",
    "  }",
    "  w / mean(w)",
    "}",
)

R_CLEAN = lines(
    "#' Clean column names",
    "#' @param data A data frame.",
    "#' @export",
    "clean_names <- function(data) {",
    "  names(data) <- tolower(gsub('[^A-Za-z0-9]+', '_', names(data)))",
    "  data",
    "}",
)

R_UTILS = lines(
    "`%||%` <- function(x, y) if (is.null(x)) y else x",
    "",
    "abort_missing <- function(path) {",
    '  cli::cli_abort("Survey file {.path {path}} does not exist.")',
    "}",
)


def _rd(name: str, title: str, src: str, args: str) -> str:
    return lines(
        "% Generated by roxygen2: do not edit by hand",
        f"% Please edit documentation in R/{src}",
        f"\\name{{{name}}}",
        f"\\alias{{{name}}}",
        f"\\title{{{title}}}",
        "\\usage{",
        f"{name}({args})",
        "}",
    )


def _pkgdown_html(title: str, body: str) -> str:
    return lines(
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta name="generator" content="pkgdown 2.1.0">',
        f"<title>{title} — surveyr</title></head>",
        f"<body><main>{body}</main></body></html>",
    )


def r_package_complete_only(s: Scene) -> None:
    s.commit(
        "surveyr 0.3.1",
        {
            ".gitignore": lines(".Rproj.user", ".Rhistory", ".RData"),
            ".Rbuildignore": lines("^.*\\.Rproj$", "^docs$", "^_pkgdown\\.yml$"),
            "DESCRIPTION": lines(
                "Package: surveyr",
                "Title: Read and Weight Survey Exports",
                "Version: 0.3.1",
                "Authors@R:",
                "    person('Ana', 'Ruiz', email = 'ana@example.org', role = c('aut', 'cre'))",
                "License: MIT + file LICENSE",
                "Imports: cli, readr",
                "Suggests: testthat (>= 3.0.0)",
                "Config/testthat/edition: 3",
                "RoxygenNote: 7.3.1",
            ),
            "NAMESPACE": lines(
                "# Generated by roxygen2: do not edit by hand",
                "",
                "export(clean_names)",
                "export(read_survey)",
                "export(survey_weights)",
            ),
            "LICENSE": lines("YEAR: 2024", "COPYRIGHT HOLDER: surveyr authors"),
            "NEWS.md": lines("# surveyr 0.3.1", "", "* `survey_weights()` handles empty strata."),
            "README.md": lines("# surveyr", "", "Read survey exports into tidy data frames."),
            "_pkgdown.yml": lines(
                "url: https://ana.github.io/surveyr", "template:", "  bootstrap: 5"
            ),
            "R/read_survey.R": R_READ,
            "R/weights.R": R_WEIGHTS,
            "R/clean_names.R": R_CLEAN,
            "R/utils.R": R_UTILS,
            "man/read_survey.Rd": _rd(
                "read_survey", "Read a survey export", "read_survey.R", "path, clean = TRUE"
            ),
            "man/survey_weights.Rd": _rd(
                "survey_weights", "Post-stratification weights", "weights.R", "data, margins"
            ),
            "man/clean_names.Rd": _rd("clean_names", "Clean column names", "clean_names.R", "data"),
            "tests/testthat.R": lines(
                "library(testthat)", "library(surveyr)", "test_check('surveyr')"
            ),
            "tests/testthat/test-read_survey.R": lines(
                "test_that('read_survey cleans names', {",
                "  d <- read_survey(system.file('extdata', 'survey.csv', package = 'surveyr'))",
                "  expect_true('q1_age' %in% names(d))",
                "})",
            ),
            "tests/testthat/test-weights.R": lines(
                "test_that('weights average to one', {",
                "  d <- data.frame(sex = c('f', 'm', 'm'))",
                "  expect_equal(mean(survey_weights(d, list(sex = c(f = .5, m = .5)))), 1)",
                "})",
            ),
            "inst/extdata/survey.csv": lines(
                "id,Q1 Age,Q2 Region,Q3 Rating", "1,34,North,4", "2,51,South,5", "3,29,North,3"
            ),
            "vignettes/getting-started.Rmd": lines(
                "---",
                "title: Getting started",
                "vignette: >",
                "  %\\VignetteIndexEntry{Getting started}",
                "---",
                "",
                "```{r}",
                "library(surveyr)",
                'd <- read_survey(system.file("extdata", "survey.csv", package = "surveyr"))',
                "```",
            ),
            # The pkgdown site is built into docs/ and published from the branch.
            "docs/pkgdown.yml": lines(
                "pandoc: '3.1'", "pkgdown: 2.1.0", "last_built: 2026-09-02T10:11Z"
            ),
            "docs/index.html": _pkgdown_html("surveyr", "Read survey exports."),
            "docs/reference/read_survey.html": _pkgdown_html(
                "Read a survey export", "read_survey(path, clean = TRUE)"
            ),
            "docs/reference/survey_weights.html": _pkgdown_html(
                "Post-stratification weights", "survey_weights(data, margins)"
            ),
        },
        days_ago=80,
    )
    s.commit(
        "read_survey(): clean names by default",
        {
            "R/read_survey.R": R_READ,
            "tests/testthat/test-read_survey.R": (
                s.root / "tests/testthat/test-read_survey.R"
            ).read_text(encoding="utf-8"),
            "man/read_survey.Rd": _rd(
                "read_survey", "Read a survey export", "read_survey.R", "path, clean = TRUE"
            ),
        },
        days_ago=28,
    )
    s.intent(
        "read_survey(): add complete_only = FALSE; when TRUE, drop responses that left any "
        "required question unanswered",
        {"R/read_survey.R": "the new argument"},
        hours_ago=1,
    )
    before = s.checkpoint("before complete_only")
    s.agent(
        {
            "R/read_survey.R": lines(
                "#' Read a survey export",
                "#'",
                "#' @param path Path to a CSV export.",
                "#' @param clean Clean the column names with [clean_names()].",
                "#' @param complete_only Drop responses with an unanswered required question",
                "#'   (columns whose name starts with `req_` after cleaning).",
                "#' @return A tibble, one row per response.",
                "#' @export",
                "read_survey <- function(path, clean = TRUE, complete_only = FALSE) {",
                "  if (!file.exists(path)) abort_missing(path)",
                "  data <- readr::read_csv(path, show_col_types = FALSE)",
                "  if (clean) data <- clean_names(data)",
                "  if (complete_only) data <- data[is_complete_row(data), , drop = FALSE]",
                "  data",
                "}",
            ),
            "R/utils.R": R_UTILS
            + lines(
                "",
                "is_complete_row <- function(data, prefix = 'req_') {",
                "  req <- startsWith(names(data), prefix)",
                "  if (!any(req)) return(rep(TRUE, nrow(data)))",
                "  stats::complete.cases(data[req])",
                "}",
            ),
            "man/read_survey.Rd": _rd(
                "read_survey",
                "Read a survey export",
                "read_survey.R",
                "path, clean = TRUE, complete_only = FALSE",
            ),
            "tests/testthat/test-read_survey.R": (
                s.root / "tests/testthat/test-read_survey.R"
            ).read_text(encoding="utf-8")
            + lines(
                "",
                "test_that('complete_only drops partial responses', {",
                "  p <- system.file('extdata', 'survey_partial.csv', package = 'surveyr')",
                "  expect_equal(nrow(read_survey(p, complete_only = TRUE)), 2)",
                "  expect_equal(nrow(read_survey(p)), 3)",
                "})",
            ),
            "inst/extdata/survey_partial.csv": lines(
                "id,REQ Age,REQ Region,Comment", "1,34,North,", "2,,South,late", "3,29,North,ok"
            ),
            "NEWS.md": lines(
                "# surveyr (development version)",
                "",
                "* `read_survey()` gains `complete_only` to drop partial responses.",
                "",
                "# surveyr 0.3.1",
                "",
                "* `survey_weights()` handles empty strata.",
            ),
            "vignettes/getting-started.Rmd": (s.root / "vignettes/getting-started.Rmd").read_text(
                encoding="utf-8"
            )
            + lines(
                "",
                "Partial responses can be dropped on reading with `complete_only = TRUE`.",
            ),
            # Drift: a release version nobody asked for.
            "DESCRIPTION": (s.root / "DESCRIPTION")
            .read_text(encoding="utf-8")
            .replace("Version: 0.3.1", "Version: 0.4.0"),
            # Drift: the weights docs reworded and a variable renamed.
            "R/weights.R": R_WEIGHTS.replace(
                "Computes weights so the sample matches known population margins.",
                "Raking-style weights that align sample shares with population shares.",
            )
            .replace("w <- ", "wt <- ")
            .replace("w * ", "wt * ")
            .replace("w / mean(w)", "wt / mean(wt)"),
            "man/survey_weights.Rd": _rd(
                "survey_weights", "Post-stratification weights", "weights.R", "data, margins"
            ).replace("\\usage{", "\\description{\nRaking-style weights.\n}\n\\usage{"),
            # Drift: styler run over an untouched file.
            "R/clean_names.R": R_CLEAN.replace("'[^A-Za-z0-9]+', '_'", '"[^A-Za-z0-9]+", "_"'),
            # pkgdown::build_site() output.
            "docs/pkgdown.yml": lines(
                "pandoc: '3.1'", "pkgdown: 2.1.0", "last_built: 2026-11-26T08:40Z"
            ),
            "docs/reference/read_survey.html": _pkgdown_html(
                "Read a survey export", "read_survey(path, clean = TRUE, complete_only = FALSE)"
            ),
            "docs/reference/survey_weights.html": _pkgdown_html(
                "Post-stratification weights", "Raking-style weights. survey_weights(data, margins)"
            ),
        }
    )
    s.fine(
        "R/read_survey.R",
        "R/utils.R",  # is_complete_row(), called by read_survey()
        "tests/testthat/test-read_survey.R",
        "inst/extdata/survey_partial.csv",  # the new test's fixture
        "NEWS.md",
        "vignettes/getting-started.Rmd",
    )
    s.drift("DESCRIPTION", "R/weights.R", "R/clean_names.R")
    # roxygen2 output (headed "Generated by roxygen2") and the pkgdown site: regenerated
    # from the sources, never reviewed or restored by hand — even survey_weights.Rd, which
    # follows a drifted source.
    s.excluded(
        "man/read_survey.Rd",
        "man/survey_weights.Rd",
        "docs/pkgdown.yml",
        "docs/reference/read_survey.html",
        "docs/reference/survey_weights.html",
    )
    s.safe_checkpoint(before)  # clean tree, taken before the work
    s.note = "R package: roxygen man/ and pkgdown docs/, version bump, styler drift"


# -- 8. Clojure service: rate limiting on the public API ----------------------------------------


CLJ_MIDDLEWARE = lines(
    "(ns acme.api.middleware",
    "  (:require [acme.api.auth :as auth]",
    "            [ring.util.response :as resp]))",
    "",
    "(defn wrap-api-key [handler db]",
    "  (fn [req]",
    '    (if-let [client (auth/client-for db (get-in req [:headers "x-api-key"]))]',
    "      (handler (assoc req :client client))",
    '      (resp/status (resp/response {:error "unknown API key"}) 401))))',
)

CLJ_ROUTES = lines(
    "(ns acme.api.routes",
    "  (:require [acme.api.handlers.customers :as customers]",
    "            [acme.api.handlers.orders :as orders]",
    "            [acme.api.middleware :as mw]))",
    "",
    "(defn routes [{:keys [db]}]",
    '  [["/health" {:get (constantly {:status 200 :body "ok"})}]',
    '   ["/v1" {:middleware [[mw/wrap-api-key db]]}',
    '    ["/orders" {:get (orders/list-orders db) :post (orders/create-order db)}]',
    '    ["/customers/:id" {:get (customers/get-customer db)}]]])',
)

CLJ_CUSTOMERS = lines(
    "(ns acme.api.handlers.customers",
    "  (:require [acme.db :as db]))",
    "",
    "(defn get-customer [conn]",
    "  (fn [{{:keys [id]} :path-params}]",
    "    (if-let [c (db/customer conn (parse-long id))] {:status 200 :body c} {:status 404})))",
)

CLJ_DEPS = lines(
    '{:paths ["src" "resources"]',
    ' :deps {org.clojure/clojure {:mvn/version "1.12.0"}',
    '        metosin/reitit {:mvn/version "0.7.1"}',
    '        ring/ring-jetty-adapter {:mvn/version "1.11.0"}',
    '        aero/aero {:mvn/version "1.1.6"}',
    '        com.github.seancorfield/next.jdbc {:mvn/version "1.3.939"}}',
    ' :aliases {:test {:extra-paths ["test"]',
    '                  :extra-deps {lambdaisland/kaocha {:mvn/version "1.91.1392"}}',
    '                  :main-opts ["-m" "kaocha.runner"]}',
    '           :build {:deps {io.github.clojure/tools.build {:mvn/version "0.10.5"}}',
    "                   :ns-default build}}}",
)

CLJ_BASE_EDN = lines(
    "{:http {:port #long #or [#env PORT 8080]}",
    " :db {:jdbcUrl #env DATABASE_URL}",
    " :log-level #profile {:dev :debug :prod :info}}",
)

CLJ_PROD_EDN = lines("{:log-level :info", " :http {:port 80}}")


def clojure_rate_limit(s: Scene) -> None:
    s.commit(
        "acme-api: reitit service for orders and customers",
        {
            ".gitignore": lines(".cpcache/", ".nrepl-port", ".lsp/", "*.log"),
            "README.md": lines(
                "# acme-api", "", "`clj -M:test` runs the tests; `clj -T:build uber` builds."
            ),
            "deps.edn": CLJ_DEPS,
            "build.clj": lines(
                "(ns build (:require [clojure.tools.build.api :as b]))",
                '(def class-dir "target/classes")',
                "(defn uber [_]",
                "  (b/compile-clj {:basis (b/create-basis) :class-dir class-dir",
                '                  :src-dirs ["src"]})',
                '  (b/uber {:class-dir class-dir :uber-file "target/acme-api-standalone.jar"',
                "          :basis (b/create-basis) :main 'acme.api.core}))",
            ),
            "tests.edn": lines("#kaocha/v1 {}"),
            ".clj-kondo/config.edn": lines("{:linters {:unresolved-symbol {:level :error}}}"),
            "resources/config/base.edn": CLJ_BASE_EDN,
            "resources/config/dev.edn": lines("{:log-level :debug}"),
            "resources/config/prod.edn": CLJ_PROD_EDN,
            "resources/migrations/20240101-init.up.sql": lines(
                "create table customers (id bigserial primary key, name text not null);",
                "create table api_clients (key text primary key, name text not null);",
            ),
            "src/acme/api/core.clj": lines(
                "(ns acme.api.core",
                "  (:require [acme.api.routes :as routes]",
                "            [acme.config :as config]",
                "            [reitit.ring :as ring]",
                "            [ring.adapter.jetty :as jetty])",
                "  (:gen-class))",
                "",
                "(defn -main [& _]",
                "  (let [cfg (config/load! :prod)]",
                "    (jetty/run-jetty (ring/ring-handler (ring/router (routes/routes cfg)))",
                "                     {:port (get-in cfg [:http :port])})))",
            ),
            "src/acme/api/routes.clj": CLJ_ROUTES,
            "src/acme/api/middleware.clj": CLJ_MIDDLEWARE,
            "src/acme/api/auth.clj": lines(
                "(ns acme.api.auth (:require [next.jdbc :as jdbc]))",
                "",
                "(defn client-for [db api-key]",
                "  (when api-key",
                '    (jdbc/execute-one! db ["select * from api_clients where key = ?" api-key])))',
            ),
            "src/acme/api/handlers/orders.clj": lines(
                "(ns acme.api.handlers.orders (:require [acme.db :as db]))",
                "",
                "(defn list-orders [conn] (fn [_] {:status 200 :body (db/orders conn)}))",
                "(defn create-order [conn] (fn [{:keys [body-params]}]",
                "  {:status 201 :body (db/insert-order! conn body-params)}))",
            ),
            "src/acme/api/handlers/customers.clj": CLJ_CUSTOMERS,
            "src/acme/db.clj": lines(
                "(ns acme.db (:require [next.jdbc.sql :as sql]))",
                '(defn orders [conn] (sql/query conn ["select * from orders"]))',
                "(defn customer [conn id] (sql/get-by-id conn :customers id))",
                "(defn insert-order! [conn o] (sql/insert! conn :orders o))",
            ),
            "src/acme/config.clj": lines(
                "(ns acme.config (:require [aero.core :as aero] [clojure.java.io :as io]))",
                "(defn load! [profile]",
                '  (merge (aero/read-config (io/resource "config/base.edn") {:profile profile})',
                '         (aero/read-config (io/resource (str "config/" (name profile) ".edn")))))',
            ),
            "test/acme/api/middleware_test.clj": lines(
                "(ns acme.api.middleware-test",
                "  (:require [acme.api.middleware :as mw]",
                "            [clojure.test :refer [deftest is]]))",
                "",
                "(deftest unknown-key-is-401",
                "  (with-redefs [acme.api.auth/client-for (constantly nil)]",
                "    (is (= 401 (:status ((mw/wrap-api-key identity nil) {:headers {}}))))))",
            ),
            "test/acme/api/handlers/orders_test.clj": lines(
                "(ns acme.api.handlers.orders-test (:require [clojure.test :refer [deftest is]]))",
                "(deftest placeholder (is true))",
            ),
            "dev/user.clj": lines(
                "(ns user (:require [acme.config :as config]))",
                "(comment (config/load! :dev))",
            ),
        },
        days_ago=150,
    )
    s.commit(
        "API keys: 401 for unknown keys",
        {
            "src/acme/api/middleware.clj": CLJ_MIDDLEWARE,
            "src/acme/api/routes.clj": CLJ_ROUTES,
        },
        days_ago=20,
    )
    s.intent(
        "Rate-limit the public /v1 API: 60 requests per minute per API key, answering 429 "
        "with a Retry-After header",
        {"src/acme/api/middleware.clj": "the limiting middleware"},
        hours_ago=3,
    )
    before = s.checkpoint("before rate limit")
    s.agent(
        {
            "src/acme/api/rate_limit.clj": lines(
                "(ns acme.api.rate-limit",
                '  "A fixed-window counter per key, kept in an atom (one process).")',
                "",
                "(defn new-limiter [per-minute] {:per-minute per-minute :windows (atom {})})",
                "",
                "(defn allow?",
                '  "[allowed? seconds-until-reset] for `k` at `now-ms`."',
                "  [{:keys [per-minute windows]} k now-ms]",
                "  (let [window (quot now-ms 60000)",
                "        n (-> (swap! windows update k",
                "                     (fn [[w c]] (if (= w window) [w (inc c)] [window 1])))",
                "              (get k) second)]",
                "    [(<= n per-minute) (- 60 (quot (mod now-ms 60000) 1000))]))",
            ),
            "src/acme/api/middleware.clj": lines(
                "(ns acme.api.middleware",
                "  (:require [acme.api.auth :as auth]",
                "            [acme.api.rate-limit :as rl]",
                "            [ring.util.response :as resp]))",
                "",
                "(defn wrap-api-key [handler db]",
                "  (fn [req]",
                '    (if-let [client (auth/client-for db (get-in req [:headers "x-api-key"]))]',
                "      (handler (assoc req :client client))",
                '      (resp/status (resp/response {:error "unknown API key"}) 401))))',
                "",
                "(defn wrap-rate-limit [handler limiter]",
                "  (fn [req]",
                "    (let [[ok? retry] (rl/allow? limiter (get-in req [:client :key])",
                "                                 (System/currentTimeMillis))]",
                "      (if ok?",
                "        (handler req)",
                '        (-> (resp/response {:error "rate limit exceeded"})',
                "            (resp/status 429)",
                '            (resp/header "Retry-After" (str retry)))))))',
            ),
            # Drift: an unrelated handler "tidied" (cljfmt and a rename of the binding).
            "src/acme/api/handlers/customers.clj": lines(
                "(ns acme.api.handlers.customers",
                "  (:require",
                "   [acme.db :as db]))",
                "",
                "(defn get-customer",
                "  [conn]",
                "  (fn [{{:keys [id]} :path-params}]",
                "    (if-let [customer (db/customer conn (parse-long id))]",
                "      {:status 200 :body customer}",
                "      {:status 404})))",
            ),
            # Drift: production logging turned up to debug.
            "resources/config/prod.edn": CLJ_PROD_EDN.replace(":info", ":debug"),
        }
    )
    # Taken after the customers handler and the prod config had already drifted.
    s.checkpoint("limiter and middleware")
    s.agent(
        {
            "src/acme/api/routes.clj": CLJ_ROUTES.replace(
                "            [acme.api.middleware :as mw]))",
                "            [acme.api.middleware :as mw]\n"
                "            [acme.api.rate-limit :as rl]))",
            )
            .replace(
                "(defn routes [{:keys [db]}]\n",
                "(defn routes [{:keys [db rate-limit]}]\n"
                "  (let [limiter (rl/new-limiter (:per-minute rate-limit))]\n",
            )
            .replace(
                "[[mw/wrap-api-key db]]",
                "[[mw/wrap-api-key db] [mw/wrap-rate-limit limiter]]",
            )
            .replace(
                "{:get (customers/get-customer db)}]]])", "{:get (customers/get-customer db)}]]]))"
            ),
            "resources/config/base.edn": CLJ_BASE_EDN.replace(
                " :log-level", " :rate-limit {:per-minute 60}\n :log-level"
            ),
            "test/acme/api/rate_limit_test.clj": lines(
                "(ns acme.api.rate-limit-test",
                "  (:require [acme.api.rate-limit :as rl]",
                "            [clojure.test :refer [deftest is]]))",
                "",
                "(deftest sixty-first-request-is-refused",
                "  (let [l (rl/new-limiter 60)]",
                '    (dotimes [_ 60] (rl/allow? l "k" 1000))',
                '    (is (= [false 59] (rl/allow? l "k" 1000)))))',
            ),
            "test/acme/api/middleware_test.clj": (
                s.root / "test/acme/api/middleware_test.clj"
            ).read_text(encoding="utf-8")
            + lines(
                "",
                "(deftest over-limit-is-429-with-retry-after",
                "  (let [h (mw/wrap-rate-limit (constantly {:status 200})",
                "                              (acme.api.rate-limit/new-limiter 0))",
                '        r (h {:client {:key "k"}})]',
                "    (is (= 429 (:status r)))",
                '    (is (contains? (:headers r) "Retry-After"))))',
            ),
            "README.md": (s.root / "README.md").read_text(encoding="utf-8")
            + lines(
                "", "Rate limit: 60 requests per minute per API key (`:rate-limit` in config)."
            ),
            # Drift: a dependency bump nobody asked for.
            "deps.edn": CLJ_DEPS.replace('"1.11.0"', '"1.12.2"'),
            # tools.build output (target/ is not ignored here) and clj-kondo's cache.
            "target/classes/acme/api/rate_limit__init.class": CLASS,
            "target/classes/acme/api/middleware__init.class": CLASS + b"mw",
            "target/acme-api-standalone.jar": b"PK\x03\x04\x14\x00\x08\x08" + bytes(40),
            ".clj-kondo/.cache/v1/clj/acme.api.rate-limit.transit.json": lines(
                '["^ ","~:filename","src/acme/api/rate_limit.clj","~:clj",["^ "]]'
            ),
        }
    )
    s.fine(
        "src/acme/api/middleware.clj",
        "src/acme/api/rate_limit.clj",
        "src/acme/api/routes.clj",
        "resources/config/base.edn",  # the :rate-limit key routes reads
        "test/acme/api/rate_limit_test.clj",
        "test/acme/api/middleware_test.clj",
        "README.md",
    )
    s.drift("src/acme/api/handlers/customers.clj", "resources/config/prod.edn", "deps.edn")
    s.excluded(
        "target/classes/acme/api/rate_limit__init.class",
        "target/classes/acme/api/middleware__init.class",
        "target/acme-api-standalone.jar",
        ".clj-kondo/.cache/v1/clj/acme.api.rate-limit.transit.json",
    )
    # The second checkpoint holds two drifted files; the first predates everything.
    s.safe_checkpoint(before)
    s.note = "Clojure: checkpoint before + one after drift, target/ and clj-kondo cache"


# -- 9. AWS CDK (TypeScript): a DLQ and an alarm for the order processor --------------------------


CDK_API_STACK = lines(
    "import { Duration, Stack, StackProps } from 'aws-cdk-lib'",
    "import * as lambda from 'aws-cdk-lib/aws-lambda'",
    "import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'",
    "import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources'",
    "import * as sqs from 'aws-cdk-lib/aws-sqs'",
    "import { Construct } from 'constructs'",
    "",
    "export class OrdersApiStack extends Stack {",
    "  readonly ordersQueue: sqs.Queue",
    "",
    "  constructor(scope: Construct, id: string, props?: StackProps) {",
    "    super(scope, id, props)",
    "    this.ordersQueue = new sqs.Queue(this, 'OrdersQueue', {",
    "      visibilityTimeout: Duration.seconds(60),",
    "    })",
    "    const processOrder = new NodejsFunction(this, 'ProcessOrder', {",
    "      entry: 'lambda/process-order/index.ts',",
    "      runtime: lambda.Runtime.NODEJS_20_X,",
    "      timeout: Duration.seconds(30),",
    "    })",
    "    processOrder.addEventSource(new SqsEventSource(this.ordersQueue, { batchSize: 10 }))",
    "  }",
    "}",
)

CDK_BIN = lines(
    "#!/usr/bin/env node",
    "import { App } from 'aws-cdk-lib'",
    "import { DataStack } from '../lib/data-stack'",
    "import { MonitoringStack } from '../lib/monitoring-stack'",
    "import { OrdersApiStack } from '../lib/orders-api-stack'",
    "",
    "const app = new App()",
    "const prod = { account: '111122223333', region: 'eu-west-1' }",
    "const staging = { account: '444455556666', region: 'eu-west-1' }",
    "",
    "new DataStack(app, 'Data-prod', { env: prod })",
    "const api = new OrdersApiStack(app, 'OrdersApi-prod', { env: prod })",
    "new MonitoringStack(app, 'Monitoring-prod', { env: prod, queue: api.ordersQueue })",
    "new OrdersApiStack(app, 'OrdersApi-staging', { env: staging })",
)

CDK_MONITORING = lines(
    "import { Duration, Stack, StackProps } from 'aws-cdk-lib'",
    "import * as cw from 'aws-cdk-lib/aws-cloudwatch'",
    "import * as sqs from 'aws-cdk-lib/aws-sqs'",
    "import { Construct } from 'constructs'",
    "",
    "export class MonitoringStack extends Stack {",
    "  constructor(scope: Construct, id: string, props: StackProps & { queue: sqs.IQueue }) {",
    "    super(scope, id, props)",
    "    new cw.Dashboard(this, 'Orders', {",
    "      widgets: [[new cw.GraphWidget({",
    "        title: 'Queue depth',",
    "        left: [props.queue.metricApproximateNumberOfMessagesVisible({",
    "          period: Duration.minutes(5),",
    "        })],",
    "        width: 12,",
    "      })]],",
    "    })",
    "  }",
    "}",
)

CDK_HANDLER = lines(
    "import type { SQSEvent } from 'aws-lambda'",
    "import { saveOrder } from '../shared/db'",
    "",
    "export async function handler(event: SQSEvent) {",
    "  for (const record of event.Records) {",
    "    try {",
    "      await saveOrder(JSON.parse(record.body))",
    "    } catch (err) {",
    "      console.error('order failed', record.messageId, err)",
    "    }",
    "  }",
    "}",
)

CDK_GET_ORDER = lines(
    "import type { APIGatewayProxyEvent } from 'aws-lambda'",
    "import { getOrder } from '../shared/db'",
    "",
    "export async function handler(event: APIGatewayProxyEvent) {",
    "  const order = await getOrder(event.pathParameters?.id ?? '')",
    "  if (!order) return { statusCode: 404, body: '' }",
    "  return { statusCode: 200, body: JSON.stringify(order) }",
    "}",
)


def _cdk_pkg(cdk: str) -> str:
    return _json(
        {
            "name": "orders-infra",
            "version": "0.1.0",
            "bin": {"orders-infra": "bin/orders-infra.js"},
            "scripts": {"build": "tsc", "test": "jest", "cdk": "cdk"},
            "dependencies": {"aws-cdk-lib": cdk, "constructs": "^10.3.0"},
            "devDependencies": {
                "@types/aws-lambda": "^8.10.140",
                "aws-cdk": cdk,
                "jest": "^29.7.0",
                "ts-jest": "^29.1.5",
                "typescript": "~5.4.5",
            },
        }
    )


def _cdk_lock(cdk: str) -> str:
    return _json(
        {
            "name": "orders-infra",
            "lockfileVersion": 3,
            "packages": {
                "": {"name": "orders-infra", "version": "0.1.0"},
                "node_modules/aws-cdk": {"version": cdk, "dev": True},
                "node_modules/aws-cdk-lib": {"version": cdk, "bundleDependencies": ["yaml"]},
                "node_modules/constructs": {"version": "10.3.0"},
            },
        }
    )


def _snap(dlq: bool) -> str:
    resources = ["AWS::SQS::Queue", "AWS::Lambda::Function", "AWS::Lambda::EventSourceMapping"]
    if dlq:
        resources += ["AWS::SQS::Queue (Dlq)", "AWS::CloudWatch::Alarm"]
    body = ",\n".join(f'  "{r}"' for r in resources)
    return lines(
        "// Jest Snapshot v1, https://goo.gl/fbAQLP",
        "",
        "exports[`OrdersApiStack matches the snapshot 1`] = `",
        "[",
        body,
        "]",
        "`;",
    )


def cdk_dead_letter_queue(s: Scene) -> None:
    s.commit(
        "orders-infra: CDK app for the orders service",
        {
            ".gitignore": lines("node_modules/", ".env"),
            "README.md": lines("# orders-infra", "", "`npx cdk diff`, `npx cdk deploy --all`."),
            "package.json": _cdk_pkg("2.146.0"),
            "package-lock.json": _cdk_lock("2.146.0"),
            "tsconfig.json": _json({"compilerOptions": {"target": "ES2022", "strict": True}}),
            "jest.config.js": lines(
                "module.exports = { preset: 'ts-jest', testEnvironment: 'node' }"
            ),
            "cdk.json": _json(
                {
                    "app": "npx ts-node --prefer-ts-exts bin/orders-infra.ts",
                    "context": {"@aws-cdk/aws-lambda:recognizeLayerVersion": True},
                }
            ),
            "cdk.context.json": _json(
                {"availability-zones:account=111122223333:region=eu-west-1": ["eu-west-1a"]}
            ),
            "bin/orders-infra.ts": CDK_BIN,
            "lib/orders-api-stack.ts": CDK_API_STACK,
            "lib/data-stack.ts": lines(
                "import { RemovalPolicy, Stack, StackProps } from 'aws-cdk-lib'",
                "import * as ddb from 'aws-cdk-lib/aws-dynamodb'",
                "import { Construct } from 'constructs'",
                "",
                "export class DataStack extends Stack {",
                "  constructor(scope: Construct, id: string, props?: StackProps) {",
                "    super(scope, id, props)",
                "    new ddb.Table(this, 'Orders', {",
                "      partitionKey: { name: 'pk', type: ddb.AttributeType.STRING },",
                "      removalPolicy: RemovalPolicy.RETAIN,",
                "    })",
                "  }",
                "}",
            ),
            "lib/monitoring-stack.ts": CDK_MONITORING,
            "lambda/process-order/index.ts": CDK_HANDLER,
            "lambda/get-order/index.ts": CDK_GET_ORDER,
            "lambda/shared/db.ts": lines(
                "export async function saveOrder(o: unknown) { return o }",
                "export async function getOrder(id: string) { return id ? { id } : null }",
            ),
            "test/orders-api-stack.test.ts": lines(
                "import { App } from 'aws-cdk-lib'",
                "import { Template } from 'aws-cdk-lib/assertions'",
                "import { OrdersApiStack } from '../lib/orders-api-stack'",
                "",
                "test('OrdersApiStack matches the snapshot', () => {",
                "  const t = Template.fromStack(new OrdersApiStack(new App(), 'T'))",
                "  const types = Object.values(t.toJSON().Resources).map((r: any) => r.Type)",
                "  expect(types).toMatchSnapshot()",
                "})",
            ),
            "test/__snapshots__/orders-api-stack.test.ts.snap": _snap(dlq=False),
            "test/data-stack.test.ts": lines(
                "import { App } from 'aws-cdk-lib'",
                "import { Template } from 'aws-cdk-lib/assertions'",
                "import { DataStack } from '../lib/data-stack'",
                "test('table is retained', () => {",
                "  Template.fromStack(new DataStack(new App(), 'D'))",
                "    .hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' })",
                "})",
            ),
        },
        days_ago=100,
    )
    s.commit(
        "Orders queue: batch size 10, 60 s visibility",
        {
            "lib/orders-api-stack.ts": CDK_API_STACK,
            "lambda/process-order/index.ts": CDK_HANDLER,
            "test/__snapshots__/orders-api-stack.test.ts.snap": _snap(dlq=False),
        },
        days_ago=18,
    )
    s.commit(
        "Staging stack for the orders API",
        {"bin/orders-infra.ts": CDK_BIN, "lib/orders-api-stack.ts": CDK_API_STACK},
        days_ago=7,
    )
    s.intent(
        "Give the process-order Lambda's queue a dead-letter queue (14-day retention, after 3 "
        "receives) and an alarm as soon as anything lands in it; failed records must reach it",
        {"lib/orders-api-stack.ts": "queue, DLQ and alarm"},
        # The agent's hook recorded every file it patched — bin/orders-infra.ts too, which
        # a reviewer still calls drift: being touched by the agent is not being asked for.
        patches=["lib/orders-api-stack.ts", "lambda/process-order/index.ts", "bin/orders-infra.ts"],
        hours_ago=1,
    )
    s.agent(
        {
            "lib/orders-api-stack.ts": CDK_API_STACK.replace(
                "import { Construct } from 'constructs'\n",
                "import { Construct } from 'constructs'\n"
                "import { DlqAlarm } from './constructs/dlq-alarm'\n",
            )
            .replace(
                "    this.ordersQueue = new sqs.Queue(this, 'OrdersQueue', {\n"
                "      visibilityTimeout: Duration.seconds(60),\n"
                "    })\n",
                "    const dlq = new sqs.Queue(this, 'OrdersDlq', {\n"
                "      retentionPeriod: Duration.days(14),\n"
                "    })\n"
                "    this.ordersQueue = new sqs.Queue(this, 'OrdersQueue', {\n"
                "      visibilityTimeout: Duration.seconds(60),\n"
                "      deadLetterQueue: { queue: dlq, maxReceiveCount: 3 },\n"
                "    })\n"
                "    new DlqAlarm(this, 'OrdersDlqAlarm', { queue: dlq })\n",
            )
            .replace("{ batchSize: 10 }", "{ batchSize: 10, reportBatchItemFailures: true }"),
            "lib/constructs/dlq-alarm.ts": lines(
                "import { Duration } from 'aws-cdk-lib'",
                "import * as cw from 'aws-cdk-lib/aws-cloudwatch'",
                "import * as sqs from 'aws-cdk-lib/aws-sqs'",
                "import { Construct } from 'constructs'",
                "",
                "/** Alarms as soon as one message is visible in a dead-letter queue. */",
                "export class DlqAlarm extends Construct {",
                "  readonly alarm: cw.Alarm",
                "  constructor(scope: Construct, id: string, props: { queue: sqs.IQueue }) {",
                "    super(scope, id)",
                "    this.alarm = props.queue",
                "      .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) })",
                "      .createAlarm(this, 'Alarm', {",
                "        threshold: 1,",
                "        evaluationPeriods: 1,",
                "        comparisonOperator:",
                "          cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,",
                "      })",
                "  }",
                "}",
            ),
            "lambda/process-order/index.ts": lines(
                "import type { SQSBatchResponse, SQSEvent } from 'aws-lambda'",
                "import { saveOrder } from '../shared/db'",
                "",
                "export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {",
                "  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = []",
                "  for (const record of event.Records) {",
                "    try {",
                "      await saveOrder(JSON.parse(record.body))",
                "    } catch (err) {",
                "      console.error('order failed', record.messageId, err)",
                "      batchItemFailures.push({ itemIdentifier: record.messageId })",
                "    }",
                "  }",
                "  return { batchItemFailures }",
                "}",
            ),
            "test/orders-api-stack.test.ts": (s.root / "test/orders-api-stack.test.ts").read_text(
                encoding="utf-8"
            )
            + lines(
                "",
                "test('orders queue sends to a DLQ after 3 receives', () => {",
                "  Template.fromStack(new OrdersApiStack(new App(), 'T')).hasResourceProperties(",
                "    'AWS::SQS::Queue', { RedrivePolicy: { maxReceiveCount: 3 } })",
                "})",
            ),
            # `jest -u` after the stack changed: the reviewer reads it as the test's new
            # expectation for this very change, and keeps it.
            "test/__snapshots__/orders-api-stack.test.ts.snap": _snap(dlq=True),
            # Drift: production moved to another region.
            "bin/orders-infra.ts": CDK_BIN.replace(
                "const prod = { account: '111122223333', region: 'eu-west-1' }",
                "const prod = { account: '111122223333', region: 'us-east-1' }",
            ),
            # Drift: the dashboard's period and width changed.
            "lib/monitoring-stack.ts": CDK_MONITORING.replace(
                "Duration.minutes(5)", "Duration.minutes(1)"
            ).replace("width: 12", "width: 24"),
            # Drift: a CDK upgrade nobody asked for — and the lockfile with it.
            "package.json": _cdk_pkg("2.160.0"),
            "package-lock.json": _cdk_lock("2.160.0"),
            # Drift: prettier over a Lambda the change does not touch.
            "lambda/get-order/index.ts": CDK_GET_ORDER.replace("'", '"').replace(")\n", ");\n"),
            # `cdk synth` output: cdk.out/ is missing from this project's .gitignore.
            "cdk.out/cdk.out": _json({"version": "36.0.0"}),
            "cdk.out/manifest.json": _json({"version": "36.0.0", "artifacts": {}}),
            "cdk.out/OrdersApi-prod.template.json": _json(
                {"Resources": {"OrdersDlq4B2E": {"Type": "AWS::SQS::Queue"}}}
            ),
            "cdk.out/asset.5f2a9c0e1d/index.js": lines(
                '"use strict";var a=Object.defineProperty;exports.handler=async function(e){};'
            ),
        }
    )
    s.fine(
        "lib/orders-api-stack.ts",
        "lib/constructs/dlq-alarm.ts",
        "lambda/process-order/index.ts",  # "failed records must reach it"
        "test/orders-api-stack.test.ts",
        "test/__snapshots__/orders-api-stack.test.ts.snap",
    )
    s.drift(
        "bin/orders-infra.ts",
        "lib/monitoring-stack.ts",
        "package.json",
        "package-lock.json",  # follows the drifted manifest
        "lambda/get-order/index.ts",
    )
    s.excluded(
        "cdk.out/cdk.out",
        "cdk.out/manifest.json",
        "cdk.out/OrdersApi-prod.template.json",
        "cdk.out/asset.5f2a9c0e1d/index.js",
    )
    s.safe_commit()  # no checkpoint
    s.note = "CDK: drift among observed patches, drifted manifest + lockfile, untracked cdk.out/"


# -- 10. LaTeX paper: a bootstrap robustness check for reviewer 2 --------------------------------


TEX_RESULTS = lines(
    "\\section{Results}",
    "\\label{sec:results}",
    "",
    "Table~\\ref{tab:main} reports accuracy on the three benchmarks.",
    "Our method improves over the strongest baseline by 4.1 points on average.",
    "",
    "\\input{tables/main_results}",
)

TEX_INTRO = lines(
    "\\section{Introduction}",
    "",
    "Sparse retrieval remains competitive on long-tail queries.",
    "Our contributions are: (i) a hybrid index, (ii) a training recipe, and (iii) an",
    "evaluation on three public benchmarks.",
)

TEX_RELATED = lines(
    "\\section{Related Work}",
    "",
    "Dense retrievers~\\cite{karpukhin2020dpr} learn query and passage encoders jointly. Sparse",
    "methods such as BM25~\\cite{robertson2009bm25} remain strong baselines.",
)

TEX_CONCLUSION = lines(
    "\\section{Conclusion}",
    "",
    "We presented a hybrid retriever.",
    "",
    "\\paragraph{Limitations.} We evaluate on English only; the index doubles memory use.",
)

TEX_RESPONSE = lines(
    "\\documentclass{article}",
    "\\begin{document}",
    "\\section*{Response to Reviewer 2}",
    "\\paragraph{R2.1} We fixed the notation in Section 3.",
    "\\paragraph{R2.2} We added the missing baseline.",
    "\\end{document}",
)

TEX_MAKE_TABLES = lines(
    '"""Write the LaTeX tables in tables/ from data/results.csv."""',
    "",
    "import csv",
    "from pathlib import Path",
    "",
    'HEADER = "% Generated by scripts/make_tables.py -- do not edit by hand\\n"',
    "",
    "",
    "def main_results(rows):",
    "    body = \"\\n\".join(f\"{r['method']} & {r['acc']} \\\\\\\\\" for r in rows)",
    '    return HEADER + "\\\\begin{table}\\\\label{tab:main}\\n" + body + "\\n\\\\end{table}\\n"',
    "",
    "",
    'if __name__ == "__main__":',
    '    rows = list(csv.DictReader(open("data/results.csv")))',
    '    Path("tables/main_results.tex").write_text(main_results(rows))',
)

TEX_MAIN = lines(
    "\\documentclass[sigconf,review,anonymous]{acmart}",
    "\\usepackage{booktabs}",
    "\\begin{document}",
    "\\title{Hybrid Sparse--Dense Retrieval for Long-Tail Queries}",
    "\\input{sections/abstract}",
    "\\maketitle",
    "\\input{sections/introduction}",
    "\\input{sections/related}",
    "\\input{sections/method}",
    "\\input{sections/results}",
    "\\input{sections/conclusion}",
    "\\bibliographystyle{ACM-Reference-Format}",
    "\\bibliography{refs}",
    "\\end{document}",
)

TEX_REFS = lines(
    "@inproceedings{karpukhin2020dpr, title={Dense Passage Retrieval}, year={2020}}",
    "@article{robertson2009bm25, title={The Probabilistic Relevance Framework}, year={2009}}",
)


def latex_bootstrap_check(s: Scene) -> None:
    s.commit(
        "Submission version",
        {
            ".gitignore": lines("*.swp", ".DS_Store"),
            ".latexmkrc": lines("$pdf_mode = 1;", "$out_dir = 'build';"),
            "Makefile": lines(
                "paper:", "\tlatexmk main.tex", "tables:", "\tpython scripts/make_tables.py"
            ),
            "main.tex": TEX_MAIN,
            "refs.bib": TEX_REFS,
            # The publisher's class file, copied in as they ask: vendored, never edited.
            "acmart.cls": lines(
                "%% acmart.cls -- the ACM master template (LPPL 1.3c)",
                "\\NeedsTeXFormat{LaTeX2e}",
                "\\ProvidesClass{acmart}[2024/05/27 v2.08]",
            ),
            "sections/abstract.tex": lines(
                "\\begin{abstract}", "We combine sparse and dense retrieval.", "\\end{abstract}"
            ),
            "sections/introduction.tex": TEX_INTRO,
            "sections/related.tex": TEX_RELATED,
            "sections/method.tex": lines("\\section{Method}", "", "We interpolate the two scores."),
            "sections/results.tex": TEX_RESULTS,
            "sections/conclusion.tex": TEX_CONCLUSION,
            "tables/main_results.tex": lines(
                "% Generated by scripts/make_tables.py -- do not edit by hand",
                "\\begin{table}\\label{tab:main}",
                "BM25 & 61.2 \\\\",
                "Ours & 65.3 \\\\",
                "\\end{table}",
            ),
            "scripts/make_tables.py": TEX_MAKE_TABLES,
            "scripts/stats.py": lines(
                '"""Summary statistics over per-query scores."""',
                "",
                "",
                "def mean(xs):",
                "    return sum(xs) / len(xs)",
            ),
            "data/results.csv": lines("method,acc", "BM25,61.2", "Ours,65.3"),
            "data/per_query.csv": lines("qid,bm25,ours", "1,0,1", "2,1,1", "3,0,0"),
            "figures/pipeline.pdf": b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n",
            "response/response_to_reviewers.tex": lines(
                "\\documentclass{article}", "\\begin{document}", "\\end{document}"
            ),
        },
        days_ago=60,
    )
    s.commit(
        "Rebuttal: first answers to reviewer 2, results wording",
        {
            "response/response_to_reviewers.tex": TEX_RESPONSE,
            "sections/results.tex": TEX_RESULTS,
            "sections/introduction.tex": TEX_INTRO,
        },
        days_ago=4,
    )
    s.intent(
        "Reviewer 2, point 3: add a bootstrap robustness check (95% confidence intervals over "
        "queries) as a new table in Results, and answer R2.3 in the response letter",
        {
            "sections/results.tex": "the new paragraph and table",
            "response/response_to_reviewers.tex": "the answer to R2.3",
        },
        hours_ago=3,
    )
    # First turn: the statistics and the generated table — all in scope.
    s.agent(
        {
            "scripts/stats.py": (s.root / "scripts/stats.py").read_text(encoding="utf-8")
            + lines(
                "",
                "",
                "def bootstrap_ci(xs, n=10_000, alpha=0.05, seed=0):",
                '    """Percentile bootstrap interval of the mean."""',
                "    import random",
                "",
                "    rng = random.Random(seed)",
                "    means = sorted(mean(rng.choices(xs, k=len(xs))) for _ in range(n))",
                "    return means[int(n * alpha / 2)], means[int(n * (1 - alpha / 2)) - 1]",
            ),
            "scripts/make_tables.py": TEX_MAKE_TABLES.replace(
                "from pathlib import Path\n",
                "from pathlib import Path\n\nfrom stats import bootstrap_ci\n",
            ).replace(
                '    Path("tables/main_results.tex").write_text(main_results(rows))\n',
                '    Path("tables/main_results.tex").write_text(main_results(rows))\n'
                '    q = list(csv.DictReader(open("data/per_query.csv")))\n'
                "    lo, hi = bootstrap_ci([float(r['ours']) - float(r['bm25']) for r in q])\n"
                '    Path("tables/bootstrap.tex").write_text(\n'
                '        HEADER + f"\\\\begin{{table}}\\\\label{{tab:bootstrap}}\\n'
                'Ours -- BM25 & [{lo:.1f}, {hi:.1f}] \\\\\\\\\\n\\\\end{{table}}\\n"\n'
                "    )\n",
            ),
            "tables/bootstrap.tex": lines(
                "% Generated by scripts/make_tables.py -- do not edit by hand",
                "\\begin{table}\\label{tab:bootstrap}",
                "Ours -- BM25 & [2.9, 5.4] \\\\",
                "\\end{table}",
            ),
        }
    )
    mid = s.checkpoint("bootstrap table generated")
    s.agent(
        {
            "sections/results.tex": TEX_RESULTS
            + lines(
                "",
                "\\paragraph{Robustness.} A percentile bootstrap over queries~\\cite{efron1979}",
                "(10{,}000 resamples) gives a 95\\% interval of [2.9, 5.4] points for the",
                "improvement over BM25 (Table~\\ref{tab:bootstrap}); it excludes zero.",
                "",
                "\\input{tables/bootstrap}",
            ),
            "response/response_to_reviewers.tex": TEX_RESPONSE.replace(
                "\\end{document}",
                "\\paragraph{R2.3} We added a bootstrap robustness check (Section~5,\n"
                "Table~4): the 95\\% interval of the improvement is [2.9, 5.4].\n\\end{document}",
            ),
            "refs.bib": TEX_REFS
            + lines(
                "@article{efron1979, title={Bootstrap Methods: Another Look at the Jackknife}}"
            ),
            # Drift: the contributions reworded — not what reviewer 2 asked.
            "sections/introduction.tex": TEX_INTRO.replace(
                "Our contributions are: (i) a hybrid index, (ii) a training recipe, and (iii) an\n"
                "evaluation on three public benchmarks.",
                "We make three contributions. First, a hybrid index. Second, a simple training\n"
                "recipe. Third, a thorough evaluation on three public benchmarks.",
            ),
            # Drift: one-sentence-per-line reflow of an untouched section.
            "sections/related.tex": lines(
                "\\section{Related Work}",
                "",
                "Dense retrievers~\\cite{karpukhin2020dpr} learn query and passage encoders",
                "jointly.",
                "Sparse methods such as BM25~\\cite{robertson2009bm25} remain strong baselines.",
            ),
        }
    )
    s.checkpoint("results and response written")  # already holds both drifted sections
    s.agent(
        {
            # Drift: the limitations paragraph dropped "to make room".
            "sections/conclusion.tex": lines(
                "\\section{Conclusion}", "", "We presented a hybrid retriever."
            ),
            # latexmk's output directory (from .latexmkrc), not ignored.
            "build/main.pdf": b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n" + bytes(64),
            "build/main.aux": lines(
                "\\relax", "\\citation{efron1979}", "\\newlabel{tab:bootstrap}{{4}{6}}"
            ),
            "build/main.log": lines(
                "This is pdfTeX, Version 3.141592653-2.6-1.40.26",
                "Output written on build/main.pdf (9 pages).",
            ),
            "build/main.bbl": lines("\\begin{thebibliography}{3}", "\\end{thebibliography}"),
            "build/main.fdb_latexmk": lines(
                "# Fdb version 4", '["pdflatex"] 1732611000 "main.tex" "build/main.pdf" "main"'
            ),
        }
    )
    s.fine(
        "scripts/stats.py",
        "scripts/make_tables.py",
        "sections/results.tex",
        "response/response_to_reviewers.tex",
        "refs.bib",  # the citation the new paragraph uses
    )
    s.drift("sections/introduction.tex", "sections/related.tex", "sections/conclusion.tex")
    # tables/bootstrap.tex is the script's output (its header says so): it is regenerated,
    # not reviewed — the reviewer reviews make_tables.py and the paragraph citing it.
    s.excluded(
        "tables/bootstrap.tex",
        "build/main.pdf",
        "build/main.aux",
        "build/main.log",
        "build/main.bbl",
        "build/main.fdb_latexmk",
    )
    # The later checkpoint holds the drifted introduction and related work; the mid one
    # keeps the in-scope first turn and predates all drift.
    s.safe_checkpoint(mid)
    s.note = "LaTeX: mid + after-drift checkpoints, build/ from .latexmkrc, generated table"


FRESH9: list[Scenario] = [
    Scenario(
        name="fresh9_nuxt_newsletter_footer",
        build=nuxt_newsletter_footer,
        held_out=False,
        about="Nuxt 3: footer signup + server route; co-changed header; rename drift; .output/",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_tauri_export_note",
        build=tauri_export_note,
        held_out=False,
        about="Tauri 2: Rust command + toolbar + dialog plugin; gen/schemas; user WIP checkpoint",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_electron_auto_update",
        build=electron_auto_update,
        held_out=False,
        about="Electron: electron-updater in main/preload/renderer; mid-session checkpoint; out/",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_chrome_extension_block_today",
        build=chrome_extension_block_today,
        held_out=False,
        about="MV3 extension: popup + worker + locales; checkpoint after drift; tracked dist/",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_django_celery_digest",
        build=django_celery_digest,
        held_out=False,
        about="Django+Celery beat: migration, cron command removed, prod setting drift; 2 ckpts",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_godot_double_jump",
        build=godot_double_jump,
        held_out=False,
        about="Godot 4: scripts, scenes, .uid/.import, .godot/ cache; user tuning in checkpoint",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_r_package_complete_only",
        build=r_package_complete_only,
        held_out=False,
        about="R package: roxygen man/, pkgdown docs/, version bump; checkpoint before the work",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_clojure_rate_limit",
        build=clojure_rate_limit,
        held_out=False,
        about="Clojure/reitit: limiter, middleware, edn config; checkpoints before and after drift",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_cdk_dead_letter_queue",
        build=cdk_dead_letter_queue,
        held_out=False,
        about="AWS CDK: DLQ construct + snapshot; drift among observed patches; CDK bump; cdk.out/",
        fresh=True,
        batch=9,
    ),
    Scenario(
        name="fresh9_latex_bootstrap_check",
        build=latex_bootstrap_check,
        held_out=False,
        about="LaTeX paper: generated table, latexmk build/; mid and after-drift checkpoints",
        fresh=True,
        batch=9,
    ),
]
