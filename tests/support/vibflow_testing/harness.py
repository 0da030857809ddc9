"""A front door for tests: the real CLI plus the test kit's steps and guards.

Run as ``python tests/support/vibflow_testing/harness.py ARGS...`` (``cli.harness_cmd``
builds that line); it behaves exactly like ``vibflow ARGS...`` with extra registrations.
"""

import sys
from pathlib import Path


def main() -> int:
    """Run the CLI with ``vibflow_testing.flows`` registered."""
    from vibflow.cli.app import run_cli
    from vibflow_testing.flows import register

    return run_cli(sys.argv[1:], registry_hook=register)


if __name__ == "__main__":
    # Run as a script, Python puts this package's own folder first on sys.path (where
    # git.py, cli.py ... would shadow other modules); put its parent there instead so
    # the kit imports as the ``vibflow_testing`` package.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)
    sys.exit(main())
