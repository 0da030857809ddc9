"""Our hand-written glob matchers against ``pathspec``, on the shipped policy globs.

vibflow matches paths against globs in two places, both hand-written:

* **generated** — ``steps.paths.policy.PathPolicy.generated_match``: the
  ``paths.generated`` list of ``policies/paths.yaml`` (gitignore-like:
  ``build/`` a folder at any depth, ``*.pyc`` a name at any depth, ``a/b/``
  anchored), one ``fnmatch`` per segment behind a one-regex quick reject;
* **categories** — ``steps.recovery.categories.category_of``: the
  ``recovery.categories`` globs of ``policies/recovery.yaml`` (``**``, ``*``,
  ``?``, anchored at the project folder, first category in policy order wins),
  compiled into one alternation.

The library candidate is ``pathspec`` (``GitIgnoreSpec`` for the generated
list; a ``gitignore`` ``PathSpec`` of the category globs anchored with a
leading ``/``, in reverse order so its "last match wins" index names the
first matching glob). Both get the same ``--paths`` generated paths (default
100,000: sources, tests, docs, configs, UI and service folders, generated
folders and caches, at several depths), their natural input prepared outside
the timer (ours: the path split into names, as ``signals`` and the path
contract call it; pathspec: the path string), and answer every path once per
repetition. Each matcher is timed on its own; repetitions alternate ours /
pathspec (``--reps``, default 7, after one warm-up each) and the medians and
the ratio are printed. The warm-up's answers are compared path by path first:
generated yes/no, and the category.

Usage (from the repository root, with the dev venv and ``pip install -e '.[bench]'``)::

    .venv/bin/python benchmarks/glob_match.py [--paths 100000] [--reps 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from vibflow.steps.paths.policy import PathPolicy
from vibflow.steps.recovery.categories import category_of

ROOT = Path(__file__).resolve().parent.parent

TOPS = ["src", "lib", "app", "packages/web", "packages/api", "services", "tools", "scripts"]
MIDDLES = [
    "core",
    "ui",
    "components",
    "pages",
    "views",
    "api",
    "server",
    "models",
    "db",
    "utils",
    "auth",
    "billing",
    "backend",
    "feature_flags",
]
NAMES = ["main", "util", "helpers", "index", "button", "login", "schema", "client", "store"]
EXTS = [".py", ".ts", ".tsx", ".js", ".jsx", ".vue", ".css", ".scss", ".html", ".go", ".rs"]
CONFIGS = ["a.toml", "b.yaml", "c.json", "Makefile", "Dockerfile", "d.config.js"]
GENERATED = [
    "node_modules/react/index.js",
    "node_modules/@babel/core/lib/index.js",
    "__pycache__/main.cpython-311.pyc",
    ".venv/lib/python3.11/site-packages/x.py",
    "build/lib/app.js",
    "dist/bundle.js",
    "target/debug/app",
    ".next/cache/x.json",
    "coverage/lcov.info",
    "pkg.egg-info/PKG-INFO",
    ".pytest_cache/v/cache/nodeids",
    ".DS_Store",
    "._notes.md",
    ".coverage.host.1234",
    "htmlcov/index.html",
    ".cache/x",
]


def shipped_globs() -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    yaml = YAML(typ="safe")
    paths = yaml.load((ROOT / "policies" / "paths.yaml").read_text("utf-8"))["paths"]
    recovery = yaml.load((ROOT / "policies" / "recovery.yaml").read_text("utf-8"))["recovery"]
    categories = {name: tuple(globs) for name, globs in recovery["categories"].items()}
    return tuple(paths["generated"]), categories


def make_paths(n: int, seed: int = 7) -> list[str]:
    """A deterministic mix: mostly sources (most paths match no generated glob)."""
    rnd = random.Random(seed)
    out: list[str] = []
    for i in range(n):
        kind = rnd.random()
        if kind < 0.55:
            depth = rnd.randint(0, 4)
            folders = [rnd.choice(TOPS), *(rnd.choice(MIDDLES) for _ in range(depth))]
            out.append("/".join([*folders, f"{rnd.choice(NAMES)}{i % 97}{rnd.choice(EXTS)}"]))
        elif kind < 0.70:
            name = rnd.choice([f"test_{i % 89}.py", f"x{i % 89}_test.go", f"a{i % 89}.spec.ts"])
            folder = rnd.choice(["tests", "test", "spec", "src/auth", "packages/web/src"])
            out.append(f"{folder}/{rnd.choice(MIDDLES)}/{name}")
        elif kind < 0.78:
            out.append(rnd.choice(["docs/guide", "docs", "", "src/core"]) + f"/n{i % 53}.md")
        elif kind < 0.85:
            folder = rnd.choice(["", "config/", ".github/workflows/", "src/"])
            out.append(folder + rnd.choice(CONFIGS))
        else:
            prefix = rnd.choice(["", "src/", "packages/web/", "services/api/"])
            out.append(prefix + rnd.choice(GENERATED))
    return [p.lstrip("/") for p in out]


Answer = Callable[[Sequence[str], Sequence[list[str]]], list[Any]]


def ours(generated: tuple[str, ...], categories: dict[str, tuple[str, ...]]) -> dict[str, Answer]:
    policy = PathPolicy(generated=generated)

    def is_generated(_paths: Sequence[str], split: Sequence[list[str]]) -> list[Any]:
        match = policy.generated_match
        return [match(parts, final_is_dir=False) is not None for parts in split]

    def category(paths: Sequence[str], _split: Sequence[list[str]]) -> list[Any]:
        return [category_of(path, categories) for path in paths]

    return {"generated": is_generated, "categories": category}


def library(
    generated: tuple[str, ...], categories: dict[str, tuple[str, ...]]
) -> dict[str, Answer]:
    import pathspec

    gen_spec = pathspec.GitIgnoreSpec.from_lines(generated)
    owners = [name for name, globs in categories.items() for _ in globs]
    anchored = ["/" + g for globs in categories.values() for g in globs]
    # Reversed: pathspec reports the *last* matching pattern, we want the first.
    cat_spec = pathspec.PathSpec.from_lines("gitignore", list(reversed(anchored)))
    last = len(anchored) - 1

    def is_generated(paths: Sequence[str], _split: Sequence[list[str]]) -> list[Any]:
        match = gen_spec.match_file
        return [match(path) for path in paths]

    def category(paths: Sequence[str], _split: Sequence[list[str]]) -> list[Any]:
        check = cat_spec.check_file
        out: list[Any] = []
        for path in paths:
            index = check(path).index
            out.append(owners[last - index] if index is not None else None)
        return out

    return {"generated": is_generated, "categories": category}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--paths", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    import pathspec

    generated, categories = shipped_globs()
    paths = make_paths(args.paths)
    split = [p.split("/") for p in paths]
    impls = {"ours": ours(generated, categories), "pathspec": library(generated, categories)}
    result: dict[str, Any] = {
        "paths": len(paths),
        "reps": args.reps,
        "pathspec_version": pathspec.__version__,
        "globs": {"generated": len(generated), "categories": sum(map(len, categories.values()))},
        "matchers": {},
    }
    for matcher in ("generated", "categories"):
        runs = {name: impl[matcher] for name, impl in impls.items()}
        answers = {name: run(paths, split) for name, run in runs.items()}  # also the warm-up
        differ = [
            (p, a, b)
            for p, a, b in zip(paths, answers["ours"], answers["pathspec"], strict=True)
            if a != b
        ]
        times: dict[str, list[float]] = {name: [] for name in runs}
        for rep in range(args.reps):
            for name in list(runs) if rep % 2 == 0 else list(reversed(runs)):
                start = time.perf_counter()
                runs[name](paths, split)
                times[name].append(time.perf_counter() - start)
        med = {name: statistics.median(t) * 1000 for name, t in times.items()}
        result["matchers"][matcher] = {
            "hits": sum(a is not None and a is not False for a in answers["ours"]),
            "median_ms": med,
            "ratio_pathspec_over_ours": med["pathspec"] / med["ours"],
            "differing_answers": len(differ),
            "differing_examples": [list(map(str, d)) for d in differ[:5]],
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{len(paths):,} paths, pathspec {pathspec.__version__}, {args.reps} reps (interleaved)")
    for matcher, row in result["matchers"].items():
        print(
            f"{matcher} ({result['globs'][matcher]} globs, {row['hits']:,} paths match): "
            f"ratio pathspec / ours {row['ratio_pathspec_over_ours']:.2f}x, "
            f"differing answers {row['differing_answers']}"
        )
        for name, ms in row["median_ms"].items():
            print(f"  {name:9s} median {ms:8.1f} ms  ({ms * 1000 / len(paths):.2f} µs/path)")
        for path, a, b in row["differing_examples"]:
            print(f"    {path!r}: ours {a}, pathspec {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
