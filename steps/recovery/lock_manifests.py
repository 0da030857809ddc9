"""Which manifest a lockfile is written from, so a lockfile can follow its
manifest's verdict.

A lockfile is never drift on its own: a package manager rewrites it, and the
plan lists it as *regenerated*. But when the only reason it changed is a
manifest change the user did not ask for (a version bump nobody wanted), it
is part of that drift: restoring ``Gemfile`` without ``Gemfile.lock`` leaves
the two disagreeing, and the next ``bundle install`` rewrites the lockfile
again from the drifted state. So a changed lockfile whose changed manifests
are *all* drift candidates is a drift candidate too, restored with them. If
any manifest it covers is in the zone (a dependency the feature needs), or no
manifest changed (a plain re-lock), it stays regenerated.

Pure: the names only. Workspace lockfiles (npm, pnpm, yarn, bun, Cargo, uv)
also cover the manifests of packages below their folder; the others only
their own folder's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from fnmatch import fnmatchcase

#: lockfile name -> the manifest names (globs) it is written from.
MANIFESTS: dict[str, tuple[str, ...]] = {
    "package-lock.json": ("package.json",),
    "npm-shrinkwrap.json": ("package.json",),
    "yarn.lock": ("package.json",),
    "pnpm-lock.yaml": ("package.json", "pnpm-workspace.yaml"),
    "bun.lock": ("package.json",),
    "bun.lockb": ("package.json",),
    "deno.lock": ("deno.json", "deno.jsonc"),
    "composer.lock": ("composer.json",),
    "Gemfile.lock": ("Gemfile", "*.gemspec"),
    "Cargo.lock": ("Cargo.toml",),
    "go.sum": ("go.mod",),
    "go.work.sum": ("go.work",),
    "poetry.lock": ("pyproject.toml",),
    "Pipfile.lock": ("Pipfile",),
    "uv.lock": ("pyproject.toml",),
    "pdm.lock": ("pyproject.toml",),
    "pixi.lock": ("pixi.toml", "pyproject.toml"),
    "packages.lock.json": ("*.csproj", "*.fsproj", "*.vbproj"),
    "paket.lock": ("paket.dependencies",),
    "gradle.lockfile": ("build.gradle", "build.gradle.kts"),
    "mix.lock": ("mix.exs",),
    "pubspec.lock": ("pubspec.yaml",),
    "Podfile.lock": ("Podfile",),
    "Package.resolved": ("Package.swift",),
    "flake.lock": ("flake.nix",),
    ".terraform.lock.hcl": ("*.tf",),
    "MODULE.bazel.lock": ("MODULE.bazel",),
}
#: Lockfiles of a workspace: they also lock the packages below their folder.
WORKSPACE = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lock",
        "bun.lockb",
        "Cargo.lock",
        "uv.lock",
    }
)


def manifests_of(lockfile: str, changed: Iterable[str]) -> list[str]:
    """The changed paths that are manifests ``lockfile`` is written from."""
    folder, _, name = lockfile.rpartition("/")
    globs = MANIFESTS.get(name)
    if globs is None:
        return []
    prefix = f"{folder}/" if folder else ""
    out = []
    for path in changed:
        where, _, base = path.rpartition("/")
        covered = where == folder or (name in WORKSPACE and path.startswith(prefix) and where)
        if covered and any(fnmatchcase(base, g) for g in globs):
            out.append(path)
    return sorted(out)


def follows_drift(lockfile: str, changed: Iterable[str], drift: Collection[str]) -> list[str]:
    """The drifted manifests ``lockfile`` was rewritten for, when every changed
    manifest it covers is drift; else ``[]`` (it stays regenerated)."""
    manifests = manifests_of(lockfile, changed)
    return manifests if manifests and all(m in drift for m in manifests) else []
