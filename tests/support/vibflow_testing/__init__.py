"""The test kit, one package (``tests/support`` is on pytest's ``pythonpath``).

- ``git``: the one way a test runs git (``git``, ``run_git``, ``gtext``, ``git_proc``,
  ``dated``).
- ``repo``: the one repository builder (``make_repo`` for a project with the fixture
  flows installed, ``init_repo``, ``write``, ``with_submodule``, ``ignore_outside_tree``,
  ``make_store``).
- ``cli``: the real CLI as a subprocess (``Cli``, ``cli_runner``, ``harness_cmd``, ``vf``,
  ``vf_many``, ``clean_env``) and readers of what it leaves (``query``, ``effects_of``,
  ``as_json``).
- ``flows``: the test steps and guards the harness registers (``register``,
  ``read_effects``).
- ``restore``: restore work and lease holds for the batched-restore tests.
- ``harness``: the front door the ``cli`` helpers spawn (the real CLI plus ``flows``).

The constants below locate the fixture data, so no test computes paths from its own
file's place in the tree.
"""

from __future__ import annotations

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent.parent
TESTS = SUPPORT.parent
ROOT = TESTS.parent  # the repository: engine/, steps/, vibflow/, flows/, pyproject.toml
FLOWS = TESTS / "flows"  # fixture flows, by topic
PATHS_CORPUS = TESTS / "paths"
MEMORY_FIXTURES = TESTS / "memory_fixtures"
REDACTION_CORPUS = TESTS / "redaction_corpus"
