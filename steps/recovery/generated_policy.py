"""The ``recovery.generated`` policy: how generated, vendored and build output is
recognised (see ``generated`` for the rules and their order).

Kept equal to ``policies/recovery.yaml`` (a test pins it): the code defaults
serve callers without a PolicySet, and the YAML shows users every list they can
override in ``.vibflow/policy.yaml``.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


def _check_regex(pattern: str) -> str:
    try:
        # Compiled as it runs, on a file's first bytes (and so kept in re's cache
        # for :attr:`GeneratedRules._marker_regexes`).
        re.compile(pattern.encode("utf-8"))
    except re.error as exc:
        raise ValueError(f"'{pattern}' is not a valid regular expression ({exc})") from exc
    return pattern


def _check_name(pattern: str) -> str:
    if not pattern or "\\" in pattern or pattern.startswith("/"):
        raise ValueError(f"'{pattern}' must be a project-relative name or glob using '/'")
    return pattern


def _check_file(path: str) -> str:
    parts = path.split("/")
    folders = "/".join(parts[:-1])
    if any(ch in folders for ch in "*?[]") or "" in parts or ".." in parts or "." in parts:
        raise ValueError(
            f"'{path}' must be one file's path from the folder holding the project file "
            "(a glob only in its last name, no '..', not a folder)"
        )
    return path


def _check_suffix(suffix: str) -> str:
    if not suffix.startswith(".") or len(suffix) < 2 or any(c in suffix for c in "/*?[]"):
        raise ValueError(f"'{suffix}' must be a file name's ending, such as '.pyi'")
    return suffix


def _check_suffix_or_none(suffix: str) -> str:
    return suffix and _check_suffix(suffix)


Regex = Annotated[str, AfterValidator(_check_regex)]
Name = Annotated[str, AfterValidator(_check_name)]


class Marker(BaseModel):
    """A header that says "a tool wrote this file"."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(description="How the plan names it, e.g. 'Code generated … DO NOT EDIT'.")
    pattern: Regex = Field(description="A regular expression searched in the first lines.")


