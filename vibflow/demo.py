"""``vibflow demo``: a scratch project, a simulated AI drift, the recover flow.

Everything happens in a new folder — a temp dir, removed when the demo ends
unless ``--keep``, or the ``--dir`` you name, which is kept: a small app is
committed, memory records what the user is working on, a checkpoint is
taken, then a simulated agent edits files in and out of scope, adds an
untracked helper, leaves build artifacts and a ``.env``. The recover flow
runs up to the user's choice and the demo prints what to type next (when the
project is kept). Nothing outside that folder is touched; no network is
needed.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibflow.steps.workspace.git import run_git

APP = {
    "README.md": "# tinyshop\n\nA tiny shop app.\n",
    ".gitignore": "dist/\n.env\n",  # __pycache__/ forgotten, as in many real repos
    "config.yaml": "shop:\n  currency: EUR\n  max_cart: 20\n",
    "src/app.py": "from src.ui.login import render_login\n\n\ndef main():\n"
    "    print(render_login())\n",
    "src/ui/login.py": 'def render_login():\n    return "<form><input name=user>'
    '<input name=pass type=password></form>"\n',
    "src/services/auth.py": "def check(user, password):\n"
    "    return bool(user) and len(password) >= 8\n",
    "tests/test_login.py": "from src.ui.login import render_login\n\n\n"
    "def test_form():\n    assert '<form>' in render_login()\n",
}

AGENT_EDITS = {
    # in scope: the login form, its test, and the helper the form now imports
    "src/ui/login.py": "from src.ui.helpers import label\n\n\ndef render_login():\n"
    "    return (\n"
    '        "<form aria-label=\\"Sign in\\">"\n'
    '        + label("User", "user") + "<input id=user name=user>"\n'
    '        + label("Password", "pass")\n'
    '        + "<input id=pass name=pass type=password></form>"\n    )\n',
    "tests/test_login.py": "from src.ui.login import render_login\n\n\n"
    "def test_form_has_labels():\n"
    "    assert 'aria-label' in render_login()\n",
    "src/ui/helpers.py": "def label(text, for_id):\n"
    "    return f'<label for={for_id}>{text}</label>'\n",
    # out of scope: the agent "helpfully" loosened auth and changed config
    "src/services/auth.py": "def check(user, password):\n    return True  # TODO tighten\n",
    "config.yaml": "shop:\n  currency: USD\n  max_cart: 999\n",
    # artifacts and a secret the snapshot must never take
    "dist/bundle.js": "console.log('built');\n",
    "src/__pycache__/app.cpython-311.pyc": "\x00compiled\x00",
    ".env": "SHOP_API_KEY=sk_live_demo_not_a_real_key_123456789\n",
}


@dataclass(frozen=True)
class DemoResult:
    root: Path
    run: Any
    plan: dict[str, Any]
    checkpoint_id: str


def _git(root: Path, *args: str) -> None:
    run_git(root, *args, timeout=60)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")


@dataclass(frozen=True)
class Scratch:
    root: Path
    kept: bool


@contextmanager
def scratch(target: Path | None, *, keep: bool) -> Iterator[Scratch]:
    """The demo's folder: ``target`` (new or empty; always kept, it is the user's), or
    a new temp folder, removed on the way out — after a failure too — unless ``keep``."""
    if target is None:
        root = Path(tempfile.mkdtemp(prefix="vibflow-demo-"))
    else:
        target.mkdir(parents=True, exist_ok=True)
        if any(target.iterdir()):
            from vibflow.engine.errors import ErrorCode, VibflowError

            raise VibflowError(
                ErrorCode.BAD_INPUT,
                "the demo folder must be new or empty",
                hint="Pick another --dir, or leave it out for a temp folder.",
            )
        root = target
    kept = keep or target is not None
    try:
        yield Scratch(root, kept)
    finally:
        if not kept:
            shutil.rmtree(root, ignore_errors=True)


def build(root: Path, registry_hook: Any = None) -> DemoResult:
    """The demo's story in ``root`` (an empty folder), up to the recover flow's choice."""
    from vibflow.wiring import Project

    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Demo User")
    _git(root, "config", "user.email", "demo@example.invalid")
    _write(root, APP)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "tinyshop: first version")

    project = Project(root.resolve(), registry_hook)
    memory = project.memory
    memory.set_intent("Make the login form accessible (labels, aria)", confirmed=True)
    memory.relevant("src/ui/login.py", "the login form being made accessible", confirmed=True)
    memory.relevant("tests/test_login.py", "tests for the login form", confirmed=True)
    memory.set_next("Check the form with a screen reader", confirmed=True)
    checkpoint = project.checkpoints.create("before the agent ran")
    time.sleep(0.05)  # the agent's edits come strictly after the checkpoint
    _write(root, AGENT_EDITS)

    run = project.runner.start(project.catalog.load("recover"))
    plan = project.run_plans.load(run.run_id) or {}
    return DemoResult(root, run, plan, checkpoint.checkpoint_id)


def command_name() -> str:
    """How the user can run vibflow from their shell right now: plain `vibflow`
    when that is on PATH, else the full path of the one running (after
    `make demo` it lives in .venv/bin, which is not on PATH)."""
    running = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    found = shutil.which("vibflow")
    if found and running and Path(found).resolve() == running:
        return "vibflow"
    if running and running.name == "vibflow" and running.is_file():
        return str(running)
    return f"{sys.executable} -m vibflow"


def render(result: DemoResult, *, kept: bool = True) -> str:
    from vibflow.cli import recover_render

    vib = command_name()
    plan = result.plan
    run_id = result.run.run_id
    # The command to type must run now: the recommended option, unless the apply
    # switch blocks it (then the first one that can run; the preview says why).
    runnable = [o for o in plan.get("options", []) if not o.get("blocked_reason")]
    best = next((o for o in runnable if o.get("recommended")), runnable[0] if runnable else None)
    lines = [
        "vibflow demo",
        f"  scratch project: {result.root}",
        "  1. committed a tiny shop app",
        "  2. recorded your intent: make the login form accessible; relevant: "
        "src/ui/login.py, tests/test_login.py",
        f"  3. took checkpoint {result.checkpoint_id} (before the agent)",
        "  4. a simulated AI agent edited the form and its test, added a helper the form",
        "     imports, loosened src/services/auth.py, changed config.yaml, and left dist/,",
        "     __pycache__/ and .env",
        f"  5. started `vibflow run recover` — run {run_id} now waits for your choice",
        "",
        recover_render.explain(plan).rstrip(),
        "",
        recover_render.preview(plan).rstrip(),
        "",
    ]
    if not kept:
        lines += [
            "The scratch project was removed as the demo ended. To step through the flow",
            "yourself, keep it (the demo then prints the commands to type):",
            f"  {vib} demo --keep",
        ]
        return "\n".join(lines) + "\n"
    lines += [
        f"The scratch project is kept in {result.root} (remove the folder when you are done).",
        "",
        "What to type next:",
        f"  cd {result.root}",
    ]
    if best:
        lines.append(f"  {vib} step {run_id} choose --input option={best['option_id']}")
    lines += [
        f"  {vib} step {run_id} cancel           # or leave without choosing",
        f"  {vib} recover --explain --all         # the same advice, any time",
        f"  {vib} flows show recover --format mermaid --run {run_id}",
    ]
    return "\n".join(lines) + "\n"
