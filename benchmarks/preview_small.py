"""``vibflow recover --preview --json`` against VibeLign on small repositories, side by side.

Issue 12 asks a fresh preview to answer the repositories of the scenario
corpus (40 to 300 files) in ≤ 0.25 s, faster than VibeLign 2.5.15's
``vib recover --explain --json`` in the same run, and to keep the lead at
20,000 files with checkpoints. Three small repositories are generated like
the corpus's scenarios, each with an intent, a checkpoint and an agent's
drift (edits inside and outside the intent, a config edit, a new file, a
deletion):

* ``python-app`` — a Python package with tests and docs (~60 files);
* ``react-app`` — a TypeScript/React app: components, pages, hooks, styles,
  tests (~160 files);
* ``go-service`` — a Go service: cmd/, 25 internal packages, protos (~280 files);

and, unless ``--big-files 0``, a 20,000-file repository with three
checkpoints and 200 files rewritten.

Each tool gets its own copy of every repository (their state folders never
see each other) and makes its checkpoints its own way (``vibflow checkpoint
create``; ``vib checkpoint``). Then, round robin after warm-up rounds, fresh
processes: ``python -c pass`` and ``git status --porcelain`` (baselines), a
Python that loads the standard modules vibflow loads and the same with pydantic
and one model (their difference is pydantic's fixed cost, which DESIGN's "pydantic
for every model" puts on every preview), ``vibflow recover --preview --json`` and
``--explain --json``, and ``vib recover --explain --json``. Reported: medians
of wall time (and of CPU time of the process with its children, which load on
a shared machine moves less), and vibflow's preview over VibeLign's, per round then the median.

VibeLign lives in its own venv, never in vibflow's (``--vib`` names its
``vib``; by default ``build/vibelign-venv/bin/vib`` of this checkout)::

    python3 -m venv build/vibelign-venv && build/vibelign-venv/bin/pip install vibelign==2.5.15

Usage::

    python benchmarks/preview_small.py [--rounds 15] [--big-files 20000] [--vib PATH]
        [--base-venv PATH] [--json]

VibeLign takes the nearest folder above holding a ``.vibelign`` folder as its
project (a ``/tmp/.vibelign`` left by another run would make its checkpoint
scan all of ``/tmp``), so every ``vib`` call here names its project in
``VIBELIGN_PROJECT_ROOT``, VibeLign's own override.

``--corpus N`` adds N repositories of the zone corpus itself (``tests/scenarios``,
spread evenly over it, built as their tests build them; VibeLign's copy takes its
checkpoint before the agent's drift), and a line over all of them.

``--base-venv`` names a venv with an older vibflow (a ``git archive`` of the
base commit installed into its own venv): its preview runs on a third copy of
each project in the same rounds, and the per-round ratio is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import (
    GIT_ENV,
    REPO,
    VIBFLOW,
    compile_installed,
    default_dirs,
    git,
    measured,
    module_bytes,
)

GOAL_S = 0.25
BASE_PREVIEW = "base vibflow recover --preview --json"
#: What pydantic costs a preview on its own: a Python that loads the standard
#: modules vibflow's own code loads on that path, then the same with pydantic
#: loaded and one model built (its first model loads the schema machinery). The
#: difference is pydantic's fixed cost; building the ~45 models a preview uses
#: costs more on top (measured in process, RESULTS). Run as the CLI runs: no
#: plugin scan, its GC threshold. DESIGN makes pydantic every model's library.
STDLIB = (
    "concurrent.futures",
    "dataclasses",
    "fnmatch",
    "getpass",
    "hashlib",
    "importlib.resources",
    "json",
    "logging",
    "pathlib",
    "re",
    "shutil",
    "sqlite3",
    "subprocess",
    "tempfile",
    "typing",
    "unicodedata",
    "filelock",
)
_AS_CLI = (
    "import gc, os; gc.set_threshold(100_000, 10, 10); "
    "os.environ.setdefault('PYDANTIC_DISABLE_PLUGINS', '__all__'); "
    "import " + ", ".join(STDLIB)
)
STDLIB_ONLY = "python: the stdlib vibflow loads"
WITH_PYDANTIC = "python: the same + pydantic, 1 model"
_PYDANTIC_CODE = _AS_CLI + "\nfrom pydantic import BaseModel\nclass M(BaseModel):\n    x: int\n"
VIB = REPO / "build" / "vibelign-venv" / "bin" / "vib"
Files = dict[str, str]


# --- the repositories ------------------------------------------------------------------


def python_app() -> tuple[Files, Callable[[Path], None], str, list[str]]:
    files: Files = {
        "pyproject.toml": '[project]\nname = "shop"\nversion = "0.3.0"\n',
        "README.md": "# shop\n\nA small web shop.\n",
        ".gitignore": "__pycache__/\n*.pyc\n",
    }
    for name in ("auth", "cart", "catalog", "checkout", "config", "db", "models", "payments"):
        files[f"src/shop/{name}.py"] = "".join(
            f"def {name}_{i}(value):\n    return value + {i}\n\n" for i in range(12)
        )
        files[f"tests/test_{name}.py"] = f"from shop import {name}\n\n\ndef test_it():\n    pass\n"
    for i in range(20):
        files[f"src/shop/routes/r{i}.py"] = f"ROUTE = '/r{i}'\n"
    for i in range(12):
        files[f"docs/page{i}.md"] = f"# Page {i}\n\nText.\n"
    files["src/shop/__init__.py"] = ""

    def drift(root: Path) -> None:
        _append(root / "src/shop/auth.py", "def login_fixed(user):\n    return bool(user)\n")
        _append(root / "tests/test_auth.py", "\ndef test_login():\n    pass\n")
        _append(root / "src/shop/payments.py", "DEBUG_PAYMENTS = True\n")  # outside the intent
        _append(root / "pyproject.toml", "\n[tool.shop]\ndebug = true\n")
        (root / "src/shop/debug_dump.py").write_text("print('dump')\n", "utf-8")
        (root / "docs/page3.md").unlink()

    return files, drift, "fix the login bug in auth", ["src/shop/auth.py"]


def react_app() -> tuple[Files, Callable[[Path], None], str, list[str]]:
    files: Files = {
        "package.json": '{"name": "web", "version": "1.0.0", "dependencies": {"react": "18"}}\n',
        "tsconfig.json": '{"compilerOptions": {"jsx": "react-jsx", "strict": true}}\n',
        "README.md": "# web\n",
        ".gitignore": "node_modules/\ndist/\n",
    }
    for i in range(60):
        name = "LoginForm" if i == 0 else f"Widget{i}"
        files[f"src/components/{name}.tsx"] = (
            f'export function {name}() {{\n  return <div className="w{i}">{i}</div>;\n}}\n'
        )
    for i in range(20):
        files[f"src/pages/Page{i}.tsx"] = f"export default function Page{i}() {{ return null; }}\n"
        files[f"src/hooks/useThing{i}.ts"] = f"export const useThing{i} = () => {i};\n"
        files[f"src/styles/s{i}.css"] = f".w{i} {{ color: red; }}\n"
    for i in range(25):
        files[f"tests/Widget{i}.test.tsx"] = f"test('w{i}', () => {{}});\n"
    for i in range(10):
        files[f"public/icon{i}.svg"] = "<svg xmlns='http://www.w3.org/2000/svg'/>\n"

    def drift(root: Path) -> None:
        _append(root / "src/components/LoginForm.tsx", "export const remember = true;\n")
        _append(root / "src/components/Widget7.tsx", "export const sibling = 1;\n")  # a sibling
        _append(root / "package.json", "\n")
        (root / "src/utils").mkdir()
        (root / "src/utils/tmp.ts").write_text("export const tmp = 1;\n", "utf-8")
        (root / "src/styles/s4.css").unlink()

    return files, drift, "let the login form remember the user", ["src/components/LoginForm.tsx"]


def go_service() -> tuple[Files, Callable[[Path], None], str, list[str]]:
    files: Files = {
        "go.mod": "module example.com/svc\n\ngo 1.22\n",
        "Makefile": "build:\n\tgo build ./...\n",
        "cmd/server/main.go": "package main\n\nfunc main() {}\n",
    }
    for p in range(25):
        pkg = "ratelimit" if p == 0 else f"pkg{p}"
        for f in range(10):
            files[f"internal/{pkg}/f{f}.go"] = (
                f"package {pkg}\n\nfunc F{f}(x int) int {{\n\treturn x + {f}\n}}\n"
            )
    for i in range(20):
        files[f"api/v1/s{i}.proto"] = f'syntax = "proto3";\npackage s{i};\n'

    def drift(root: Path) -> None:
        _append(root / "internal/ratelimit/f0.go", "\nfunc Allow() bool { return true }\n")
        _append(root / "internal/ratelimit/f1.go", "\nvar Burst = 10\n")
        _append(root / "internal/pkg3/f2.go", "\nvar Debug = true\n")  # outside the intent
        _append(root / "go.mod", "\nrequire example.com/x v1.0.0\n")
        (root / "internal/pkg9/f5.go").unlink()
        (root / "internal/ratelimit/bucket.go").write_text("package ratelimit\n", "utf-8")

    return files, drift, "add a token bucket to the rate limiter", ["internal/ratelimit/f0.go"]


SMALL = {"python-app": python_app, "react-app": react_app, "go-service": go_service}


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)


def write_repo(root: Path, files: Files) -> None:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "gc.auto", "0")  # no gc in the background while the tree is copied
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")


def write_big(root: Path, files: int) -> None:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "gc.auto", "0")  # no gc in the background while the tree is copied
    dirs = default_dirs(files)
    for i in range(files):
        folder = root / "src" / f"pkg{i % dirs}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i}.py").write_bytes(module_bytes(i, "original"))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")


def big_drift(root: Path, files: int, step: int) -> None:
    dirs = default_dirs(files)
    for i in range(step * 100, step * 100 + 100):
        (root / "src" / f"pkg{i % dirs}" / f"mod{i}.py").write_bytes(module_bytes(i, f"s{step}"))


# --- the tools -------------------------------------------------------------------------


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (the process and its children), status, stderr."""
    return measured(argv, cwd, env)