class BuildOutput(BaseModel):
    """A folder that is a build tool's output when the folder holding it has one
    of the ecosystem's project files (``when``); with no ``when``, always."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    folder: Name
    when: tuple[Name, ...] = ()
    ecosystem: str = ""


# Kept equal to policies/recovery.yaml (a test pins it): the code defaults serve
# callers without a PolicySet.
_DOTNET = ("*.csproj", "*.fsproj", "*.vbproj")
_NUXT = ("nuxt.config.ts", "nuxt.config.js", "nuxt.config.mjs", "nitro.config.ts")
#: A Hugo site's configuration, at its root or in its config folder.
_HUGO = (
    "hugo.toml",
    "hugo.yaml",
    "hugo.json",
    "config/_default/hugo.toml",
    "config/_default/hugo.yaml",
    "config/_default/hugo.json",
)
#: Every Unity project has it; the editor writes its caches beside it.
_UNITY = "ProjectSettings/ProjectVersion.txt"
_UNITY_OUTPUTS = (
    "Library/",
    "Temp/",
    "Logs/",
    "obj/",
    "UserSettings/",
    "MemoryCaptures/",
)
_GRADLE = ("settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle")
_PLAYWRIGHT = (
    "playwright.config.ts",
    "playwright.config.js",
    "playwright.config.mjs",
    "playwright.config.cjs",
)
_HARDHAT = ("hardhat.config.js", "hardhat.config.ts", "hardhat.config.cjs", "hardhat.config.mjs")
_ELEVENTY = (
    ".eleventy.js",
    "eleventy.config.js",
    "eleventy.config.mjs",
    "eleventy.config.cjs",
)
_QUARTO = ("_quarto.yml", "_quarto.yaml")
_DOCUSAURUS = tuple(f"docusaurus.config.{e}" for e in ("js", "ts", "mjs", "cjs", "mts"))
_NEXTFLOW = ("nextflow.config", "main.nf")
#: A Yarn 2+ project: its settings file, which zero-installs and Plug'n'Play need.
_YARN_BERRY = (".yarnrc.yml",)
#: An ESP-IDF project's component manager: its lock and the main component's manifest.
_IDF_COMPONENTS = ("dependencies.lock", "main/idf_component.yml", "idf_component.yml")
DEFAULT_BUILD_OUTPUTS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("bin/", ("go.mod",), "Go"),
    ("bin/", _DOTNET, ".NET"),
    ("obj/", _DOTNET, ".NET"),
    ("target/", ("Cargo.toml",), "Rust"),
    ("target/", ("pom.xml",), "Maven"),
    (
        "out/",
        ("package.json", "tsconfig.json", "build.gradle", "build.gradle.kts", "*.iml"),
        "JS/TS or JVM",
    ),
    ("_build/", ("mix.exs",), "Elixir"),
    (".build/", ("Package.swift",), "Swift"),
    ("zig-out/", (), "Zig"),
    ("target/", ("dbt_project.yml",), "dbt"),
    ("logs/", ("dbt_project.yml",), "dbt"),
    ("public/assets/", ("Gemfile",), "Rails"),
    ("public/packs/", ("Gemfile",), "Rails"),
    ("public/packs-test/", ("Gemfile",), "Rails"),
    ("public/build/", ("artisan",), "Laravel"),
    ("priv/static/assets/", ("mix.exs",), "Phoenix"),
    ("public/", _HUGO, "Hugo"),
    ("resources/_gen/", _HUGO, "Hugo"),
    (".output/", _NUXT, "Nuxt/Nitro"),
    ("gen/schemas/", ("tauri.conf.json",), "Tauri"),
    (".godot/", ("project.godot",), "Godot"),
    (".import/", ("project.godot",), "Godot 3"),
    ("cdk.out/", ("cdk.json",), "AWS CDK"),
    (".serverless/", ("serverless.yml", "serverless.yaml", "serverless.ts"), "Serverless"),
    (".aws-sam/", ("samconfig.toml", "template.yaml"), "AWS SAM"),
    (".astro/", ("astro.config.mjs", "astro.config.ts", "astro.config.js"), "Astro"),
    *((f, (_UNITY,), "Unity") for f in _UNITY_OUTPUTS),
    (".kotlin/", _GRADLE, "Kotlin Gradle plugin"),
    *((f, _PLAYWRIGHT, "Playwright") for f in ("playwright-report/", "blob-report/")),
    ("autom4te.cache/", ("configure.ac", "configure.in"), "Autoconf"),
    ("_build/", ("rebar.config",), "Erlang rebar3"),
    (".zig-cache/", ("build.zig",), "Zig"),
    ("zig-cache/", ("build.zig",), "Zig"),
    (".jekyll-cache/", ("_config.yml", "_config.yaml"), "Jekyll"),
    ("_site/", ("_config.yml", "_config.yaml"), "Jekyll"),
    ("_site/", _ELEVENTY, "Eleventy"),
    ("site/", ("mkdocs.yml", "mkdocs.yaml"), "MkDocs"),
    ("CMakeFiles/", ("CMakeLists.txt",), "CMake in-source build"),
    ("blib/", ("Makefile.PL", "Build.PL"), "Perl"),
    ("_build/", ("Build.PL",), "Perl Module::Build"),
    ("package/", ("svelte.config.js", "svelte.config.ts"), "svelte-package"),
    *((f, ("foundry.toml",), "Foundry") for f in ("out/", "cache/", "broadcast/")),
    *((f, _HARDHAT, "Hardhat") for f in ("artifacts/", "cache/", "typechain-types/")),
    # `quarto render`'s frozen computations (committed on purpose, written by Quarto
    # only), its scratch folder and its default website and book output.
    *((f, _QUARTO, "Quarto") for f in ("_freeze/", ".quarto/", "_site/", "_book/")),
    (".docusaurus/", _DOCUSAURUS, "Docusaurus"),
    *((f, _NEXTFLOW, "Nextflow") for f in ("work/", ".nextflow/")),
    # Zero-install Yarn: the package cache is Yarn's copy of others' code (as
    # node_modules/); the pinned release and the Plug'n'Play loader, which run on every
    # command, are shown.
    *((f, _YARN_BERRY, "Yarn") for f in (".yarn/cache/", ".yarn/unplugged/")),
    (".turbo/", (), "Turborepo"),
    ("managed_components/", _IDF_COMPONENTS, "ESP-IDF component manager"),
)


class BuildFile(BaseModel):
    """One file a build tool writes at a fixed place (``file``, from the folder
    holding it) when that folder has one of the ecosystem's project files
    (``when``); with no ``when``, always. For output that is no folder of its own:
    Phoenix's digest manifest sits among hand-made static files."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    file: Annotated[Name, AfterValidator(_check_file)]
    when: tuple[Name, ...] = ()
    ecosystem: str = ""
    #: Only a symbolic link is such a file (the link `nix build` leaves): a
    #: hand-written file of the same name is the project's own.
    link: bool = False


