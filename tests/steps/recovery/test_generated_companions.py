"""Files a tool writes beside their source and names after it (``companions``), and
the fifteenth batch's build folders. Real repositories, the real CLI
(``vibflow recover --explain --json``).

``main.aux`` and ``main.pdf`` beside ``main.tex`` are LaTeX's. Each is believed
only while the last commit holds the source, and an output the last commit holds
too only when the change changed the source: an agent that writes ``notes.tex``
with the ``notes.pdf`` beside it, or replaces a committed ``paper.pdf`` beside a
``paper.tex`` it left alone, has made the evidence or has edited by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.advisor import commit_app, drift_of, recover, set_memory
from vibflow_testing.cli import Cli
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli


def _excluded(plan: dict[str, object]) -> set[str]:
    return set(plan["excluded_generated"])  # type: ignore[call-overload]


def test_a_sources_companions_are_build_output(repo: Path, cli: Cli) -> None:
    commit_app(
        repo,
        {
            "paper/main.tex": "\\documentclass{article}\n",
            "paper/main.aux": "\\relax\n",
            "paper/figures/plot.pdf": "%PDF-1.5 a figure\n",
            "notes/paper.tex": "\\documentclass{article}\n",
            "notes/paper.pdf": "%PDF curated\n",
            "notes/fig.tex": "fig\n",
            "notes/fig.pdf": "%PDF\n",
            "app.py": "x = 1\n",
        },
    )
    set_memory(repo, explicit={"app.py": "mine"})
    write(repo, "app.py", "x = 2\n")
    write(repo, "paper/main.tex", "\\documentclass[review]{article}\n")
    outputs = ["paper/main.aux", "paper/main.synctex.gz", "paper/main.pdf"]
    for rel in outputs:
        write(repo, rel, "written by a tool\n")
    # Named like an output, with no source beside it; a committed output whose source
    # the change left alone (replaced or deleted): someone's edit, shown.
    write(repo, "paper/figures/plot.aux", "hand-made\n")
    write(repo, "notes/paper.pdf", "%PDF replaced\n")
    (repo / "notes" / "fig.pdf").unlink()
    plan = recover(cli, "--explain")
    assert set(outputs) <= _excluded(plan)
    assert {"paper/figures/plot.aux", "notes/paper.pdf", "notes/fig.pdf"} <= drift_of(plan)


def test_a_source_the_change_brought_vouches_for_nothing(repo: Path, cli: Cli) -> None:
    """The agent writes ``notes.tex`` and the ``notes.pdf`` it would hide; a folder
    named like a source (``assets`` beside ``assets.aux``) is no source either."""
    commit_app(repo, {"app.py": "x = 1\n", "assets/logo.txt": "logo\n"})
    set_memory(repo, explicit={"app.py": "mine"})
    write(repo, "app.py", "x = 2\n")
    write(repo, "notes.tex", "\\documentclass{article}\n")
    write(repo, "notes.pdf", "%PDF evil\n")
    write(repo, "assets.aux", "hand-made\n")
    plan = recover(cli, "--explain")
    assert {"notes.pdf", "assets.aux"} <= drift_of(plan)


def test_before_the_first_commit_no_source_vouches(repo: Path, cli: Cli) -> None:
    write(repo, ".vibflow/.gitignore", "*\n")
    write(repo, "app.py", "x = 1\n")
    write(repo, "notes.tex", "\\documentclass{article}\n")
    write(repo, "notes.pdf", "%PDF\n")
    set_memory(repo, explicit={"app.py": "mine"})
    plan = recover(cli, "--explain")
    assert "notes.pdf" not in _excluded(plan)


def test_quarto_docusaurus_nextflow_yarn_and_esp_idf_output(repo: Path, cli: Cli) -> None:
    commit_app(
        repo,
        {
            "course/_quarto.yml": "project:\n  type: website\n",
            "docs/docusaurus.config.js": "module.exports = {};\n",
            "pipe/nextflow.config": "params.outdir = 'results'\n",
            "web/.yarnrc.yml": "nodeLinker: pnp\n",
            "web/.pnp.cjs": "// the loader\n",
            "fw/dependencies.lock": "version: 2.0.0\n",
            "fw/main/app.c": "int main(void) { return 0; }\n",
        },
    )
    set_memory(repo, explicit={"fw/main/app.c": "the app"})
    write(repo, "fw/main/app.c", "int main(void) { return 1; }\n")
    outputs = [
        "course/_freeze/week1/execute-results/html.json",
        "course/.quarto/idx/index.qmd.json",
        "docs/.docusaurus/routes.js",
        "pipe/work/3c/1f0e2a/.command.sh",
        "pipe/.nextflow/history",
        "pipe/.nextflow.log",
        "pipe/.nextflow.log.2",
        "web/.pnp.data.json",
        "web/.yarn/install-state.gz",
        "web/.yarn/cache/react-npm-18.3.1-cafe.zip",
        "web/packages/ui/.turbo/turbo-build.log",
        "fw/managed_components/espressif__led_strip/CMakeLists.txt",
    ]
    for rel in outputs:
        write(repo, rel, "written by a tool\n")
    # The same names without their project file: the project's own.
    own = ["other/_freeze/x.json", "other/work/notes.md", "other/.yarn/cache/a.zip"]
    own += ["other/managed_components/x/CMakeLists.txt"]
    # What runs on every command is shown: Yarn's pinned release and its loader.
    own += ["web/.yarn/releases/yarn-4.3.1.cjs", "web/.pnp.cjs"]
    for rel in own:
        write(repo, rel, "hand-made\n")
    plan = recover(cli, "--explain")
    assert set(outputs) <= _excluded(plan)
    assert set(own) <= drift_of(plan)