def must(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    _, _, status, err = run(argv, cwd, env)
    if status != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({status}): {err.strip()[-400:]}")


def prepare_vibflow(root: Path, intent: str, explicit: list[str], env: dict[str, str]) -> None:
    must([*VIBFLOW, "memory", "intent", intent, "--yes"], root, env)
    for path in explicit:
        must([*VIBFLOW, "memory", "relevant", path, "what the intent is about", "--yes"], root, env)
    must([*VIBFLOW, "checkpoint", "create", "-m", "before the agent"], root, env)


def vib_env(env: dict[str, str], root: Path) -> dict[str, str]:
    """VibeLign's environment: its project is ``root``, whatever folder above holds
    a ``.vibelign`` of its own."""
    return {**env, "VIBELIGN_PROJECT_ROOT": str(root)}


def prepare_vibelign(vib: str, root: Path, env: dict[str, str]) -> None:
    must([vib, "checkpoint", "before the agent"], root, vib_env(env, root))


# --- measuring -------------------------------------------------------------------------


def build_all(
    args: argparse.Namespace, tmp: Path, env: dict[str, str], vib: str | None
) -> tuple[dict[str, dict[str, Path]], dict[str, int]]:
    """Every repository, one copy per tool, each prepared by its tool and drifted."""
    repos: dict[str, dict[str, Path]] = {}
    sizes: dict[str, int] = {}
    for name, make in SMALL.items():
        files, drift, intent, explicit = make()
        sizes[name] = len(files)
        pair = {"vibflow": tmp / name / "vibflow", "vibelign": tmp / name / "vibelign"}
        write_repo(pair["vibflow"], files)
        shutil.copytree(pair["vibflow"], pair["vibelign"], symlinks=True)
        prepare_vibflow(pair["vibflow"], intent, explicit, env)
        if vib:
            prepare_vibelign(vib, pair["vibelign"], env)
        for root in pair.values():
            drift(root)
        _base_copy(args, pair)
        repos[name] = pair
    if args.big_files:
        name = f"{args.big_files:,} files, 3 checkpoints"
        sizes[name] = args.big_files
        pair = {"vibflow": tmp / "big" / "vibflow", "vibelign": tmp / "big" / "vibelign"}
        write_big(pair["vibflow"], args.big_files)
        shutil.copytree(pair["vibflow"], pair["vibelign"], symlinks=True)
        must([*VIBFLOW, "memory", "intent", "tune the importer", "--yes"], pair["vibflow"], env)
        for step in range(3):
            for root in pair.values():
                big_drift(root, args.big_files, step)
            must([*VIBFLOW, "checkpoint", "create"], pair["vibflow"], env)
            if vib:
                must(
                    [vib, "checkpoint", f"step {step}"],
                    pair["vibelign"],
                    vib_env(env, pair["vibelign"]),
                )
        for root in pair.values():
            big_drift(root, args.big_files, 3)
            big_drift(root, args.big_files, 4)
        _base_copy(args, pair)
        repos[name] = pair
    for name, pair, files in corpus_repos(args.corpus, tmp / "corpus", env, vib):
        _base_copy(args, pair)
        repos[name], sizes[name] = pair, files
    return repos, sizes


def corpus_repos(
    count: int, tmp: Path, env: dict[str, str], vib: str | None
) -> list[tuple[str, dict[str, Path], int]]:
    """``count`` scenarios of the zone corpus (``tests/scenarios``), spread evenly over
    it: each built as its test builds it (history, memory, checkpoint, the agent's
    drift), and a copy for VibeLign whose own checkpoint is taken before the drift
    (the drift stashed meanwhile). Name, the two copies, and the tracked files."""
    if count <= 0:
        return []
    sys.path[:0] = [str(REPO / "tests" / "scenarios"), str(REPO / "tests" / "support")]
    from corpus import CORPUS
    from scenario_kit import build

    step = max(1, len(CORPUS) // count)
    out = []
    for scenario in CORPUS[::step][:count]:
        root, _ = build(scenario, tmp / scenario.name)
        theirs = root.with_name("vibelign")
        shutil.copytree(root, theirs, symlinks=True)
        if vib:
            stashed = git(theirs, "stash", "list")
            git(theirs, "stash", "push", "-u", "-q")
            prepare_vibelign(vib, theirs, env)
            if git(theirs, "stash", "list") != stashed:
                git(theirs, "stash", "pop", "-q")
        files = len(git(root, "ls-files").splitlines())
        out.append((f"corpus: {scenario.name}", {"vibflow": root, "vibelign": theirs}, files))
    return out


def _base_copy(args: argparse.Namespace, pair: dict[str, Path]) -> None:
    """With ``--base-venv``: a third copy of the project, prepared and drifted as
    vibflow's, for the older vibflow's preview in the same rounds."""
    if args.base_venv:
        pair["base"] = pair["vibflow"].with_name("base")
        shutil.copytree(pair["vibflow"], pair["base"], symlinks=True)


def measure(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    env = {k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    vib = args.vib if Path(args.vib).exists() else None
    repos, sizes = build_all(args, tmp, env, vib)
    commands: list[tuple[str, str, list[str], str]] = []  # (repo, label, argv, side)
    for name in repos:
        commands += [
            (name, "python -c pass", [sys.executable, "-c", "pass"], "vibflow"),
            (name, "git status --porcelain", ["git", "status", "--porcelain"], "vibflow"),
            (name, STDLIB_ONLY, [sys.executable, "-c", _AS_CLI], "vibflow"),
            (name, WITH_PYDANTIC, [sys.executable, "-c", _PYDANTIC_CODE], "vibflow"),
            (
                name,
                "vibflow recover --preview --json",
                [*VIBFLOW, "recover", "--preview", "--json"],
                "vibflow",
            ),
            (
                name,
                "vibflow recover --explain --json",
                [*VIBFLOW, "recover", "--explain", "--json"],
                "vibflow",
            ),
        ]
        if args.base_venv:
            base_python = str(Path(args.base_venv) / "bin" / "python")
            commands.append(
                (
                    name,
                    BASE_PREVIEW,
                    [base_python, "-m", "vibflow", "recover", "--preview", "--json"],
                    "base",
                )
            )
        if vib:
            commands.append(
                (
                    name,
                    "vib recover --explain --json",
                    [vib, "recover", "--explain", "--json"],
                    "vibelign",
                )
            )
    walls: dict[tuple[str, str], list[float]] = {(r, lab): [] for r, lab, _, _ in commands}
    cpus: dict[tuple[str, str], list[float]] = {(r, lab): [] for r, lab, _, _ in commands}
    for round_no in range(args.warmup + args.rounds):
        order = commands if round_no % 2 == 0 else commands[::-1]
        for repo, label, argv, side in order:
            big = repo not in SMALL and not repo.startswith("corpus: ")
            if big and round_no >= args.warmup + args.big_rounds:
                continue  # VibeLign takes ~18 s a call at 20,000 files: a few rounds do
            cwd = repos[repo][side]
            wall, cpu, status, err = run(
                argv, cwd, vib_env(env, cwd) if side == "vibelign" else env
            )
            if status != 0:
                raise SystemExit(f"{repo}: {label} failed ({status}): {err.strip()[-400:]}")
            if round_no >= args.warmup:
                walls[(repo, label)].append(wall)
                cpus[(repo, label)].append(cpu)

    results: dict[str, Any] = {}
    for repo in repos:
        rows = {
            label: {
                "median_s": statistics.median(walls[(r, label)]),
                "min_s": min(walls[(r, label)]),
                "cpu_median_s": statistics.median(cpus[(r, label)]),
            }
            for r, label, _, _ in commands
            if r == repo
        }
        entry: dict[str, Any] = {
            "files": sizes[repo],
            "rounds": len(walls[(repo, "python -c pass")]),
            "commands": rows,
        }
        ours = walls[(repo, "vibflow recover --preview --json")]
        if vib:
            theirs = walls[(repo, "vib recover --explain --json")]
            ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
            entry["preview_over_vibelign"] = statistics.median(ratios)
            entry["preview_faster_rounds"] = sum(1 for r in ratios if r < 1)
        if args.base_venv:
            base = walls[(repo, BASE_PREVIEW)]
            entry["preview_over_base"] = statistics.median(
                [a / b for a, b in zip(ours, base, strict=True)]
            )
        entry["preview_goal_met"] = statistics.median(ours) <= GOAL_S
        results[repo] = entry
    return {
        "meta": {
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "commit": git(REPO, "rev-parse", "--short=12", "HEAD"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average": os.getloadavg(),
            "rounds": args.rounds,
            "warmup": args.warmup,
            "vibelign": vib or f"not found at {args.vib} (install it there to compare)",
        },
        "repos": results,
    }


def render(doc: dict[str, Any]) -> None:
    meta = doc["meta"]
    print(
        f"recover --preview on small repositories — {meta['date_utc']}, "
        f"commit {meta['commit']}, {meta['rounds']} rounds after {meta['warmup']} warm-up, "
        f"load {meta['load_average'][0]:.1f}"
    )
    print(f"VibeLign: {meta['vibelign']}")
    for repo, entry in doc["repos"].items():
        print(f"\n{repo} ({entry['files']:,} files)")
        print(f"  {'command':<36} {'median':>9} {'min':>9} {'cpu':>9}")
        for label, row in entry["commands"].items():
            print(
                f"  {label:<36} {row['median_s'] * 1000:>7.0f}ms {row['min_s'] * 1000:>7.0f}ms "
                f"{row['cpu_median_s'] * 1000:>7.0f}ms"
            )
        goal = "met" if entry["preview_goal_met"] else "NOT met"
        line = f"  preview median <= {GOAL_S} s: {goal}"
        if "preview_over_vibelign" in entry:
            line += (
                f"; vibflow preview / VibeLign explain = {entry['preview_over_vibelign']:.2f} "
                f"(faster in {entry['preview_faster_rounds']} of {entry['rounds']} rounds)"
            )
        if "preview_over_base" in entry:
            line += f"; over the base venv's preview = {entry['preview_over_base']:.2f}"
        print(line)
    corpus = [e for repo, e in doc["repos"].items() if repo.startswith("corpus: ")]
    if corpus:
        ours = [e["commands"]["vibflow recover --preview --json"]["median_s"] for e in corpus]
        print(
            f"\nzone corpus, {len(corpus)} repositories ({min(e['files'] for e in corpus)} to "
            f"{max(e['files'] for e in corpus)} tracked files): vibflow preview median of "
            f"medians {statistics.median(ours) * 1000:.0f} ms, <= {GOAL_S} s in "
            f"{sum(1 for o in ours if o <= GOAL_S)} of {len(corpus)}"
        )
        if all("preview_over_vibelign" in e for e in corpus):
            ratios = [e["preview_over_vibelign"] for e in corpus]
            theirs = [e["commands"]["vib recover --explain --json"]["median_s"] for e in corpus]
            print(
                f"  VibeLign explain median of medians {statistics.median(theirs) * 1000:.0f} ms;"
                f" vibflow / VibeLign median {statistics.median(ratios):.2f}, faster in "
                f"{sum(1 for r in ratios if r < 1)} of {len(corpus)} repositories"
            )
        base = [e["commands"][STDLIB_ONLY]["median_s"] for e in corpus]
        plus = [e["commands"][WITH_PYDANTIC]["median_s"] for e in corpus]
        share = statistics.median(p - b for p, b in zip(plus, base, strict=True))
        print(
            f"  pydantic's fixed cost (loaded, one model built, over the stdlib vibflow "
            f"loads): median {share * 1000:.0f} ms; the preview less it: "
            f"{statistics.median(o - share for o in ours) * 1000:.0f} ms"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--big-files", type=int, default=20_000, help="0 skips the big repository")
    ap.add_argument("--big-rounds", type=int, default=3, help="rounds of the big repository")
    ap.add_argument(
        "--corpus", type=int, default=0, help="also this many of the zone corpus's repositories"
    )
    ap.add_argument("--vib", default=str(VIB), help="VibeLign's `vib` (its own venv)")
    ap.add_argument(
        "--base-venv",
        help="a venv with an older vibflow: its preview runs in the same rounds (paired ratio)",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-preview-") as tmp:
        doc = measure(args, Path(tmp))
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)


if __name__ == "__main__":
    main()