class Companion(BaseModel):
    """A file a tool writes beside its source and names after it (``output``, the
    ending that replaces the source's ``source`` ending; ``source`` empty: the
    output is the source's whole name and this ending): ``main.aux`` and
    ``main.pdf`` beside ``main.tex``. Build output only while the last commit holds
    the source as a file (never before the first commit), and — for
    an output the last commit holds too — only when the change changed the source:
    a tool rewrites its output from its source, and a source the change brought, or
    left as it was, vouches for nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    output: Annotated[str, AfterValidator(_check_suffix)] = Field(description="e.g. '.aux'")
    source: Annotated[str, AfterValidator(_check_suffix_or_none)] = Field(
        default="", description="e.g. '.tex'; '' for the source's whole name"
    )
    ecosystem: str = ""


class TypeStub(BaseModel):
    """A type stub a generator writes beside the module it describes (protoc's
    ``--pyi_out`` writes ``x_pb2.pyi`` with no header of its own, beside a headed
    ``x_pb2.py``): generated when its module changed with it and carries a marker."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    stub: Annotated[str, AfterValidator(_check_suffix)] = Field(description="e.g. '.pyi'")
    module: Annotated[str, AfterValidator(_check_suffix)] = Field(description="e.g. '.py'")


DEFAULT_BUILD_FILES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("priv/static/cache_manifest.json", ("mix.exs",), "Phoenix digest"),
    ("public/mix-manifest.json", ("artisan",), "Laravel Mix"),
    ("public/hot", ("artisan",), "Laravel Vite dev server"),
    ("doc/tags", ("plugin", "lua", "ftplugin", "autoload"), "Vim's :helptags"),
    (
        "compile_commands.json",
        ("CMakeLists.txt", "meson.build"),
        "CMake/Meson compilation database",
    ),
    *(
        (f, ("CMakeLists.txt",), "CMake in-source build")
        for f in ("CMakeCache.txt", "cmake_install.cmake", "CTestTestfile.cmake")
    ),
    *(
        (f, ("Makefile.PL",), "Perl ExtUtils::MakeMaker")
        for f in ("Makefile", "MYMETA.json", "MYMETA.yml", "pm_to_blib")
    ),
    *((f, ("Build.PL",), "Perl Module::Build") for f in ("Build", "MYMETA.json", "MYMETA.yml")),
    # What `gem build` (beside the gemspec) and `rake build` (into pkg/) write.
    *((f, ("*.gemspec",), "RubyGems") for f in ("*.gem", "pkg/*.gem")),
    *((f, _NEXTFLOW, "Nextflow") for f in (".nextflow.log", ".nextflow.log.*")),
    # The install state `yarn install` writes (data only: the loader is shown).
    *((f, _YARN_BERRY, "Yarn") for f in (".pnp.data.json", ".yarn/install-state.gz")),
)
#: Build files that are only ever symbolic links: `nix build`'s links into the store.
DEFAULT_BUILD_LINKS: tuple[tuple[str, tuple[str, ...], str], ...] = tuple(
    (f, ("flake.nix", "default.nix"), "Nix") for f in ("result", "result-*")
)
#: What LaTeX and latexmk write beside ``X.tex``.
_LATEX = (
    ".aux", ".bbl", ".blg", ".bcf", ".run.xml", ".fdb_latexmk", ".fls", ".log", ".out",
    ".toc", ".lof", ".lot", ".nav", ".snm", ".vrb", ".synctex.gz", ".synctex", ".pdf",
    ".dvi", ".xdv", ".idx", ".ilg", ".ind", ".glo", ".gls", ".glg", ".ist", ".acn",
    ".acr", ".alg",
)  # fmt: skip
DEFAULT_COMPANIONS: tuple[tuple[str, str, str], ...] = (*((o, ".tex", "LaTeX") for o in _LATEX),)
DEFAULT_COMPILED = (
    "*.o",
    "*.a",
    "*.so",
    "*.so.*",
    "*.dylib",
    "*.dll",
    "*.exe",
    "*.class",
    "*.pdb",
    "*.beam",
    "*.elc",
    "*.pyd",
    "*.wasm",
)
DEFAULT_RUN_OUTPUTS = (
    "*.log",
    "erl_crash.dump",
    "hs_err_pid*",
    "core.[0-9]*",
    "coverage.xml",
    ".coverage",
    "lcov.info",
    "*.tfplan",
    "tfplan",
    "*.jl.cov",
    "*.jl.*.cov",
    "*.jl.mem",
    "*.jl.*.mem",
    "celerybeat-schedule",
    "celerybeat-schedule.db",
    "celerybeat-schedule.dat",
    "celerybeat-schedule.dir",
    "celerybeat-schedule.bak",
    "celerybeat.pid",
)
DEFAULT_LOCKFILES = (
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "bun.lockb",
    "deno.lock",
    "composer.lock",
    "Gemfile.lock",
    "Cargo.lock",
    "go.sum",
    "go.work.sum",
    "poetry.lock",
    "Pipfile.lock",
    "uv.lock",
    "pdm.lock",
    "pixi.lock",
    "packages.lock.json",
    "paket.lock",
    "gradle.lockfile",
    "mix.lock",
    "pubspec.lock",
    "Podfile.lock",
    "Package.resolved",
    "flake.lock",
    ".terraform.lock.hcl",
    "MODULE.bazel.lock",
    "dvc.lock",
    "dependencies.lock",
)
_DOTNET_AUTO_GENERATED = (
    r"\A(?:\xef\xbb\xbf)?(?:[ \t]*\r?\n)*"  # a byte-order mark, blank lines
    r"(?:[ \t]*//-{4,}[ \t]*\r?\n)?"  # a //---- rule
    r"[ \t]*//[ \t]*<auto-generated\b"
)
DEFAULT_MARKERS = (
    ("Code generated … DO NOT EDIT", r"Code generated .*DO NOT EDIT"),
    ("Generated by … DO NOT EDIT", r"(?i)\bgenerated\b.*\bdo not edit\b"),
    ("@generated", r"@generated\b"),
    ("auto-generated", r"(?i)\bauto-?generated\s+(?:file|code|by|from|with|using)\b"),
    (
        "This file was automatically generated",
        r"(?i)this (?:file|code) (?:was|is|has been) (?:automatically |auto-?)generated",
    ),
    ("GENERATED CODE - DO NOT MODIFY", r"(?i)\bgenerated code\b.*\bdo not modify\b"),
    ("Generated using SwiftGen", r"Generated using SwiftGen\b"),
    ("Laravel IDE helper", r"A helper file for Laravel, to provide autocomplete information"),
    # Anchored where the tools write them: a script or doc that quotes them is no
    # generated file.
    (
        "controller-gen's version annotation",
        r"(?m)^[ \t]+controller-gen\.kubebuilder\.io/version: ",
    ),
    ("generated by dune", r"(?m)^# This file is generated by dune, edit dune-project instead$"),
    # Deno Fresh's manifest, whose first line is exactly this.
    ("generated by Fresh", r"\A// DO NOT EDIT\. This file is generated by Fresh\."),
    # gettext templates from WordPress's `wp i18n make-pot` (a translator's .po says
    # Poedit, or nothing).
    ("WP-CLI gettext template", r'(?m)^"X-Generator: WP-CLI'),
    # Elm's compiler output opens with its runtime's wrapper.
    ("compiled by Elm", r"\A\(function\(scope\)\{\s*'use strict';"),
    # unplugin-vue-components' and unplugin-auto-import's declaration files, the
    # line exactly as they write it.
    ("generated by unplugin", r"(?m)^// Generated by unplugin-(?:vue-components|auto-import)$"),
    # `terraform show -json`, which opens with these two keys in this order.
    ("terraform show -json", r'\A\{"format_version":"[0-9.]+","terraform_version":"'),
    # .NET's own mark, which its compilers and analyzers honour: `// <auto-generated/>`
    # (or `<auto-generated>`) as the file's first comment, under a `//----` rule at
    # most — not a line further down (a source generator's helper quotes it).
    ("<auto-generated>", _DOTNET_AUTO_GENERATED),
    # Kiota's lock file, which every `kiota generate` or `kiota update` rewrites.
    ("Kiota's lock file", r'\A\{\s*"descriptionHash":\s*"[0-9A-Fa-f]+",\s*"descriptionLocation":'),
)


class GeneratedRules(BaseModel):
    """The ``recovery.generated`` policy section (see ``policies/recovery.yaml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    attributes: bool = Field(
        default=True, description="Read linguist-generated/linguist-vendored with git check-attr."
    )
    generated_folders: tuple[Name, ...] = ("__generated__/", "generated/", "Generated/")
    vendored_folders: tuple[Name, ...] = (
        "vendor/",
        "node_modules/",
        "bower_components/",
        "third_party/",
        "ansible_collections/",
    )
    marker_folders: tuple[Name, ...] = ("gen/",)
    build_outputs: tuple[BuildOutput, ...] = tuple(
        BuildOutput(folder=f, when=w, ecosystem=e) for f, w, e in DEFAULT_BUILD_OUTPUTS
    )
    build_files: tuple[BuildFile, ...] = (
        *(BuildFile(file=f, when=w, ecosystem=e) for f, w, e in DEFAULT_BUILD_FILES),
        *(BuildFile(file=f, when=w, ecosystem=e, link=True) for f, w, e in DEFAULT_BUILD_LINKS),
    )
    compiled: tuple[Name, ...] = DEFAULT_COMPILED
    run_outputs: tuple[Name, ...] = Field(
        default=DEFAULT_RUN_OUTPUTS,
        description="What running the program leaves behind (logs, crash dumps, coverage).",
    )
    lockfiles: tuple[Name, ...] = DEFAULT_LOCKFILES
    markers: tuple[Marker, ...] = tuple(Marker(name=n, pattern=p) for n, p in DEFAULT_MARKERS)
    stubs: tuple[TypeStub, ...] = (TypeStub(stub=".pyi", module=".py"),)
    companions: tuple[Companion, ...] = tuple(
        Companion(output=o, source=s, ecosystem=e) for o, s, e in DEFAULT_COMPANIONS
    )
    marker_lines: int = Field(default=10, ge=1, le=50)
    marker_bytes: int = Field(default=1024, ge=64, le=65536)
    binary_magic: bool = Field(
        default=True, description="Recognise compiled programs by their first bytes."
    )
    allow: tuple[Name, ...] = Field(
        default=(),
        description="Globs (matched against the whole path) these rules never call generated.",
    )

    @cached_property
    def _marker_regexes(self) -> tuple[tuple[str, re.Pattern[bytes]], ...]:
        return tuple((m.name, re.compile(m.pattern.encode("utf-8"))) for m in self.markers)

    @cached_property
    def _any_marker(self) -> re.Pattern[bytes] | None:
        """One regex that finds whether any marker is there (most files have none)."""
        if not self.markers:
            return None
        parts = []
        for marker in self.markers:
            # A leading global flag, (?i), becomes a scoped one, (?i:…), to combine.
            source = marker.pattern.encode("utf-8")
            found = re.match(rb"\(\?([a-zA-Z]+)\)", source)
            if found:
                parts.append(b"(?" + found.group(1) + b":" + source[found.end() :] + b")")
            else:
                parts.append(b"(?:" + source + b")")
        return re.compile(b"|".join(parts))

    def marker_in(self, head: bytes) -> str | None:
        """The name of the first marker found in ``head``'s first ``marker_lines``."""
        top = b"\n".join(head.split(b"\n", self.marker_lines)[: self.marker_lines])
        quick = self._any_marker
        if quick is None or not quick.search(top):
            return None
        for name, regex in self._marker_regexes:
            if regex.search(top):
                return name
        return None
